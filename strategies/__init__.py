"""Shipped scripted strategies, one module per game (registered on import)."""
