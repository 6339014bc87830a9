"""Computer players and the numpy simulator they think with."""
