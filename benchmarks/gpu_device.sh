#!/usr/bin/env bash
# The gpu engine's checks on a lent GPU machine, in one call, since its time is short: what the
# machine has, the package's C module built in place (nothing can be installed there: its
# python3 must have numba-cuda, click and rich), the kernel's first compile, the compiler's
# report, puzzles and counts without symmetry checked against the CPU and the published counts,
# and the table of benchmarks/gpu.py for the README. Each count stops at LIMIT seconds, so that
# a slow kernel cannot spend the lease. The log is also written under $OUT, when it is set.
#
#     bash benchmarks/gpu_device.sh                   # N = 16..22, each count stopped at 200 s
#     SIZES=16-20 LIMIT=60 bash benchmarks/gpu_device.sh
#     NUMBA_ENABLE_CUDASIM=1 SIZES=6-7 bash benchmarks/gpu_device.sh   # the script, no GPU
set -u -o pipefail
PYTHON=${PYTHON:-python3}
SIZES=${SIZES:-16-22}
LIMIT=${LIMIT:-200}
out=${OUT:-$(mktemp -d)}
first=${SIZES%%[-,]*}  # the smallest size
mkdir -p "$out"
export PYTHONPATH="$PWD/src${PYTHONPATH:+:$PYTHONPATH}" PYTHONUNBUFFERED=1

checks() {
    echo "== the machine"
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm \
        --format=csv 2>&1 || true
    "$PYTHON" -c 'import sys, numba, numba_cuda, numpy
print("python", sys.version.split()[0], "numba", numba.__version__, "numba-cuda",
      numba_cuda.__version__, "numpy", numpy.__version__)' || return 1

    echo "== the C module: built in place as setup.py builds it, where it is not there"
    "$PYTHON" - <<'EOF' || return 1
import subprocess, sysconfig
from nqueens.engines.bitboard import edges
if edges.c_module() is None:
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    include = "-I" + sysconfig.get_paths()["include"]
    source = "src/nqueens/engines/bitboard/_edges.c"
    built = f"src/nqueens/engines/bitboard/_edges{suffix}"
    subprocess.run(
        ["gcc", "-O3", "-mtune=native", "-shared", "-fPIC", include, source, "-o", built],
        check=True,
    )
    print("built", built)
EOF
    "$PYTHON" -c 'from nqueens.engines.bitboard import edges
assert edges.c_module() is not None, "the C module does not load"' || return 1

    echo "== the first count: the kernel compiled, and written to numba's cache"
    TIMEFORMAT="%R s, the whole process"
    time "$PYTHON" -m nqueens count "$first" --engine gpu --unique --stats || return 1
    echo "== the compiler's report"
    "$PYTHON" benchmarks/gpu.py --compiler-report || true

    echo "== puzzles and counts without symmetry, against the CPU and the published counts"
    "$PYTHON" - <<'EOF' || return 1
import json, time, nqueens
from nqueens.core.board import Diagonal
from nqueens.engines.gpu import kernel

small = kernel.simulated()
cases = [  # (n, given queens, blocked squares, excluded diagonals)
    (8 if small else 14, [], [], []),
    (8 if small else 16, [(0, 1), (5, 3)], [], []),
    (8 if small else 17, [(1, 0)], [(4, 4), (2, 6), (7, 1)], [("sum", 7)]),
    (7 if small else 15, [], [(2, 3), (0, 0)], [("difference", 0), ("sum", 3)]),
]
for n, queens, blocked, excluded in cases:
    board = nqueens.Board(n, queens=queens, blocked=blocked,
                          excluded=[Diagonal(*d) for d in excluded])
    started = time.perf_counter()
    on_gpu = nqueens.count(board, engine="gpu", symmetry=False)
    seconds = time.perf_counter() - started
    on_cpu = nqueens.count(board, engine="bitboard", symmetry=False).solutions
    assert on_gpu.solutions == on_cpu, (n, queens, blocked, excluded, on_gpu.solutions, on_cpu)
    print(f"N = {n}, given {queens}: {on_cpu:,} on both, {seconds:.2f} s on the GPU")
published = json.load(open("tests/data/counts.json"))["total"]
n = 8 if small else 18
found = nqueens.count(n, engine="gpu", symmetry=False).solutions
assert found == int(published[str(n)]), (n, found)
print(f"N = {n} without symmetry: {found:,}, as published")
EOF

    echo "== the table (benchmarks/gpu.py)"
    "$PYTHON" benchmarks/gpu.py --sizes "$SIZES" --repeat 3 --time-limit "$LIMIT"
}

checks 2>&1 | tee "$out/gpu-device.log"
status=$?
echo "== the log: $out/gpu-device.log (exit status $status)"
exit "$status"
