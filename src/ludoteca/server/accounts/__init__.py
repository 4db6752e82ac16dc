"""Accounts: signing up and in, guest sessions, usernames as people read them, and the
account page (email, password, sessions, deletion)."""
