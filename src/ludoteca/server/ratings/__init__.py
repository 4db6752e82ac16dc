"""Ratings per game (openskill), written with each rated ending, the leaderboards, and
each player's rating history and lifetime statistics."""
