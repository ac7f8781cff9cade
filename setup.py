"""The package's one compiled module, the counter of plain boards in C (the rest is pyproject.toml).

It is optional: where no C compiler or Python headers are found, the package installs without it
and counts plain boards with the numba search instead, saying so on stderr.
"""

import sys

from setuptools import Extension, setup

# Tuned for the processor it is built on; which instructions it may use is left to the default,
# plus a second copy of the search for processors with BMI2 that the module picks when it loads.
TUNE = [] if sys.platform == "win32" else ["-mtune=native"]

setup(
    ext_modules=[
        Extension(
            "nqueens.engines.bitboard._edges",
            sources=["src/nqueens/engines/bitboard/_edges.c"],
            extra_compile_args=["-O3", *TUNE],
            optional=True,
        )
    ]
)
