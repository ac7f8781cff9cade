/* Every solution of a board in lexicographic order of its rows, many a call: the bitboard
   engine's listing, in C so that a listing starts without loading numba and keeps up with its
   output.

   The board is searched line by line (a line is a column, its bits are rows), as the bitboard
   engine's numba search does: `cols`, `ld` and `rd` hold the rows and the two diagonals taken by
   the queens of earlier lines, `blocked[line]` the rows a line may not take (a puzzle's blocked
   squares and given queens, worked out in Python). On a torus the diagonal masks rotate; for
   superqueens the rows a knight's move from the two lines before are ruled out. With UNIQUE a
   solution is kept only where no symmetry of the square makes it lexicographically smaller.

   `fill` goes on from where the last call stopped (the search's state is a bytearray the caller
   keeps) and writes the rows of each solution found into a buffer, one byte a column, until the
   buffer is full, the search is over or `budget` placements were made, so that a time limit or
   Ctrl-C is heard between calls. The search runs without Python's lock. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define MAX_N 64

typedef uint64_t u64;

enum { TORUS = 1, KNIGHT = 2, UNIQUE = 4 };

typedef struct {
    int64_t line; /* the line the search is on; -1 once it is over */
    int64_t started;
    u64 in_all; /* with UNIQUE: how many solutions the solutions kept stand for */
    u64 cols[MAX_N], ld[MAX_N], rd[MAX_N], avail[MAX_N], placed[MAX_N];
} State;

static int row_of(u64 bit) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctzll(bit);
#else
    int row = 0;
    while (bit > 1) {
        bit >>= 1;
        row++;
    }
    return row;
#endif
}

/* The rows `apart` rows above and below the queens of `queens`; on a torus also those reached
   by wrapping round, `back` (N - apart) the other way. */
static u64 rows_apart(u64 queens, int apart, int back, int torus) {
    u64 found = (queens << apart) | (queens >> apart);
    if (torus) found |= (queens >> back) | (queens << back);
    return found;
}

/* How many of the square's symmetries keep `rows` (1 for the identity alone), or 0 where one
   of them makes it lexicographically smaller: then another member of its class is kept. */
static int symmetries_kept(int n, const unsigned char *rows) {
    unsigned char cols[MAX_N];
    int m = n - 1, kept = 1;
    for (int c = 0; c < n; c++) cols[rows[c]] = (unsigned char)c;
    for (int turn = 0; turn < 7; turn++) {
        int order = 0;
        for (int c = 0; c < n && !order; c++) {
            int image;
            switch (turn) {
            case 0: image = rows[m - c]; break;       /* mirror left-right */
            case 1: image = m - rows[c]; break;       /* mirror top-bottom */
            case 2: image = m - rows[m - c]; break;   /* half turn */
            case 3: image = cols[c]; break;           /* transpose */
            case 4: image = m - cols[m - c]; break;   /* anti-transpose */
            case 5: image = cols[m - c]; break;       /* quarter turn */
            default: image = m - cols[c]; break;      /* three quarters */
            }
            if (image != rows[c]) order = image < rows[c] ? -1 : 1;
        }
        if (order < 0) return 0;
        if (order == 0) kept++;
    }
    return kept;
}

static void start(State *s, int n, const u64 *blocked, u64 full) {
    memset(s, 0, sizeof *s);
    s->started = 1;
    s->avail[0] = ~blocked[0] & full;
    s->line = s->avail[0] ? 0 : -1;
}

/* The search from where `s` stopped: at most `capacity` solutions into `out` (n bytes each)
   and `budget` placements. Returns the solutions written; `nodes` gets the placements. */
