"""Search engines, one folder each: how a board is searched on one solver, returning
:mod:`nqueens.core.results` values. :mod:`nqueens.engines.registry` knows them all."""
