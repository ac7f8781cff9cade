/* The bitboard engine's search: bitmask backtracking over the lines of a board, for counting
   (puzzles, torus, superqueens, boards beyond the edge counter) and for listing every solution.

   The board is searched line by line (a line is a column, its bits are rows), as in Somers's
   counter: `cols`, `ld` and `rd` hold the rows and the two diagonals taken by the queens of
   earlier lines, `blocked[line]` the rows a line may not take for other reasons (blocked
   squares, the rows and diagonals of queens fixed on other lines, and the rows the
   symmetry-breaking rules rule out, all worked out in Python). `need_rows` must all be taken by
   the end of line `need_line`, which prunes as early as Takaken's rule does.

   On a torus the diagonal masks rotate instead of shifting, so a diagonal leaving one edge comes
   back at the other. Superqueens also rule out the rows a knight's move from the queens of the
   two lines before (on a torus, also from lines 0 and 1 at the last lines, which wrap round to
   them). A copy of the loop is compiled for each combination of rules, so the plain search pays
   nothing for them.

   A search is an object of this module (`start` makes it) that owns its whole state, and
   stops after a budget of placements, so that a deadline or Ctrl-C gets a word in between
   calls, which run without Python's lock. `count` counts (or stops at each solution, whose rows
   `rows` gives); `fill` writes the rows of each solution into a buffer, one byte a column, and
   with UNIQUE keeps only the solutions no symmetry of the square makes lexicographically
   smaller. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#include "searches.h"

#define MAX_N 64

enum { TORUS = 1, KNIGHT = 2, UNIQUE = 4 };
enum { COUNT = 0, COUNT_CLASSES = 1, STOP_AT_SOLUTION = 2, LIST = 3 };

typedef struct {
    int32_t n, flags, last, need_line, first_row;
    int64_t line; /* the line the search is on; -1 once it is over */
    u64 need_rows;
    u64 in_all; /* with UNIQUE: how many solutions the solutions listed stand for */
    u64 blocked[MAX_N], cols[MAX_N], ld[MAX_N], rd[MAX_N], avail[MAX_N], placed[MAX_N];
} State;

/* What one call found. */
typedef struct {
    u64 solutions, quarter_kept, half_kept, placements;
} Found;

ALWAYS_INLINE int row_of(u64 bit) { return lowest_bit(bit); }

/* The rows `apart` rows above and below the queens of `queens`; on a torus also those reached
   by wrapping round, `back` (N - apart) the other way. */
ALWAYS_INLINE u64 rows_apart(u64 queens, int apart, int back, int torus) {
    u64 found = (queens << apart) | (queens >> apart);
    if (torus) found |= (queens >> back) | (queens << back);
    return found;
}

/* How many of the square's symmetries keep `rows` (1 for the identity alone), or 0 where one
   of them makes it lexicographically smaller: then another member of its class is kept. */
static int symmetries_kept(int n, const unsigned char *rows) {
    unsigned char lines[MAX_N];
    int kept = 1;
    for (int line = 0; line < n; line++) lines[rows[line]] = (unsigned char)line;
    for (int which = 1; which < 8; which++) {
        int order = 0;
        for (int line = 0; line < n && !order; line++) {
            int image = symmetry_row_at(n, which, line, rows, lines);
            if (image != rows[line]) order = image < rows[line] ? -1 : 1;
        }
        if (order < 0) return 0;
        if (order == 0) kept++;
    }
    return kept;
}

/* For COUNT_CLASSES, whose rules already exclude the smaller reflections: -1 where a quarter,
   half or three-quarter turn makes the solution smaller (another member of its class is the
   one counted), else 2 where a quarter turn keeps it, 1 where only a half turn does, 0 where
   neither. */