static Py_ssize_t fill(int n, int flags, const u64 *blocked, State *s, unsigned char *out,
                       Py_ssize_t capacity, u64 budget, u64 *nodes) {
    const u64 full = n == 64 ? ~(u64)0 : ((u64)1 << n) - 1;
    const int m = n - 1, torus = flags & TORUS, knight = flags & KNIGHT, unique = flags & UNIQUE;
    int64_t line = s->line;
    Py_ssize_t written = 0;
    u64 placements = 0;
    if (line < 0) {
        *nodes = 0;
        return 0;
    }
    u64 free = s->avail[line];
    while (placements < budget && written < capacity) {
        if (!free) {
            if (--line < 0) break;
            free = s->avail[line];
            continue;
        }
        u64 bit = free & (~free + 1);
        free ^= bit;
        placements++;
        s->placed[line] = bit;
        if (line == m) {
            unsigned char *rows = out + written * n;
            for (int c = 0; c < n; c++) rows[c] = (unsigned char)row_of(s->placed[c]);
            if (unique) {
                int kept = symmetries_kept(n, rows);
                if (!kept) continue;
                s->in_all += (u64)(8 / kept);
            }
            written++;
            continue;
        }
        u64 taken = s->cols[line] | bit;
        u64 left = (s->ld[line] | bit) << 1, right = (s->rd[line] | bit) >> 1;
        if (torus) {
            left = (left & full) | ((s->ld[line] | bit) >> m);
            right |= ((s->rd[line] | bit) & 1) << m;
        }
        u64 below = ~(taken | left | right | blocked[line + 1]) & full;
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
        if (!below) continue;
        s->avail[line] = free;
        line++;
        s->cols[line] = taken;
        s->ld[line] = left;
        s->rd[line] = right;
        free = below;
    }
    if (line >= 0) s->avail[line] = free;
    s->line = line;
    *nodes = placements;
    return written;
}

static PyObject *listing_fill(PyObject *self, PyObject *args) {
    int n, flags;
    Py_buffer blocked, state, out;
    unsigned long long budget;
    if (!PyArg_ParseTuple(args, "iiy*w*w*K", &n, &flags, &blocked, &state, &out, &budget))
        return NULL;
    PyObject *result = NULL;
    if (n < 1 || n > MAX_N) {
        PyErr_Format(PyExc_ValueError, "n must be 1 to %d, not %d", MAX_N, n);
    } else if (blocked.len != (Py_ssize_t)(n * sizeof(u64))) {
        PyErr_SetString(PyExc_ValueError, "blocked must hold one 64-bit mask a line");
    } else if (state.len != (Py_ssize_t)sizeof(State)) {
        PyErr_SetString(PyExc_ValueError, "state must be STATE_SIZE bytes");
    } else {
        u64 masks[MAX_N];
        memcpy(masks, blocked.buf, blocked.len);
        State *s = (State *)state.buf;
        u64 full = n == 64 ? ~(u64)0 : ((u64)1 << n) - 1;
        if (!s->started) start(s, n, masks, full);
        u64 nodes = 0;
        Py_ssize_t written;
        Py_BEGIN_ALLOW_THREADS
        written = fill(n, flags, masks, s, out.buf, out.len / n, budget, &nodes);
        Py_END_ALLOW_THREADS
        result = Py_BuildValue("nKOK", written, (unsigned long long)nodes,
                               s->line < 0 ? Py_True : Py_False, (unsigned long long)s->in_all);
    }
    PyBuffer_Release(&blocked);
    PyBuffer_Release(&state);
    PyBuffer_Release(&out);
    return result;
}

static PyMethodDef methods[] = {
    {"fill", listing_fill, METH_VARARGS,
     "fill(n, flags, blocked, state, out, budget) -> (written, placements, over, in_all)\n"
     "Go on with the search kept in `state`: the rows of the solutions found into `out`, n bytes\n"
     "each, until it is full, the search is over or `budget` placements were made."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_listing",
    "Every solution of a board, in lexicographic order, a buffer of them a call.", -1, methods,
};

PyMODINIT_FUNC PyInit__listing(void) {
    PyObject *listing = PyModule_Create(&module);
    if (listing == NULL) return NULL;
    if (PyModule_AddIntConstant(listing, "STATE_SIZE", (long)sizeof(State)) < 0 ||
        PyModule_AddIntConstant(listing, "MAX_N", MAX_N) < 0 ||
        PyModule_AddIntConstant(listing, "TORUS", TORUS) < 0 ||
        PyModule_AddIntConstant(listing, "KNIGHT", KNIGHT) < 0 ||
        PyModule_AddIntConstant(listing, "UNIQUE", UNIQUE) < 0) {
        Py_DECREF(listing);
        return NULL;
    }
    return listing;
}
