"""Spielleiter: the device program that leads the game at the table."""

__version__ = "0.1.0"
