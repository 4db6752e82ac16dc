"""Alerts away from the tables: the dispatcher and its channels (open pages, Web Push,
email), the players' choices, "your turn", and the server's own messages in each language."""
