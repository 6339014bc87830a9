"""Hardware: buttons, display, spinner; real drivers and emulated twins. Knows no game."""
