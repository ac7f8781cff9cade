#!/usr/bin/env bash
# The gpu engine's checks on a GPU machine, in one call, for machines rented by the minute: what the
# machine has; the package's C module, built in place where it does not load (nothing can be
# fetched there: its python3 must have numba-cuda, click and rich, or WHEELS must hold wheels of
# what does not suit); the kernel's first compile, and how the next count launches it (through
# CUDA's driver, once its machine code is kept); puzzles and counts without symmetry checked
# against the CPU and the published counts; the table of benchmarks/gpu.py for docs/explanation/gpu.md (a
# GPU peer beside it, if PEER names one); N = 22 alone; the settings weighed (gpu.py --variants, which takes other kernels too); where
# a whole count spends its time, what starting CUDA's driver beside the imports saves, and where
# a process's end goes, after its count is printed: the command line, its exit handlers, or the
# system's end of the process, where CUDA's context is freed, which os._exit cannot skip (the
# compiler's report needs no device: gpu.py --compiler-report). Each step gets what is left of
# BUDGET seconds, the most important first, so that a slow kernel cannot spend the time. The
# log and the profiles are written under $OUT if set.
#
#     bash benchmarks/gpu_device.sh                   # N = 16..21, then 22, in 560 s at most
#     SIZES=16-20 LARGEST=21 BUDGET=300 bash benchmarks/gpu_device.sh
#     SIZES=16-20 LARGEST= VARIANT_N=20 VARIANT_REPEAT=1 bash benchmarks/gpu_device.sh  # no 22
#     WHEELS=.whl BUDGET=440 bash benchmarks/gpu_device.sh   # with numpy 2.4 wheels carried
#     PEER='./n_queens {n} 5' bash benchmarks/gpu_device.sh   # a GPU peer timed beside
#     NUMBA_ENABLE_CUDASIM=1 SIZES=6-7 LARGEST=8 VARIANT_N=7 bash benchmarks/gpu_device.sh
set -u -o pipefail
PYTHON=${PYTHON:-python3}
SIZES=${SIZES:-16-21}     # timed three times each
LARGEST=${LARGEST-22}     # timed once, last, with what is left; empty: not at all
VARIANT_N=${VARIANT_N:-19}
VARIANT_REPEAT=${VARIANT_REPEAT:-3}  # the counts of each setting, at VARIANT_N
WHEELS=${WHEELS:-}        # a folder of wheels to put before the machine's own packages
PEER=${PEER:-}            # a GPU counter's command to time beside the table's, {n} its N
BUDGET=${BUDGET:-560}
out=${OUT:-$(mktemp -d)}
site=$(mktemp -d)  # the wheels' packages, kept out of $OUT, whose files come back
mkdir -p "$out"
export PYTHONPATH="$PWD/src${PYTHONPATH:+:$PYTHONPATH}" PYTHONUNBUFFERED=1
# A user's install holds its modules compiled (pip compiles them); the machine's may not, nor
# let Python write them beside its packages, so that every process compiled numba's modules
# again: Python writes them here, once, and the counts start as a user's would.
unset PYTHONDONTWRITEBYTECODE
export PYTHONPYCACHEPREFIX="$site/bytecode"

left() { echo $((BUDGET - SECONDS)); }  # bash counts SECONDS from the script's start
limit() { # seconds for a step: at most $1, and what is left less $2 for the steps after it
    local most=$1 kept=$2 now
    now=$(($(left) - kept))
    now=$((now < most ? now : most))
    echo $((now < 1 ? 1 : now))
}