static int turns_kept(int n, const u64 *placed) {
    unsigned char rows[MAX_N], lines[MAX_N];
    int order[4] = {0, 0, 0, 0};
    for (int line = 0; line < n; line++) {
        rows[line] = (unsigned char)row_of(placed[line]);
        lines[rows[line]] = (unsigned char)line;
    }
    for (int which = QUARTER_TURN; which <= THREE_QUARTER_TURN; which++) {
        for (int line = 0; line < n; line++) {
            int turned = symmetry_row_at(n, which, line, rows, lines);
            if (turned != rows[line]) {
                order[which] = turned < rows[line] ? -1 : 1;
                break;
            }
        }
    }
    if (order[QUARTER_TURN] < 0 || order[HALF_TURN] < 0 || order[THREE_QUARTER_TURN] < 0)
        return -1;
    return order[QUARTER_TURN] == 0 ? 2 : order[HALF_TURN] == 0 ? 1 : 0;
}

/* The candidates of `line` given the rows taken by the lines above, with the rows still needed
   by the end of `need_line` (none where two are missing with one queen left to take them). */
ALWAYS_INLINE u64 with_needs(const State *s, int64_t line, u64 candidates, u64 taken) {
    if (line != s->need_line) return candidates;
    u64 missing = s->need_rows & ~taken;
    if (!missing) return candidates;
    if (missing & (missing - 1)) return 0;
    return candidates & missing;
}

/* The search from where `s` stopped, for at most `budget` placements; in LIST mode also at most
   `capacity` solutions into `out` (n bytes each). */
ALWAYS_INLINE Found walk(State *s, int mode, const int torus, const int knight, u64 budget,
                  unsigned char *out, Py_ssize_t capacity, Py_ssize_t *written) {
    const int n = s->n, m = n - 1, first_row = s->first_row, unique = s->flags & UNIQUE;
    const int64_t last = s->last;
    const u64 full = n == 64 ? ~(u64)0 : ((u64)1 << n) - 1;
    const u64 top_bit = (u64)1 << m, end_bit = (u64)1 << (m - first_row);
    Found found = {0, 0, 0, 0};
    int64_t line = s->line;
    if (line < 0) return found;
    u64 free = s->avail[line];
    while (found.placements < budget) {
        if (!free) {
            if (--line < 0) break;
            free = s->avail[line];
            continue;
        }
        u64 bit = free & (~free + 1);
        free ^= bit;
        found.placements++;
        s->placed[line] = bit;
        if (line == last) {
            if (mode == COUNT_CLASSES &&
                (s->placed[m - first_row] == 1 || s->placed[m] == end_bit ||
                 s->placed[first_row] == top_bit)) {
                /* a rotation may bring another edge queen to line 0's row: compare them */
                int kept = turns_kept(n, s->placed);
                if (kept < 0) continue;
                if (kept == 2) found.quarter_kept++;
                if (kept == 1) found.half_kept++;
            }
            if (mode == LIST) {
                unsigned char *rows = out + *written * n;
                for (int c = 0; c < n; c++) rows[c] = (unsigned char)row_of(s->placed[c]);
                if (unique) {
                    int kept = symmetries_kept(n, rows);
                    if (!kept) continue;
                    s->in_all += (u64)(8 / kept);
                }
                found.solutions++;
                if (++*written == capacity) break;
                continue;
            }
            found.solutions++;
            if (mode == STOP_AT_SOLUTION) break;
            continue;
        }
        u64 taken = s->cols[line] | bit;
        u64 left = (s->ld[line] | bit) << 1, right = (s->rd[line] | bit) >> 1;
        if (torus) {
            left = (left & full) | ((s->ld[line] | bit) >> m);
            right |= ((s->rd[line] | bit) & 1) << m;
        }
        u64 below = ~(taken | left | right | s->blocked[line + 1]) & full;
        if (knight && below) {
            u64 near = rows_apart(bit, 2, n - 2, torus), far = 0;
            if (line) far = rows_apart(s->placed[line - 1], 1, m, torus);
            if (torus) {
                if (line + 1 == m) { /* the last line: lines 0 and 1 lie one and two lines on */
                    near |= rows_apart(s->placed[0], 2, n - 2, torus);
                    if (line) far |= rows_apart(s->placed[1], 1, m, torus);
                } else if (line + 1 == m - 1) { /* line 0 lies two lines on */
                    far |= rows_apart(s->placed[0], 1, m, torus);
                }
            }
            below &= ~(near | far);
        }
        below = with_needs(s, line + 1, below, taken);
        if (!below) continue; /* a dead end: no need to enter the next line to find out */
        s->avail[line] = free;
        line++;
        s->cols[line] = taken;
        s->ld[line] = left;
        s->rd[line] = right;
        free = below;
    }
    if (line >= 0) s->avail[line] = free;
    s->line = line;
    return found;
}

