"""Follows and friends, invitations to a table's seat, and My games with its badge."""
