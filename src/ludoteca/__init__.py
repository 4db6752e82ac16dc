"""Ludoteca: modern board games as clean Python engines, and an arena to play them."""

__version__ = "0.1.0"
