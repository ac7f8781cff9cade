"""Search engines: each runs the N-queens model on one solver, returning nqueens.results values."""
