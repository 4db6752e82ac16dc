"""The game server: HTTP JSON API, WebSocket hub, storage, pub/sub, clocks, bots in seats, auth.

It serves every registered game through the engine's contract and never names one.
"""