/* `walk` with the rules as constants, so that each combination is compiled on its own. */
static Found walk_ruled(State *s, int mode, u64 budget, unsigned char *out, Py_ssize_t capacity,
                        Py_ssize_t *written) {
    switch (s->flags & (TORUS | KNIGHT)) {
    case 0: return walk(s, mode, 0, 0, budget, out, capacity, written);
    case TORUS: return walk(s, mode, 1, 0, budget, out, capacity, written);
    case KNIGHT: return walk(s, mode, 0, 1, budget, out, capacity, written);
    default: return walk(s, mode, 1, 1, budget, out, capacity, written);
    }
}

/* A search owned by a Python object: `start` makes it, and only this module writes its state,
   one thread at a time. */
typedef struct {
    PyObject_HEAD
    State state;
    int busy; /* a call is under way, without the lock */
} Search;

OBJECT_TYPE(search_spec, "nqueens.engines.bitboard._search.Search", Search, free_object,
            "One search of a board: start() makes it; count(), fill() and rows() go on with it.");

static State *claim(Search *search) {
    /* The search's state for one call, or NULL with an exception set while another thread is
       in a call on it. */
    if (search->busy) {
        PyErr_SetString(PyExc_RuntimeError, "another thread runs this search");
        return NULL;
    }
    search->busy = 1;
    return &search->state;
}

static PyObject *search_start(PyObject *module, PyObject *args) {
    int n, flags, last, need_line, first_row;
    unsigned long long need_rows;
    PyObject *masks;
    if (!PyArg_ParseTuple(args, "iiO!iiKi", &n, &flags, &PyTuple_Type, &masks, &last, &need_line,
                          &need_rows, &first_row))
        return NULL;
    if (n < 1 || n > MAX_N) return PyErr_Format(PyExc_ValueError, "n must be 1 to %d, not %d", MAX_N, n);
    if (PyTuple_GET_SIZE(masks) != n)
        return PyErr_Format(PyExc_ValueError, "blocked must hold one mask a line, %d", n);
    if (last < 0 || last >= n || first_row < 0 || first_row >= n)
        return PyErr_Format(PyExc_ValueError, "last and first_row are lines of the board");
    if (flags & ~(TORUS | KNIGHT | UNIQUE)) return PyErr_Format(PyExc_ValueError, "unknown flags");
    u64 blocked[MAX_N];
    for (int line = 0; line < n; line++) {
        blocked[line] = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(masks, line));
        if (blocked[line] == (u64)-1 && PyErr_Occurred()) return NULL;
    }
    Search *search = PyObject_New(Search, module_type(module, 0));
    if (search == NULL) return NULL;
    search->busy = 0;
    State *s = &search->state;
    memset(s, 0, sizeof(State));
    const u64 full = n == 64 ? ~(u64)0 : ((u64)1 << n) - 1;
    memcpy(s->blocked, blocked, sizeof(u64) * (size_t)n);
    s->n = n;
    s->flags = flags;
    s->last = last;
    s->need_line = need_line < 0 || need_line >= n ? -1 : need_line;
    s->need_rows = need_rows & full;
    s->first_row = first_row;
    s->avail[0] = with_needs(s, 0, ~s->blocked[0] & full, 0);
    s->line = s->avail[0] ? 0 : -1;
    return (PyObject *)search;
}