checks() {
    echo "== the machine"
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm \
        --format=csv 2>&1 || true
    if [ -n "$WHEELS" ]; then  # carried wheels, for packages there that do not suit
        "$PYTHON" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir \
            --upgrade --target "$site" "$WHEELS"/*.whl || return 1
        export PYTHONPATH="$PYTHONPATH:$site"
    fi
    "$PYTHON" -c 'import sys
from importlib.metadata import version
print("python", sys.version.split()[0], *(f"{name} {version(name)}" for name in
      ("numba", "numba-cuda", "numpy", "click", "rich")))' || return 1

    echo "== the C modules: built in place as setup.py builds them, where they are not there"
    "$PYTHON" - <<'EOF' || return 1
import importlib.util, subprocess, sysconfig
suffix = sysconfig.get_config_var("EXT_SUFFIX")
include = "-I" + sysconfig.get_paths()["include"]
for module in ("engines.bitboard._edges", "engines.bitboard._search", "engines.local._local",
               "engines.reduced._reduced", "formats._text"):
    if importlib.util.find_spec(f"nqueens.{module}") is not None:
        continue
    source = "src/nqueens/" + module.replace(".", "/")
    command = ["gcc", "-std=c11", "-O3", "-shared", "-fPIC", include, source + ".c"]
    subprocess.run([*command, "-o", source + suffix], check=True)
    print("built", source + suffix)
EOF
    "$PYTHON" -c 'from nqueens.run.installation import c_modules
assert None not in c_modules().values(), "a C module does not load"' || return 1

    first=${SIZES%%[-,]*}  # the smallest size
    TIMEFORMAT="%R s, the whole process"
    echo "== the first count: the kernel compiled, checked against numba's launch and kept"
    time "$PYTHON" -m nqueens count "$first" --engine gpu --unique --stats || return 1
    echo "== the second count: how it launches the kernel"
    time "$PYTHON" -c 'import nqueens
from nqueens.engines.gpu import launch
print(nqueens.count(int("'"$first"'"), engine="gpu").solutions, "-", launch.launcher().how)' ||
        return 1

    echo "== puzzles and counts without symmetry, against the CPU and the published counts"
    "$PYTHON" - "$(limit 60 0)" <<'EOF' || return 1
import json, sys, time, nqueens
from nqueens.core.board import Diagonal
from nqueens.engines.gpu import launch, target

small = target.simulated()
time_limit = float(sys.argv[1])
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
    on_gpu = nqueens.count(board, engine="gpu", symmetry=False, time_limit=time_limit)
    seconds = time.perf_counter() - started
    assert not on_gpu.status.partial, (n, queens, "stopped at the time limit")
    on_cpu = nqueens.count(board, engine="bitboard", symmetry=False).solutions
    assert on_gpu.solutions == on_cpu, (n, queens, blocked, excluded, on_gpu.solutions, on_cpu)
    print(f"N = {n}, given {queens}: {on_cpu:,} on both, {seconds:.2f} s on the GPU")
published = json.load(open("tests/data/counts.json"))["total"]
n = 8 if small else 18
started = time.perf_counter()
found = nqueens.count(n, engine="gpu", symmetry=False, time_limit=time_limit)
seconds = time.perf_counter() - started
assert not found.status.partial and found.solutions == int(published[str(n)]), (n, found)
print(f"N = {n} without symmetry: {found.solutions:,}, as published, {seconds:.2f} s")
EOF

    echo "== the table (benchmarks/gpu.py)"
    "$PYTHON" benchmarks/gpu.py --sizes "$SIZES" --repeat 3 --time-limit "$(limit 120 240)" \
        ${PEER:+--peer "$PEER"}
    if [ -n "$LARGEST" ]; then
        echo "== N = $LARGEST, once, stopped at what is left ($(limit 300 60) s)"
        "$PYTHON" benchmarks/gpu.py --sizes "$LARGEST" --time-limit "$(limit 300 60)"
    fi
    echo "== the settings weighed"
    timeout "$(limit 150 20)" "$PYTHON" benchmarks/gpu.py --variants "$VARIANT_N" \
        --repeat "$VARIANT_REPEAT" --time-limit 20 || true
    echo "== CUDA's driver started beside the imports, or not, and where a process's end goes:"
    echo "   whole counts of N = $first"
    timeout "$(limit 60 20)" "$PYTHON" - "$first" <<'EOF' || true
import json, os, statistics, subprocess, sys, time
n = sys.argv[1]
rounds = 1 if os.environ.get("NUMBA_ENABLE_CUDASIM", "0") != "0" else 7  # the simulator: a try
published = json.load(open("tests/data/counts.json"))["total"][n]
started = "from nqueens.core import clock, signals\nclock.start()\nsignals.install()\n"
plainly = (  # the driver started when the count first asks for the device, nothing beside it
    "import functools\nfrom nqueens.engines.gpu import driver, launch\n"
    "launch.current_device = functools.cache(driver.Device)\n"
)
run = "from nqueens.cli import main\nmain()\n"
stamped = (  # as shipped, saying when its exit begins and when it calls os._exit
    "import os, sys, time\n" + started + "from nqueens.engines.gpu import early\n"
    "early.start(sys.argv[1:])\nfrom nqueens.cli import group\n"
    "shipped, end = group._exit_at_once, os._exit\n"
    "def stamp(word):\n    os.write(2, f'{word} {time.perf_counter()}\\n'.encode())\n"
    "def ended(code):\n    stamp('os._exit')\n    end(code)\n"
    "def ending(code):\n    stamp('exit')\n    os._exit = ended\n    shipped(code)\n"
    "group._exit_at_once = ending\ngroup.main()\n"
)
ways = {  # the middle two skip what nqueens.__main__ does before the command line: the early start
    "as shipped (early, and beside numpy)": [sys.executable, "-m", "nqueens"],
    "beside numpy only": [sys.executable, "-c", started + run],
    "neither": [sys.executable, "-c", started + plainly + run],
    "as shipped, its end stamped": [sys.executable, "-c", stamped],
}
seconds = {way: [] for way in ways}
exits = {way: [] for way in ways}  # from the count's line on stdout to the process's end
parts = []  # the stamped way's end: the command after the line, exit handlers, the process's
for _ in range(rounds):  # alternated, so that a slower minute of the machine falls on each
    for way, command in ways.items():
        began = time.perf_counter()
        with subprocess.Popen([*command, "count", n, "--engine", "gpu"], text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE) as process:
            line = process.stdout.readline()
            printed = time.perf_counter()
            said = process.stderr.read()
            assert process.wait() == 0 and int(line) == int(published), (way, line, said)
        gone = time.perf_counter()
        seconds[way].append(gone - began)
        exits[way].append(gone - printed)
        if way.endswith("stamped"):
            at = {word: float(moment) for word, moment in
                  (said_line.split() for said_line in said.splitlines()
                   if said_line.startswith(("exit ", "os._exit ")))}
            parts.append((at["exit"] - printed, at["os._exit"] - at["exit"],
                          gone - at["os._exit"]))
for way, each in seconds.items():
    print(f"{way}: {statistics.median(each):.3f} s, median of {rounds} ({min(each):.3f} to "
          f"{max(each):.3f}); its end {statistics.median(exits[way]):.3f} s after the count")
after, handlers, process_end = (statistics.median(part) for part in zip(*parts))
print(f"the stamped end, medians: {after:.3f} s of the command after the count's line, "
      f"{handlers:.3f} s of threads joined, exit handlers and flushes, {process_end:.3f} s "
      "from os._exit to the process's end (the system's, CUDA's context freed with it)")
EOF
    echo "== a whole count of N = $VARIANT_N, where its time goes (imports, profile under \$OUT)"
    time "$PYTHON" -X importtime -m nqueens count "$VARIANT_N" --engine gpu --stats -t 60 \
        2> "$out/importtime.txt" || return 1
    "$PYTHON" - "$VARIANT_N" "$out/profile.txt" <<'EOF' || return 1
import cProfile, pstats, sys
profile = cProfile.Profile()
profile.enable()  # the command's own exit would end this process at once: the API, profiled
import nqueens
nqueens.count(int(sys.argv[1]), engine="gpu", time_limit=60)
profile.disable()
pstats.Stats(profile, stream=open(sys.argv[2], "w")).sort_stats("cumulative").print_stats(40)
EOF
    grep -m1 "function calls" "$out/profile.txt"
    nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv 2>&1 || true
}

checks 2>&1 | tee "$out/gpu-device.log"
status=$?
echo "== the log: $out/gpu-device.log (exit status $status, $SECONDS s)"
exit "$status"
