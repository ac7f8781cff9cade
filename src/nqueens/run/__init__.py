"""Running a search: the plan of ``first --engine auto``, counting in pieces (estimate,
checkpoints, process pools, Dask clusters) and the benchmark, knowing engines only by their
declarations."""
