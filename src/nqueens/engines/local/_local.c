/* The local engine's search: min-conflicts repair of a permutation, as Sosic and Gu do it.

   `rows[c]` is the row of column c's queen; rows form a permutation, so rows and columns never
   conflict and only diagonals can. Conflicts are attacking pairs on the diagonals, counted per
   diagonal in two arrays, plus a penalty for each queen on a blocked square. Given queens sit in
   fixed columns and never move. On a torus the diagonals are numbered modulo n; for superqueens
   the pairs a knight's move apart are conflicts too, found by looking at the columns one and two
   away.

   1. Start: the free rows are shuffled onto the free columns; then column by column, a row is
      swapped in from a random later column until the queen attacks none placed so far, which
      places almost every queen without conflict (the last few take what is left).
   2. Repair: every queen in conflict is swapped with random partners until a swap lowers the
      conflicts. A pass that gains nothing makes one random swap to leave the local minimum.

   An attempt is an object of this module (`start`) that owns every array it works on, so that
   nothing a caller does between calls can lead it astray; it does a bounded amount of work per
   call (`search`), so that the caller can look at the clock and at signals between calls, which
   run without Python's lock. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#include "searches.h"

#define GREEDY_TRIES 64       /* random partners tried for each queen of the start */
#define GREEDY_TAIL 32        /* the last free columns take what is left */
#define REPAIR_TRIES 64       /* random partners tried for a queen in conflict */
#define BLOCKED_PENALTY (1 << 20) /* a queen on a blocked square weighs as many pairs */
#define LINEAR_STEPS 16       /* a pass over memory does this many numbers a step */
#define WORK_PER_N 6          /* numbers of scratch per column */
#define MAX_N 10000000
#define UNFINISHED (-1)

enum { TORUS = 1, KNIGHT = 2 };
enum { SETUP, SHUFFLE, LAY_OUT, START, REPAIR }; /* the phases, in order */

/* Where an attempt stands between two calls. */
typedef struct {
    int64_t phase, position, free, conflicts, before, moves;
    u64 random[4]; /* xoshiro256** */
} State;

typedef struct {
    i32 n;
    int torus, knight;
    i32 *rows, *free_columns, *sums, *differences, *free_rows;
    const int64_t *blocked;
    Py_ssize_t blocked_count;
    u64 *random;
} Board;

static u64 rotl(u64 x, int k) { return (x << k) | (x >> (64 - k)); }

