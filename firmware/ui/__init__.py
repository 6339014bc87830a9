"""Screens: game state to a 128x64 picture, with soft-key labels."""