static PyObject *search_count(PyObject *module, PyObject *args) {
    Search *search;
    int mode;
    unsigned long long budget;
    if (!PyArg_ParseTuple(args, "O!iK", module_type(module, 0), &search, &mode, &budget)) return NULL;
    if (mode < COUNT || mode > STOP_AT_SOLUTION)
        return PyErr_Format(PyExc_ValueError,
                            "mode %d is none of COUNT, COUNT_CLASSES, STOP_AT_SOLUTION", mode);
    if (mode == COUNT_CLASSES && search->state.last != search->state.n - 1)
        return PyErr_Format(PyExc_ValueError, "symmetry classes are counted on whole boards");
    State *s = claim(search);
    if (s == NULL) return NULL;
    Found found;
    Py_ssize_t written = 0;
    Py_BEGIN_ALLOW_THREADS
    found = walk_ruled(s, mode, budget, NULL, 0, &written);
    Py_END_ALLOW_THREADS
    search->busy = 0;
    return Py_BuildValue("KKKKO", found.solutions, found.quarter_kept, found.half_kept,
                         found.placements, s->line < 0 ? Py_True : Py_False);
}

static PyObject *search_fill(PyObject *module, PyObject *args) {
    Search *search;
    Py_buffer out;
    unsigned long long budget;
    if (!PyArg_ParseTuple(args, "O!w*K", module_type(module, 0), &search, &out, &budget)) return NULL;
    PyObject *result = NULL;
    State *s = NULL;
    if (search->state.last != search->state.n - 1) {
        PyErr_SetString(PyExc_ValueError, "a listing searches the whole board");
    } else if ((s = claim(search)) != NULL) {
        Py_ssize_t written = 0, capacity = out.len / s->n;
        Found found = {0, 0, 0, 0};
        if (capacity > 0) {
            Py_BEGIN_ALLOW_THREADS
            found = walk_ruled(s, LIST, budget, out.buf, capacity, &written);
            Py_END_ALLOW_THREADS
        }
        search->busy = 0;
        result = Py_BuildValue("nKOK", written, found.placements, s->line < 0 ? Py_True : Py_False,
                               s->in_all);
    }
    PyBuffer_Release(&out);
    return result;
}

static PyObject *search_rows(PyObject *module, PyObject *args) {
    Search *search;
    if (!PyArg_ParseTuple(args, "O!", module_type(module, 0), &search)) return NULL;
    if (search->busy) return PyErr_Format(PyExc_RuntimeError, "another thread runs this search");
    const State *s = &search->state;
    PyObject *rows = PyTuple_New(s->last + 1);
    for (int line = 0; rows != NULL && line <= s->last; line++) {
        u64 bit = s->placed[line];
        PyObject *row = PyLong_FromLong(bit ? row_of(bit) : -1);
        if (row == NULL) Py_CLEAR(rows);
        else PyTuple_SET_ITEM(rows, line, row);
    }
    return rows;
}

static PyMethodDef methods[] = {
    {"start", search_start, METH_VARARGS,
     "start(n, flags, blocked, last, need_line, need_rows, first_row) -> state\n"
     "A search of an n x n board down to line `last`, with the rows each line may not take."},
    {"count", search_count, METH_VARARGS,
     "count(state, mode, budget) -> (solutions, quarter_kept, half_kept, placements, over)\n"
     "Go on with the search for at most `budget` placements (STOP_AT_SOLUTION: or a solution)."},
    {"fill", search_fill, METH_VARARGS,
     "fill(state, out, budget) -> (written, placements, over, in_all)\n"
     "Go on with the search: the rows of the solutions found into `out`, n bytes each, until it\n"
     "is full, the search is over or `budget` placements were made."},
    {"rows", search_rows, METH_VARARGS,
     "rows(state) -> the rows of lines 0 to `last` where the search stopped (-1: none)."},
    {NULL, NULL, 0, NULL},
};

static PyType_Spec *const specs[] = {&search_spec, NULL};

static const IntConstant constants[] = {
    {"MAX_N", MAX_N},
    {"TORUS", TORUS},
    {"KNIGHT", KNIGHT},
    {"UNIQUE", UNIQUE},
    {"COUNT", COUNT},
    {"COUNT_CLASSES", COUNT_CLASSES},
    {"STOP_AT_SOLUTION", STOP_AT_SOLUTION},
    {NULL, 0},
};

NQUEENS_MODULE(_search,
               "The bitboard engine's search: counts and listings, a budget of placements a call.",
               methods, specs, constants,
               Py_MOD_MULTIPLE_INTERPRETERS_SUPPORTED)
