/* The reduced engine's search: a resumable bitmask search over the free part of a puzzle.

   Free columns are indexed 0..m-1 and a column's candidate rows are bits of one word (bit j: the
   j-th free row). `attack[i][j][k]` holds the rows of column k that a queen on row j of column i
   attacks along a diagonal, so placing a queen narrows every other column with one AND. The
   column with the fewest candidates left is searched next, and one left without any ends the
   branch at once (forward checking).

   A search is an object of this module that owns its state (depth, the candidates still to try,
   the rows and columns chosen at each depth) and its tables, so a search is resumed where it
   stopped: the caller looks at the clock and at Ctrl-C between calls, which run without
   Python's lock. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#include "searches.h"

#define MAX_M 64

typedef struct {
    int32_t m, depth, done;
    u64 available[MAX_M + 1][MAX_M]; /* each column's rows left at each depth */
    u64 candidates[MAX_M];           /* the rows still to try at each depth */
    u64 assigned[MAX_M + 1];         /* the columns chosen above each depth */
    uint8_t chosen[MAX_M], column_at[MAX_M];
} State;

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
        int row = lowest_bit(options), column = s->column_at[depth];
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
            int size = bits_set(left);
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

/* A search owned by a Python object: its state, its copy of the attack table and the room for
   the solutions it lists, written only by this module, one thread at a time. */
typedef struct {
    PyObject_HEAD
    State state;
    u64 *attack;
    uint8_t *out;
    Py_ssize_t room; /* solutions `out` holds */
    int busy;        /* a call is under way, without the lock */
} Search;

static void search_free(Search *self) {
    PyMem_RawFree(self->attack);
    PyMem_RawFree(self->out);
    free_object((PyObject *)self);
}

OBJECT_TYPE(search_spec, "nqueens.engines.reduced._reduced.Search", Search, search_free,
            "One search of a reduced puzzle: start() makes it, search() goes on with it.");

static PyObject *reduced_start(PyObject *module, PyObject *args) {
    PyObject *allowed;
    Py_buffer attack;
    Py_ssize_t listing;
    if (!PyArg_ParseTuple(args, "O!y*n", &PyTuple_Type, &allowed, &attack, &listing)) return NULL;
    Search *search = NULL;
    Py_ssize_t m = PyTuple_GET_SIZE(allowed);
    if (m > MAX_M) {
        PyErr_Format(PyExc_ValueError, "at most %d free columns", MAX_M);
        goto done;
    }
    Py_ssize_t table = m * m * m * 8;
    if (attack.len < table) {
        PyErr_SetString(PyExc_ValueError, "attack must hold m x m x m 64-bit masks");
        goto done;
    }
    if (listing < 0 || listing > PY_SSIZE_T_MAX / (m ? m : 1) / 2) {
        PyErr_SetString(PyExc_ValueError, "listing is the number of solutions kept, 0 or more");
        goto done;
    }
    search = PyObject_New(Search, module_type(module, 0));
    if (search == NULL) goto done;
    memset((char *)search + sizeof(PyObject), 0, sizeof(Search) - sizeof(PyObject));
    search->attack = PyMem_RawMalloc(table ? (size_t)table : 1);
    search->out = PyMem_RawMalloc(listing > 0 && m > 0 ? (size_t)(listing * m) : 1);
    if (search->attack == NULL || search->out == NULL) {
        Py_CLEAR(search);
        PyErr_NoMemory();
        goto done;
    }
    memcpy(search->attack, attack.buf, (size_t)table); /* whatever the caller's alignment */
    search->room = listing;
    State *s = &search->state;
    int first = 0, fewest = 65;
    for (int column = 0; column < m; column++) {
        u64 rows = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(allowed, column));
        if (rows == (u64)-1 && PyErr_Occurred()) {
            Py_CLEAR(search);
            goto done;
        }
        if (m < 64) rows &= ((u64)1 << m) - 1;
        s->available[0][column] = rows;
        if (bits_set(rows) < fewest) {
            fewest = bits_set(rows);
            first = column;
        }
    }
    s->m = (int32_t)m;
    if (m > 0) { /* the first column searched has the fewest candidate rows */
        s->column_at[0] = (uint8_t)first;
        s->candidates[0] = s->available[0][first];
    }
done:
    PyBuffer_Release(&attack);
    return (PyObject *)search;
}

static PyObject *reduced_search(PyObject *module, PyObject *args) {
    Search *search;
    unsigned long long budget;
    if (!PyArg_ParseTuple(args, "O!K", module_type(module, 0), &search, &budget)) return NULL;
    if (search->busy) return PyErr_Format(PyExc_RuntimeError, "another thread runs this search");
    State *s = &search->state;
    u64 found = 0, placements = 0;
    search->busy = 1;
    if (!s->done) {
        Py_BEGIN_ALLOW_THREADS
        found = search_on(s, search->attack, search->out, search->room, budget, &placements);
        Py_END_ALLOW_THREADS
    }
    search->busy = 0;
    Py_ssize_t listed = search->room ? (Py_ssize_t)found * s->m : 0;
    return Py_BuildValue("KKOy#", found, placements, s->done ? Py_True : Py_False,
                         (const char *)search->out, listed);
}

static PyMethodDef methods[] = {
    {"start", reduced_start, METH_VARARGS,
     "start(allowed, attack, listing) -> a search of the free columns, with the free rows each\n"
     "allows and the m x m x m attack masks; it lists up to `listing` solutions a call (0: they\n"
     "are only counted)."},
    {"search", reduced_search, METH_VARARGS,
     "search(search, budget) -> (found, placements, over, listed)\n"
     "Go on for at most `budget` placements; each solution's free rows (a byte a free column)\n"
     "go into `listed` until `listing` are found, then the search pauses."},
    {NULL, NULL, 0, NULL},
};

static PyType_Spec *const specs[] = {&search_spec, NULL};

static const IntConstant constants[] = {
    {"MAX_M", MAX_M},
    {NULL, 0},
};

NQUEENS_MODULE(_reduced, "The reduced engine's search, a budget a call.",
               methods, specs, constants,
               Py_MOD_MULTIPLE_INTERPRETERS_SUPPORTED)
