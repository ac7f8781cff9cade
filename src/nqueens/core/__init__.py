"""What every layer shares: the board, results and errors, limits, symmetry and the
known counts. It imports no solver and nothing above it."""
