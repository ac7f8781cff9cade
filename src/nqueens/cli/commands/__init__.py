"""One module per command; :mod:`nqueens.cli` adds them to the group."""
