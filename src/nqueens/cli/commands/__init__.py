"""One module per command; ``nqueens.cli`` adds them to the group."""
