/* The reduced engine's search: a resumable bitmask search over the free part of a puzzle.

   Free columns are indexed 0..m-1 and a column's candidate rows are bits of one word (bit j: the
   j-th free row). `attack[i][j][k]` holds the rows of column k that a queen on row j of column i
   attacks along a diagonal, so placing a queen narrows every other column with one AND. The
   column with the fewest candidates left is searched next, and one left without any ends the
   branch at once (forward checking).

   The state (depth, the candidates still to try, the rows and columns chosen at each depth)
   lives in a bytearray the caller holds, so a search is resumed where it stopped: the caller
   looks at the clock and at Ctrl-C between calls, which run without Python's lock. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

typedef uint64_t u64;

#define MAX_M 64
#define MAGIC 0x7265647563656400ULL /* a state made by `start` */

typedef struct {
    u64 magic;
    int32_t m, depth, done, pad;
    u64 available[MAX_M + 1][MAX_M]; /* each column's rows left at each depth */
    u64 candidates[MAX_M];           /* the rows still to try at each depth */
    u64 assigned[MAX_M + 1];         /* the columns chosen above each depth */
    uint8_t chosen[MAX_M], column_at[MAX_M];
} State;

static int popcount(u64 word) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_popcountll(word);
#else
    int count = 0;
    for (; word; word &= word - 1) count++;
    return count;
#endif
}

static int lowest(u64 word) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctzll(word);
#else
    int row = 0;
    while (!((word >> row) & 1)) row++;
    return row;
#endif
}

/* The search from where `s` stopped, for at most `budget` placements: the solutions found, each
   (free-row indices per column) written to `out` while it has room (then the search pauses);
   with no room they are only counted. */
static u64 search_on(State *s, const u64 *attack, uint8_t *out, Py_ssize_t room, u64 budget,
                     u64 *placements) {
    const int m = s->m;
    const u64 full = m == 64 ? ~(u64)0 : ((u64)1 << m) - 1;
    int depth = s->depth;
    u64 found = 0;
    while (*placements < budget) {
        if (depth < 0) {
            s->done = 1;
            break;
        }
        if (depth == m) {
            if (room > 0)
                for (int level = 0; level < m; level++)
                    out[found * m + s->column_at[level]] = s->chosen[level];
            found++;
            depth--;
            if (room > 0 && (Py_ssize_t)found == room) break;
            continue;
        }
        u64 options = s->candidates[depth] & full; /* rows past m index no table */
        if (!options) {
            depth--;
            continue;
        }
        int row = lowest(options), column = s->column_at[depth];
        s->candidates[depth] = options & (options - 1);
        s->chosen[depth] = (uint8_t)row;
        ++*placements;
        u64 done_columns = s->assigned[depth] | (u64)1 << column, taken = ~((u64)1 << row);
        const u64 *attacked = attack + ((size_t)column * m + row) * m;
        int best = -1, fewest = 65;
        for (int other = 0; other < m; other++) {
            if ((done_columns >> other) & 1) continue;
            u64 left = s->available[depth][other] & taken & ~attacked[other];
            s->available[depth + 1][other] = left;
            int size = popcount(left);
            if (size < fewest) {
                fewest = size;
                best = other;
                if (!size) break;
            }
        }
        if (!fewest) continue; /* a column left without a row: this placement fails at once */
        depth++;
        if (depth < m) {
            s->assigned[depth] = done_columns;
            s->column_at[depth] = (uint8_t)best;
            s->candidates[depth] = s->available[depth][best];
        }
    }
    s->depth = depth;
    return found;
}

static int columns_valid(const State *s) {
    /* Whether the columns and rows a state holds index the tables within their bounds. */
    for (int level = 0; level < s->m; level++)
        if (s->column_at[level] >= s->m || s->chosen[level] >= 64) return 0;
    return 1;
}

static PyObject *reduced_start(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *allowed;
    if (!PyArg_ParseTuple(args, "O!", &PyTuple_Type, &allowed)) return NULL;
    Py_ssize_t m = PyTuple_GET_SIZE(allowed);
    if (m > MAX_M) return PyErr_Format(PyExc_ValueError, "at most %d free columns", MAX_M);
    PyObject *buffer = PyByteArray_FromStringAndSize(NULL, sizeof(State));
    if (buffer == NULL) return NULL;
    State *s = (State *)PyByteArray_AS_STRING(buffer);
    memset(s, 0, sizeof(State));
    int first = 0, fewest = 65;
    for (int column = 0; column < m; column++) {
        u64 rows = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(allowed, column));
        if (rows == (u64)-1 && PyErr_Occurred()) {
            Py_DECREF(buffer);
            return NULL;
        }
        if (m < 64) rows &= ((u64)1 << m) - 1;
        s->available[0][column] = rows;
        if (popcount(rows) < fewest) {
            fewest = popcount(rows);
            first = column;
        }
    }
    s->magic = MAGIC;
    s->m = (int32_t)m;
    if (m > 0) { /* the first column searched has the fewest candidate rows */
        s->column_at[0] = (uint8_t)first;
        s->candidates[0] = s->available[0][first];
    }
    return buffer;
}

static PyObject *reduced_search(PyObject *Py_UNUSED(self), PyObject *args) {
    Py_buffer attack, state, out;
    unsigned long long budget;
    if (!PyArg_ParseTuple(args, "y*w*w*K", &attack, &state, &out, &budget)) return NULL;
    PyObject *result = NULL;
    State *s = state.buf;
    if (state.len != (Py_ssize_t)sizeof(State) || s->magic != MAGIC || s->m < 0 ||
        s->m > MAX_M || s->depth < -1 || s->depth > s->m) {
        PyErr_SetString(PyExc_ValueError, "not the state of a search made by start()");
    } else if (attack.len < (Py_ssize_t)s->m * s->m * s->m * 8) {
        PyErr_SetString(PyExc_ValueError, "attack must hold m x m x m 64-bit masks");
    } else if (!columns_valid(s)) {
        PyErr_SetString(PyExc_ValueError, "not the state of a search made by start()");
    } else {
        Py_ssize_t room = s->m ? out.len / s->m : out.len;
        u64 found = 0, placements = 0;
        if (!s->done) {
            Py_BEGIN_ALLOW_THREADS
            found = search_on(s, attack.buf, out.buf, room, budget, &placements);
            Py_END_ALLOW_THREADS
        }
        result = Py_BuildValue("KKO", found, placements, s->done ? Py_True : Py_False);
    }
    PyBuffer_Release(&attack);
    PyBuffer_Release(&state);
    PyBuffer_Release(&out);
    return result;
}

static PyMethodDef methods[] = {
    {"start", reduced_start, METH_VARARGS,
     "start(allowed) -> state: a search of the free columns, with the free rows each allows."},
    {"search", reduced_search, METH_VARARGS,
     "search(attack, state, out, budget) -> (found, placements, over)\n"
     "Go on for at most `budget` placements; each solution's free rows (a byte a free column)\n"
     "go into `out` until it is full, then the search pauses; with an empty `out` solutions\n"
     "are only counted."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_reduced", "The reduced engine's search, a budget a call.", -1,
    methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__reduced(void) {
    PyObject *reduced = PyModule_Create(&module);
    if (reduced == NULL) return NULL;
    if (PyModule_AddIntConstant(reduced, "MAX_M", MAX_M) < 0) {
        Py_DECREF(reduced);
        return NULL;
    }
    return reduced;
}
