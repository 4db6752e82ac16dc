"""Bots in seats: the runner that lets them think off the event loop and move through the
tables' pipeline, and the level that plays a person's seat while they are away."""