static u64 next_random(u64 *s) {
    u64 result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

static void seed_random(u64 *s, u64 seed) { /* splitmix64, as xoshiro's authors advise */
    for (int i = 0; i < 4; i++) {
        u64 z = (seed += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        s[i] = z ^ (z >> 31);
    }
}

/* A uniform random number from 0 to bound - 1 (bound > 0), without bias. */
static i32 below(u64 *s, u64 bound) {
#ifdef __SIZEOF_INT128__
    unsigned __int128 product = (unsigned __int128)next_random(s) * bound;
    if ((u64)product < bound) {
        u64 floor = -bound % bound;
        while ((u64)product < floor) product = (unsigned __int128)next_random(s) * bound;
    }
    return (i32)(product >> 64);
#else
    u64 limit = UINT64_MAX - UINT64_MAX % bound, x;
    do x = next_random(s);
    while (x >= limit);
    return (i32)(x % bound);
#endif
}

static i32 rising(const Board *b, i32 row, i32 col) {
    return b->torus ? (row + col) % b->n : row + col;
}

static i32 falling(const Board *b, i32 row, i32 col) {
    return b->torus ? (row - col + b->n) % b->n : row - col + b->n - 1;
}

static int is_blocked(const Board *b, int64_t code) { /* binary search of the sorted codes */
    Py_ssize_t low = 0, high = b->blocked_count;
    while (low < high) {
        Py_ssize_t middle = low + (high - low) / 2;
        if (b->blocked[middle] < code) low = middle + 1;
        else high = middle;
    }
    return low < b->blocked_count && b->blocked[low] == code;
}

static int64_t square(const Board *b, i32 row, i32 col) { return (int64_t)row * b->n + col; }

/* How many knight's moves from (row, col) land on a queen, leaving column `skip` out. */
static int knights(const Board *b, i32 row, i32 col, i32 skip) {
    static const int aparts[4] = {-2, -1, 1, 2};
    int found = 0;
    i32 n = b->n;
    for (int i = 0; i < 4; i++) {
        int apart = aparts[i];
        i32 other = col + apart;
        if (b->torus) other = ((other % n) + n) % n;
        else if (other < 0 || other >= n) continue;
        if (other == col || other == skip) continue;
        int rise = 3 - (apart < 0 ? -apart : apart);
        i32 targets[2] = {row - rise, row + rise};
        for (int t = 0; t < 2; t++) {
            i32 target = targets[t];
            if (b->torus) target = ((target % n) + n) % n;
            if (b->rows[other] == target) found++;
        }
    }
    return found;
}

/* List the columns and the rows no given queen holds; returns how many are free. */
static i32 free_lines(const Board *b, const unsigned char *fixed) {
    i32 n = b->n, free = 0, k = 0;
    i32 *used = b->free_rows; /* marks, overwritten by the free rows only where already read */
    memset(used, 0, (size_t)n * sizeof(i32));
    for (i32 col = 0; col < n; col++) {
        if (fixed[col]) used[b->rows[col]] = 1;
        else b->free_columns[free++] = col;
    }
    for (i32 row = 0; row < n; row++)
        if (!used[row]) b->free_rows[k++] = row;
    return free;
}

/* The start's step for the i-th free column. */
static void place(const Board *b, i32 free, i32 i) {
    i32 col = b->free_columns[i];
    if (free - i > GREEDY_TAIL) {
        for (int t = 0; t < GREEDY_TRIES; t++) {
            i32 k = i + below(b->random, (u64)(free - i));
            i32 row = b->rows[b->free_columns[k]];
            if (!b->sums[rising(b, row, col)] && !b->differences[falling(b, row, col)] &&
                !is_blocked(b, square(b, row, col))) {
                b->rows[b->free_columns[k]] = b->rows[col];
                b->rows[col] = row;
                break;
            }
        }
    }
    b->sums[rising(b, b->rows[col], col)]++;
    b->differences[falling(b, b->rows[col], col)]++;
}

/* Swap the rows of columns a and c; returns the change in conflicts. */
static int64_t swap(const Board *b, i32 a, i32 c) {
    i32 row_a = b->rows[a], row_c = b->rows[c];
    int64_t delta = 0;
    if (b->knight) delta -= knights(b, row_a, a, -1) + knights(b, row_c, c, a);
    i32 out_rows[2] = {row_a, row_c}, in_rows[2] = {row_c, row_a}, cols[2] = {a, c};
    for (int i = 0; i < 2; i++) {
        i32 r = rising(b, out_rows[i], cols[i]), f = falling(b, out_rows[i], cols[i]);
        b->sums[r]--;
        b->differences[f]--;
        delta -= b->sums[r] + b->differences[f];
        if (b->blocked_count && is_blocked(b, square(b, out_rows[i], cols[i])))
            delta -= BLOCKED_PENALTY;
    }
    for (int i = 0; i < 2; i++) {
        i32 r = rising(b, in_rows[i], cols[i]), f = falling(b, in_rows[i], cols[i]);
        delta += b->sums[r] + b->differences[f];
        b->sums[r]++;
        b->differences[f]++;
        if (b->blocked_count && is_blocked(b, square(b, in_rows[i], cols[i])))
            delta += BLOCKED_PENALTY;
    }
    b->rows[a] = row_c;
    b->rows[c] = row_a;
    if (b->knight) delta += knights(b, row_c, a, -1) + knights(b, row_a, c, a);
    return delta;
}

/* One attempt for at most `budget` steps: the conflicts left when it ended (0: a solution in
   rows), or UNFINISHED. */
static int64_t attempt(const Board *b, const unsigned char *fixed, u64 seed, int64_t max_moves,
                       int64_t *counters, State *s, int64_t budget) {
    i32 n = b->n;
    if (s->phase == SETUP) {
        seed_random(s->random, seed);
        s->free = free_lines(b, fixed);
        s->position = s->free > 1 ? s->free - 1 : 0; /* 0 free columns: every queen is given */
        s->phase = SHUFFLE;
    }
    i32 free = (i32)s->free;
    int64_t steps = 0;
    if (s->phase == SHUFFLE) { /* Fisher-Yates, from the end */
        int64_t i = s->position;
        for (; i > 0 && steps < budget; i--, steps++) {
            i32 j = below(b->random, (u64)i + 1), kept = b->free_rows[i];
            b->free_rows[i] = b->free_rows[j];
            b->free_rows[j] = kept;
        }
        s->position = i;
        if (i == 0) s->phase = LAY_OUT;
        return UNFINISHED;
    }
    if (s->phase == LAY_OUT) { /* a memory-bound pass over 2 n numbers, also cut in steps */
        int64_t j = s->position, end = 2 * (int64_t)n;
        if (budget < (end - j) / LINEAR_STEPS) end = j + LINEAR_STEPS * budget; /* no overflow */
        for (; j < end; j++) {
            if (j < free) b->rows[b->free_columns[j]] = b->free_rows[j];
            b->sums[j] = 0;
            b->differences[j] = 0;
        }
        s->position = end;
        if (end == 2 * (int64_t)n) {
            for (i32 col = 0; col < n; col++) {
                if (!fixed[col]) continue;
                b->sums[rising(b, b->rows[col], col)]++;
                b->differences[falling(b, b->rows[col], col)]++;
            }
            s->position = 0;
            s->phase = START;
        }
        return UNFINISHED;
    }
    if (s->phase == START) {
        int64_t i = s->position;
        for (; i < free && steps < budget; i++, steps++) place(b, free, (i32)i);
        s->position = i;
        if (i < free) return UNFINISHED;
        int64_t conflicts = 0, knight_ends = 0;
        for (int64_t d = 0; d < 2 * (int64_t)n; d++)
            conflicts += (int64_t)b->sums[d] * (b->sums[d] - 1) / 2 +
                         (int64_t)b->differences[d] * (b->differences[d] - 1) / 2;
        for (i32 col = 0; col < n; col++) {
            if (b->blocked_count && is_blocked(b, square(b, b->rows[col], col)))
                conflicts += BLOCKED_PENALTY;
            if (b->knight) knight_ends += knights(b, b->rows[col], col, -1);
        }
        conflicts += knight_ends / 2; /* each pair a knight's move apart, seen from both ends */
        s->conflicts = s->before = conflicts;
        s->position = 0;
        s->phase = REPAIR;
    }
    int64_t conflicts = s->conflicts, moves = s->moves, moves_before = moves, swaps = 0;
    int64_t i = s->position;
    while (conflicts > 0 && moves < max_moves && free > 1 && steps < budget) {
        if (i == free) { /* a pass over every free column is over */
            if (conflicts >= s->before) { /* a local minimum: shake it */
                i32 col = b->free_columns[below(b->random, (u64)free)];
                i32 other = b->free_columns[below(b->random, (u64)free)];
                if (col != other) {
                    conflicts += swap(b, col, other);
                    swaps++;
                }
            }
            s->before = conflicts;
            i = 0;
            continue;
        }
        i32 col = b->free_columns[i++];
        steps++;
        i32 row = b->rows[col];
        if (b->sums[rising(b, row, col)] + b->differences[falling(b, row, col)] == 2 &&
            !(b->blocked_count && is_blocked(b, square(b, row, col))) &&
            !(b->knight && knights(b, row, col, -1)))
            continue; /* this queen attacks none */
        for (int t = 0; t < REPAIR_TRIES; t++) {
            i32 other = b->free_columns[below(b->random, (u64)free)];
            if (other == col) continue;
            moves++;
            int64_t delta = swap(b, col, other);
            if (delta < 0) {
                conflicts += delta;
                swaps++;
                break;
            }
            swap(b, col, other); /* undo */
        }
    }
    s->conflicts = conflicts;
    s->moves = moves;
    s->position = i;
    counters[0] += swaps;
    counters[1] += moves - moves_before;
    if (conflicts > 0 && moves < max_moves && free > 1) return UNFINISHED;
    return conflicts;
}

/* One attempt, owned by a Python object: the board, its given queens and blocked squares, and
   the scratch of the search. */
typedef struct {
    PyObject_HEAD
    Board board;
    State state;
    unsigned char *fixed;
    i32 *rows, *work;
    int64_t *blocked;
    u64 seed;
    int64_t max_moves;
    int64_t counters[2]; /* swaps made, moves tried */
    int busy;            /* a call is under way, without the lock */
} Attempt;

static void attempt_free(Attempt *self) {
    PyMem_RawFree(self->fixed);
    PyMem_RawFree(self->rows);
    PyMem_RawFree(self->work);
    PyMem_RawFree(self->blocked);
    free_object((PyObject *)self);
}

OBJECT_TYPE(attempt_spec, "nqueens.engines.local._local.Attempt", Attempt, attempt_free,
            "One attempt of the local search: start() makes it, search() runs it.");

static PyObject *local_start(PyObject *module, PyObject *args) {
    int n, flags;
    unsigned long long seed;
    long long max_moves;
    Py_buffer rows, fixed, blocked;
    if (!PyArg_ParseTuple(args, "iy*y*y*KLi", &n, &rows, &fixed, &blocked, &seed, &max_moves,
                          &flags))
        return NULL;
    Attempt *attempt = NULL;
    if (n < 1 || n > MAX_N) {
        PyErr_Format(PyExc_ValueError, "n must be 1 to %d, not %d", MAX_N, n);
        goto done;
    }
    if (rows.len != (Py_ssize_t)n * 4 || fixed.len != n || blocked.len % 8 || max_moves < 0 ||
        flags & ~(TORUS | KNIGHT)) {
        PyErr_SetString(PyExc_ValueError, "rows: n int32; fixed: n bytes; blocked: int64 codes; "
                                          "max_moves not negative; flags TORUS and KNIGHT");
        goto done;
    }
    attempt = PyObject_New(Attempt, module_type(module, 0));
    if (attempt == NULL) goto done;
    memset((char *)attempt + sizeof(PyObject), 0, sizeof(Attempt) - sizeof(PyObject));
    attempt->fixed = PyMem_RawMalloc((size_t)n);
    attempt->rows = PyMem_RawMalloc((size_t)n * sizeof(i32));
    attempt->work = PyMem_RawCalloc((size_t)n * WORK_PER_N, sizeof(i32));
    attempt->blocked = PyMem_RawMalloc(blocked.len ? (size_t)blocked.len : 1);
    if (!attempt->fixed || !attempt->rows || !attempt->work || !attempt->blocked) {
        Py_CLEAR(attempt);
        PyErr_NoMemory();
        goto done;
    }
    /* copied first, then checked: the caller's buffers may be of any alignment */
    memcpy(attempt->fixed, fixed.buf, (size_t)n);
    memcpy(attempt->rows, rows.buf, (size_t)n * sizeof(i32));
    memcpy(attempt->blocked, blocked.buf, (size_t)blocked.len);
    for (i32 col = 0; col < n; col++) {
        if (attempt->fixed[col] && (attempt->rows[col] < 0 || attempt->rows[col] >= n)) {
            PyErr_Format(PyExc_ValueError, "the given queen of column %d is off the board", col);
            Py_CLEAR(attempt);
            goto done;
        }
    }
    for (Py_ssize_t at = 1; at < blocked.len / 8; at++) {
        if (attempt->blocked[at - 1] >= attempt->blocked[at]) {
            PyErr_SetString(PyExc_ValueError, "blocked codes must be sorted, each once");
            Py_CLEAR(attempt);
            goto done;
        }
    }
    i32 *w = attempt->work;
    Board board = {n, flags & TORUS, (flags & KNIGHT) != 0, attempt->rows, w, w + n,
                   w + 3 * (size_t)n, w + 5 * (size_t)n, attempt->blocked, blocked.len / 8,
                   attempt->state.random};
    attempt->board = board;
    attempt->seed = seed;
    attempt->max_moves = max_moves;
done:
    PyBuffer_Release(&rows);
    PyBuffer_Release(&fixed);
    PyBuffer_Release(&blocked);
    return (PyObject *)attempt;
}

static PyObject *local_search(PyObject *module, PyObject *args) {
    Attempt *a;
    long long budget;
    if (!PyArg_ParseTuple(args, "O!L", module_type(module, 0), &a, &budget)) return NULL;
    if (budget < 1) return PyErr_Format(PyExc_ValueError, "budget must be positive");
    if (a->busy) return PyErr_Format(PyExc_RuntimeError, "another thread searches this attempt");
    int64_t left;
    a->busy = 1;
    Py_BEGIN_ALLOW_THREADS
    left = attempt(&a->board, a->fixed, a->seed, a->max_moves, a->counters, &a->state, budget);
    Py_END_ALLOW_THREADS
    a->busy = 0;
    return Py_BuildValue("LLL", (long long)left, (long long)a->counters[0],
                         (long long)a->counters[1]);
}

static PyObject *local_rows(PyObject *module, PyObject *args) {
    Attempt *a;
    if (!PyArg_ParseTuple(args, "O!", module_type(module, 0), &a)) return NULL;
    if (a->busy) return PyErr_Format(PyExc_RuntimeError, "another thread searches this attempt");
    PyObject *rows = PyTuple_New(a->board.n);
    for (i32 col = 0; rows != NULL && col < a->board.n; col++) {
        PyObject *row = PyLong_FromLong(a->rows[col]);
        if (row == NULL) Py_CLEAR(rows);
        else PyTuple_SET_ITEM(rows, col, row);
    }
    return rows;
}

static PyMethodDef methods[] = {
    {"start", local_start, METH_VARARGS,
     "start(n, rows, fixed, blocked, seed, max_moves, flags) -> an attempt\n"
     "rows: n int32 (the given queens' rows where fixed[c]); blocked: sorted int64 codes\n"
     "row * n + col; at most max_moves partners are tried; flags: TORUS, KNIGHT."},
    {"search", local_search, METH_VARARGS,
     "search(attempt, budget) -> (conflicts left, swaps, moves)\n"
     "Go on for at most `budget` steps: the conflicts left when the attempt ended (0: a\n"
     "solution, which rows() gives), or UNFINISHED; and its swaps and moves so far."},
    {"rows", local_rows, METH_VARARGS, "rows(attempt) -> the row of each column's queen."},
    {NULL, NULL, 0, NULL},
};

static PyType_Spec *const specs[] = {&attempt_spec, NULL};

static const IntConstant constants[] = {
    {"MAX_N", MAX_N},
    {"UNFINISHED", UNFINISHED},
    {"TORUS", TORUS},
    {"KNIGHT", KNIGHT},
    {NULL, 0},
};

NQUEENS_MODULE(_local, "Min-conflicts repair of a permutation, a budget a call.",
               methods, specs, constants,
               Py_MOD_MULTIPLE_INTERPRETERS_SUPPORTED)
