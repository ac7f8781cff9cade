"""How far a count may reach out: the most processes it starts here, and how long it waits for
a cluster. Kept apart from the modules that use them, so that help can say them without
starting anything."""

MAX_WORKERS = 1024
"""The most worker processes a count starts on one machine (``-j``, ``local:K``): a mistyped
-j 99999 would otherwise fork one for each of a count's thousands of subproblems."""

CONNECT_SECONDS = 10.0
"""How long a count waits for a cluster's scheduler to answer, unless told otherwise."""
