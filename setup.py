"""The package's compiled modules, in C (the rest is pyproject.toml): every search nqueens runs
on the processor, and solutions written as text many at a time.

They are required: built from source, the package needs a C compiler and Python's headers, and
says which to install where they are missing. Two switches serve CI and development:
NQUEENS_WARNINGS_AS_ERRORS=1 turns every warning into an error, NQUEENS_SANITIZE=1 builds with
AddressSanitizer and UndefinedBehaviorSanitizer. No flag ties a build to the processor it was
built on: a module picks faster instructions (BMI2) when it loads, where they pay.
"""

import os
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

MODULES = {
    "nqueens.engines.bitboard._edges": "src/nqueens/engines/bitboard/_edges.c",
    "nqueens.engines.bitboard._search": "src/nqueens/engines/bitboard/_search.c",
    "nqueens.engines.local._local": "src/nqueens/engines/local/_local.c",
    "nqueens.engines.join._join": "src/nqueens/engines/join/_join.c",
    "nqueens.engines.reduced._reduced": "src/nqueens/engines/reduced/_reduced.c",
    "nqueens.formats._text": "src/nqueens/formats/_text.c",
}

WITHOUT_A_COMPILER = """
nqueens is built from source here,
and its searches are C: it needs a C compiler and Python's headers.
Here, {what}.
  Debian, Ubuntu:  sudo apt install gcc python3-dev
  Fedora, RHEL:    sudo dnf install gcc python3-devel
  Alpine:          apk add gcc musl-dev python3-dev
  macOS:           xcode-select --install
Then run the same install again (Windows is not supported yet).
"""


def switched_on(name: str) -> bool:
    return os.environ.get(name, "") not in ("", "0")


class BuildSearches(build_ext):
    """build_ext with the switches above, and a message that says what to install where no C
    compiler or no Python headers are found (setuptools' own is a compiler's error line)."""

    def build_extensions(self) -> None:
        flags, links = ["-std=c11", "-O3"], []  # GCC and Clang: no build for MSVC is tested
        if switched_on("NQUEENS_WARNINGS_AS_ERRORS"):
            flags += ["-Wall", "-Wextra", "-Werror"]
        if switched_on("NQUEENS_SANITIZE"):
            sanitizers = ["-fsanitize=address,undefined", "-fno-sanitize-recover=undefined"]
            flags += [*sanitizers, "-O1", "-g", "-fno-omit-frame-pointer", "-UNDEBUG"]
            links += sanitizers
        for extension in self.extensions:
            extension.extra_compile_args = flags
            extension.extra_link_args = links
        self._check_compiler()
        super().build_extensions()

    def _check_compiler(self) -> None:
        """Compile a file that includes Python.h, or stop with what to install."""
        import tempfile

        from setuptools.errors import CCompilerError, CompileError, ExecError, PlatformError

        with tempfile.TemporaryDirectory() as folder:
            probe = os.path.join(folder, "probe.c")
            with open(probe, "w") as source:
                source.write("#include <Python.h>\nint probe(void) { return 0; }\n")
            try:
                self.compiler.compile([probe], output_dir=folder, include_dirs=self.include_dirs)
            except (CCompilerError, CompileError, ExecError, PlatformError):
                compiler = self.compiler.compiler_so[0] if self.compiler.compiler_so else "cc"
                what = f"{compiler!r} could not compile a file that includes Python.h"
                sys.exit(WITHOUT_A_COMPILER.format(what=what))


SHARED = "src/nqueens/searches.h"
"""What every module includes: the types, inline marks and bit operations they share."""

setup(
    ext_modules=[
        Extension(name, sources=[source], include_dirs=["src/nqueens"], depends=[SHARED])
        for name, source in MODULES.items()
    ],
    cmdclass={"build_ext": BuildSearches},
)
