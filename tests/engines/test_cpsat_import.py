"""CP-SAT's Python module is imported without pandas where that is safe, and still has pandas
for its helpers whenever they are called."""

from __future__ import annotations

import pytest
from helpers import run_python

CHECKS = """
import sys
seen = []  # pandas as sys.modules holds it at each import from here on
sys.addaudithook(lambda event, _: event == "import" and seen.append(sys.modules.get("pandas")))
import nqueens
assert nqueens.count(6, engine="cp-sat").solutions == 4
print("pandas" in sys.modules, all(module is earlier for module in seen))
from ortools.sat.python import cp_model
import pandas
series = cp_model.CpModel().new_int_var_series("x", pandas.Index(range(3)), 0, 1)
print(isinstance(series, pandas.Series), cp_model.pd.Series is pandas.Series)
# what cp_model's functions import later is what Python's own import gives
print(cp_model.CpModel.new_int_var.__builtins__["__import__"] is __import__)
"""


@pytest.mark.parametrize(
    ("before", "expected"),
    [
        ("earlier = None", "False True\nTrue True\nTrue"),
        # Another thread might import pandas meanwhile: it must get the real one.
        pytest.param(
            "import threading; earlier = None\n"
            "threading.Thread(target=threading.Event().wait, args=(9,), daemon=True).start()",
            "False True\nTrue True\nTrue",
            marks=pytest.mark.slow,  # a process loading OR-Tools each: the quick run keeps one
        ),
        # The program's own pandas stays the one it has.
        pytest.param(
            "import pandas as earlier", "True True\nTrue True\nTrue", marks=pytest.mark.slow
        ),
    ],
    ids=["alone", "beside-a-thread", "after-pandas"],
)
def test_a_cp_sat_count_imports_pandas_only_where_it_must(before: str, expected: str) -> None:
    done = run_python(before + CHECKS)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == expected


def test_a_stand_in_that_is_not_enough_gives_way_to_pandas() -> None:
    """A later OR-Tools might read more of pandas as cp_model is imported: the import is made
    again, with pandas."""
    done = run_python(
        "import sys\n"
        "import nqueens.engines.cpsat.without_pandas as without_pandas\n"
        "del sys.modules['ortools.sat.python.cp_model']\n"
        "without_pandas.STAND_IN_NAMES = ('Series',)  # as if cp_model wanted more than it has\n"
        "cp_model = without_pandas._import_cp_model()\n"
        "import pandas\n"
        "print(cp_model.pd is pandas, hasattr(pandas, 'DataFrame'))\n"
        "series = cp_model.CpModel().new_int_var_series('x', pandas.Index([1]), 0, 1)\n"
        "print(isinstance(series, pandas.Series))\n"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["True True", "True"]


def test_an_import_that_fails_for_its_own_reasons_says_so() -> None:
    """Python turns a Ctrl-C in a compiled module's set-up into this ImportError: importing
    cp_model again, with pandas, would have lost it."""
    done = run_python(
        "import sys\n"
        "class Interrupted:\n"
        "    def find_spec(self, name, path, target=None):\n"
        "        if name == 'ortools.sat.python.cp_model_helper':\n"
        "            sys.meta_path.remove(self)\n"
        "            raise ImportError('initialization failed')\n"
        "sys.meta_path.insert(0, Interrupted())\n"
        "try:\n"
        "    import nqueens.engines.cpsat.without_pandas\n"
        "except ImportError as error:\n"
        "    print(error, 'pandas' in sys.modules)\n"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["initialization failed False"]
