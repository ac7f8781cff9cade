"""The package's compiled modules, in C (the rest is pyproject.toml): the counter of plain
boards, the listing of every solution, and solutions written as text many at a time.

They are optional: where no C compiler or Python headers are found, the package installs without
them, counts plain boards with the numba search instead and lists solutions one at a time, saying
so on stderr.
"""

import sys

from setuptools import Extension, setup

# Tuned for the processor it is built on; which instructions it may use is left to the default,
# plus a second copy of the search for processors with BMI2 that the module picks when it loads.
TUNE = [] if sys.platform == "win32" else ["-mtune=native"]

MODULES = {
    "nqueens.engines.bitboard._edges": "src/nqueens/engines/bitboard/_edges.c",
    "nqueens.engines.bitboard._listing": "src/nqueens/engines/bitboard/_listing.c",
    "nqueens.formats._text": "src/nqueens/formats/_text.c",
}

setup(
    ext_modules=[
        Extension(name, sources=[source], extra_compile_args=["-O3", *TUNE], optional=True)
        for name, source in MODULES.items()
    ]
)
