"""Search engines, one folder each: how a board is searched on one solver, returning
``nqueens.core.results`` values. ``nqueens.engines.registry`` knows them all."""
