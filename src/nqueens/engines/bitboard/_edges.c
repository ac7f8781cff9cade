/* The bitboard engine's counter of plain boards: the four edge queens first, then a tight search.

   Every solution has one queen on each edge of the board: on the first and last lines (columns)
   and on the first and last rows. Those four queens (a "constellation", as in Q27 and NQueensFAF)
   are placed first; of the up to 8 constellations that the square's symmetries map into each
   other, only one is searched (as whichever of its images promises the fewest placements), and
   its count stands for all of them. So the count of
   the board is the sum, over the canonical constellations C, of count(C) times the number of
   distinct images of C, and nothing is compared at a solution. The symmetry classes counted by
   --unique are, for each C, the classes of the symmetries that keep C (its stabiliser H) on C's
   own solutions: by Burnside's lemma (count + fixed by a half turn + 2 x fixed by a quarter
   turn) / |H|, as no reflection keeps a solution. Only the rare C that a half turn keeps need
   the solutions' turns compared, in a second copy of the search.

   The other lines are searched with bitmasks, lowest row first. The edge queens' rows and
   diagonals are worked out once per line, before the search, so a step only shifts the masks
   of the queens it placed, by the distance to the next free line. The last line is not entered:
   one row at most is left for it, and a solution is counted when it is free.

   A count is an object of this module (`start`) that owns its search, and stops after a budget
   of placements, so that a deadline or Ctrl-C gets a word in between calls. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#include "searches.h"

#define MAX_N 32

/* Four edge queens: a, b (rows of the queens on the first and last lines), c, d (lines of the
   queens on the first and last rows). */
typedef struct {
    int8_t a, b, c, d;
} Edges;

/* A canonical constellation: its smallest image, the symmetries that keep it (KEEPS_* below, and
   how many, shifted left by 2) and, once a process first counts it, the image it is searched
   as. */
typedef struct {
    Edges canonical, searched;
    uint8_t keeps, oriented;
} Constellation;

#define KEEPS_HALF_TURN 1
#define KEEPS_QUARTER_TURN 2

static Constellation *cached[MAX_N + 1];
static Py_ssize_t cached_count[MAX_N + 1];

/* One search under way: the constellation it counts and its stack. */
typedef struct {
    int32_t index;      /* the constellation counted now */
    int32_t active;     /* its search is set up */
    int32_t depth;      /* the free line the search is at */
    int32_t base;       /* the free lines given rows before the search (a part of a piece) */
    int32_t free_lines; /* lines without an edge queen */
    int32_t stabiliser; /* |H| */
    int32_t half_turn, quarter_turn;
    u64 count, fixed_half, fixed_quarter; /* of the constellation counted now */
    u64 solutions, classes, nodes;        /* of the constellations finished */
    int32_t line_of[MAX_N];               /* the board line of each free line */
    int32_t fixed_row[MAX_N];             /* the edge queen's row on each line, or -1 */
    u64 gap[MAX_N];                       /* lines from each free line to the next */
    u64 blocked[MAX_N], avail[MAX_N], cols[MAX_N], ld[MAX_N], rd[MAX_N], placed[MAX_N];
} Search;

static int key_of(int n, const Edges *e) {
    return ((e->a * n + e->b) * n + e->c) * n + e->d;
}

static void images(int n, const Edges *e, Edges image[8]) {
    /* The constellation under each of the 8 symmetries (searches.h numbers them). */
    int m = n - 1, squares[4][2] = {{0, e->a}, {m, e->b}, {e->c, 0}, {e->d, m}};
    for (int which = 0; which < 8; which++)
        for (int i = 0; i < 4; i++) {
            int line, row;
            symmetry_moves(n, which, squares[i][0], squares[i][1], &line, &row);
            if (line == 0) image[which].a = (int8_t)row;
            if (line == m) image[which].b = (int8_t)row;
            if (row == 0) image[which].c = (int8_t)line;
            if (row == m) image[which].d = (int8_t)line;
        }
}

static int attack(int l1, int r1, int l2, int r2) {
    if (l1 == l2 && r1 == r2) return 0; /* one queen on two edges */
    return l1 == l2 || r1 == r2 || l1 - l2 == r1 - r2 || l1 - l2 == r2 - r1;
}

static void set_up(Search *s, int n, const Edges *e, int keeps);

static uint32_t next_random(u64 *state) {
    /* Knuth's MMIX generator, its high half: the same numbers on every machine, so that every
       process of a count searches each constellation in the same orientation. */
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*state >> 32);
}

CLONED static u64 estimate(int n, const Edges *e, int probes, u64 *seed) {
    /* Knuth's estimate of the placements that the search of k makes, times probes: each probe
       goes down one random branch and adds up the product of the branching on its way. In
       integers, saturated, so that it is the same on every machine. */
    Search s;
    set_up(&s, n, e, 1 << 2);
    u64 total = 0;
    for (int probe = 0; probe < probes; probe++) {
        u64 avail = ~s.blocked[0], cols = 0, ld = 0, rd = 0, weight = 1;
        for (int depth = 0; depth + 1 < s.free_lines && avail; depth++) {
            u64 options = (u64)bits_set(avail);
            multiply_saturated(weight, options, &weight);
            add_saturated(weight, &total);
            for (u64 pick = (next_random(seed) * options) >> 32; pick; pick--)
                avail &= avail - 1;
            u64 bit = avail & (~avail + 1), shift = s.gap[depth];
            cols |= bit;
            ld = (ld | bit) << shift;
            rd = (rd | bit) >> shift;
            avail = ~(cols | ld | rd | s.blocked[depth + 1]);
        }
    }
    return total;
}

/* The orientation a constellation is searched in. By a fixed rule, the image whose last line's
   queen is nearest a corner, then whose last row's queen is on the latest line: its rows and
   diagonals prune the most lines before them. Where that search is big enough to repay more (one
   probe per 2^PROBE_SHIFT placements, FEWEST_PROBES to MOST_PROBES), every distinct image is
   probed and the one estimated to take the fewest placements is searched instead. */
#define SIZE_PROBES 8
#define PROBE_SHIFT 12
#define FEWEST_PROBES 16
#define MOST_PROBES 64

static Edges *by_rule(int n, Edges image[8]) {
    /* The image that the fixed rule above chooses. */
    int m = n - 1;
    Edges *ruled = &image[0];
    for (int which = 0; which < 8; which++) {
        Edges *e = &image[which];
        int corner = e->b < m - e->b ? e->b : m - e->b;
        int ruled_corner = ruled->b < m - ruled->b ? ruled->b : m - ruled->b;
        if (corner < ruled_corner || (corner == ruled_corner && e->d > ruled->d)) ruled = e;
    }
    return ruled;
}

static void orient(int n, Constellation *k) {
    /* Choose the image k is searched as. */
    int distinct = 0;
    Edges image[8], *unlike[8];
    u64 seed = (u64)key_of(n, &k->canonical);
    images(n, &k->canonical, image);
    for (int which = 0; which < 8; which++) {
        Edges *e = &image[which];
        int seen = 0;
        for (int i = 0; i < distinct && !seen; i++) seen = memcmp(unlike[i], e, sizeof(Edges)) == 0;
        if (!seen) unlike[distinct++] = e;
    }
    Edges *ruled = by_rule(n, image);
    k->searched = *ruled;
    k->oriented = 1;
    u64 probes = estimate(n, ruled, SIZE_PROBES, &seed) / SIZE_PROBES >> PROBE_SHIFT;
    if (probes < FEWEST_PROBES || distinct == 1) return;
    if (probes > MOST_PROBES) probes = MOST_PROBES;
    u64 fewest = ~(u64)0;
    for (int i = 0; i < distinct; i++) {
        u64 placements = estimate(n, unlike[i], (int)probes, &seed);
        if (placements < fewest) {
            fewest = placements;
            k->searched = *unlike[i];
        }
    }
}

static int generate(int n) {
    /* Fill cached[n] with the canonical constellations of size n, in increasing order. */
    int m = n - 1;
    Py_ssize_t size = 0, room = 1024;
    Constellation *all = PyMem_Malloc(room * sizeof(Constellation));
    if (all == NULL) return -1;
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++)
            for (int c = 0; c < n; c++)
                for (int d = 0; d < n; d++) {
                    if ((a == 0) != (c == 0) || (b == 0) != (c == m) || (a == m) != (d == 0) ||
                        (b == m) != (d == m))
                        continue; /* a corner queen stands on both of its edges */
                    int sq[4][2] = {{0, a}, {m, b}, {c, 0}, {d, m}};
                    int clash = 0;
                    for (int i = 0; i < 4 && !clash; i++)
                        for (int j = i + 1; j < 4 && !clash; j++)
                            clash = attack(sq[i][0], sq[i][1], sq[j][0], sq[j][1]);
                    if (clash) continue;
                    Edges e = {(int8_t)a, (int8_t)b, (int8_t)c, (int8_t)d}, image[8];
                    int key = key_of(n, &e), smallest = 1, keeps = 0, stabiliser = 0;
                    images(n, &e, image);
                    for (int which = 0; which < 8; which++) {
                        int other = key_of(n, &image[which]);
                        if (other < key) smallest = 0;
                        if (other == key) {
                            stabiliser++;
                            if (which == HALF_TURN) keeps |= KEEPS_HALF_TURN;
                            if (which == QUARTER_TURN) keeps |= KEEPS_QUARTER_TURN;
                        }
                    }
                    if (!smallest) continue;
                    if (size == room) {
                        room *= 2;
                        Constellation *more = PyMem_Realloc(all, room * sizeof(Constellation));
                        if (more == NULL) {
                            PyMem_Free(all);
                            return -1;
                        }
                        all = more;
                    }
                    all[size].canonical = e;
                    all[size].keeps = (uint8_t)(keeps | stabiliser << 2);
                    all[size].oriented = 0;
                    size++;
                }
    cached[n] = all;
    cached_count[n] = size;
    return 0;
}

static const Edges *searched(int n, Py_ssize_t index) {
    /* The image constellation index is searched as, chosen on first use; under the GIL, as the
       cache is shared by the threads of a process. */
    Constellation *k = &cached[n][index];
    if (!k->oriented) orient(n, k);
    return &k->searched;
}

static int ensure(int n) {
    if (n < 5 || n > MAX_N) {
        PyErr_Format(PyExc_ValueError, "constellations are counted for boards of 5 to %d", MAX_N);
        return -1;
    }
    if (cached[n] == NULL && generate(n) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void set_up(Search *s, int n, const Edges *e, int keeps) {
    /* The search of the edge queens e, kept by the symmetries keeps: their rows and diagonals on
       every free line. */
    int m = n - 1;
    int lines[4] = {0, m, e->c, e->d}, rows[4] = {e->a, e->b, 0, m};
    for (int line = 0; line < n; line++) s->fixed_row[line] = -1;
    for (int i = 0; i < 4; i++) s->fixed_row[lines[i]] = rows[i];
    int free_lines = 0;
    u64 full = ((u64)1 << n) - 1; /* n <= MAX_N < 64 */
    for (int line = 0; line < n; line++) {
        if (s->fixed_row[line] >= 0) continue;
        u64 blocked = 0;
        for (int other = 0; other < n; other++) {
            int row = s->fixed_row[other];
            if (row < 0) continue;
            int apart = line > other ? line - other : other - line;
            blocked |= (u64)1 << row;
            if (row + apart < n) blocked |= (u64)1 << (row + apart);
            if (row - apart >= 0) blocked |= (u64)1 << (row - apart);
        }
        s->line_of[free_lines] = line;
        s->blocked[free_lines] = blocked | ~full; /* the rows beyond the board, too */
        free_lines++;
    }
    for (int i = 0; i + 1 < free_lines; i++) s->gap[i] = (u64)(s->line_of[i + 1] - s->line_of[i]);
    s->free_lines = free_lines;
    s->stabiliser = keeps >> 2;
    s->half_turn = (keeps & KEEPS_HALF_TURN) != 0;
    s->quarter_turn = (keeps & KEEPS_QUARTER_TURN) != 0;
    s->count = s->fixed_half = s->fixed_quarter = 0;
    s->depth = s->base = 0;
    s->avail[0] = ~s->blocked[0];
    s->cols[0] = s->ld[0] = s->rd[0] = 0;
    s->active = 1;
}

static void place_given(Search *s, const int *rows, int given) {
    /* Queens on the first free lines, at these rows, before the search: where one is attacked,
       the search finds nothing. */
    u64 avail = s->avail[0], cols = 0, ld = 0, rd = 0;
    for (int i = 0; i < given; i++) {
        u64 bit = rows[i] >= 0 && rows[i] < 64 ? (u64)1 << rows[i] : 0;
        if (!(avail & bit)) {
            avail = 0;
            break;
        }
        s->placed[i] = bit;
        cols |= bit;
        ld = (ld | bit) << s->gap[i];
        rd = (rd | bit) >> s->gap[i];
        avail = ~(cols | ld | rd | s->blocked[i + 1]);
    }
    s->depth = s->base = given;
    s->avail[given] = avail;
    s->cols[given] = cols;
    s->ld[given] = ld;
    s->rd[given] = rd;
}

static void compare_turns(Search *s, int n, u64 last_bit) {
    /* The solution on the stack (its last queen being last_bit): is it kept by a half turn, by
       a quarter turn? */
    int rows[MAX_N];
    for (int line = 0; line < n; line++) rows[line] = s->fixed_row[line];
    for (int i = 0; i < s->free_lines; i++) {
        u64 bit = i == s->free_lines - 1 ? last_bit : s->placed[i];
        rows[s->line_of[i]] = lowest_bit(bit);
    }
    int half = 1, quarter = 1;
    for (int line = 0; line < n; line++) {
        int to_line, to_row;
        symmetry_moves(n, HALF_TURN, line, rows[line], &to_line, &to_row);
        if (rows[to_line] != to_row) half = 0;
        symmetry_moves(n, QUARTER_TURN, line, rows[line], &to_line, &to_row);
        if (rows[to_line] != to_row) quarter = 0;
    }
    s->fixed_half += (u64)half;
    s->fixed_quarter += (u64)quarter;
}

/* The solutions with the masks of the line before the last: each of its free rows, and the last
   line's row if it is free. TURNS is a constant at each call: the compiler makes two searches of
   what calls it, and the plain one keeps nothing for comparing turns. */
ALWAYS_INLINE u64 last_two(Search *s, int n, u64 avail, u64 cols, u64 ld, u64 rd, u64 *nodes,
                           const int turns) {
    int depth = s->free_lines - 2;
    u64 shift = s->gap[depth], blocked = s->blocked[depth + 1], count = 0;
    while (avail) {
        u64 bit = avail & (~avail + 1);
        avail ^= bit;
        *nodes += 1;
        u64 last = ~(cols | bit | (ld | bit) << shift | (rd | bit) >> shift | blocked);
        if (turns && last) {
            s->placed[depth] = bit;
            compare_turns(s, n, last);
        }
        count += last != 0;
    }
    return count;
}

/* The search from where it stopped, for at most budget placements; returns 1 when it is over.
   The line before the last is searched by last_two, without going down to it. */
ALWAYS_INLINE int run(Search *s, int n, u64 budget, const int turns) {
    int depth = s->depth, before_last = s->free_lines - 2;
    u64 nodes = 0, count = 0;
    u64 avail = s->avail[depth], cols = s->cols[depth], ld = s->ld[depth], rd = s->rd[depth];
    const u64 *blocked = s->blocked, *gap = s->gap;
    int over = 0;
    if (before_last == s->base) { /* the first line searched is the one before the last */
        s->count += last_two(s, n, avail, cols, ld, rd, &s->nodes, turns);
        return 1;
    }
    for (;;) {
        if (!avail) {
            if (depth == s->base) {
                over = 1;
                break;
            }
            if (nodes >= budget) break;
            depth--;
            avail = s->avail[depth];
            cols = s->cols[depth];
            ld = s->ld[depth];
            rd = s->rd[depth];
            continue;
        }
        u64 bit = avail & (~avail + 1);
        avail ^= bit;
        nodes++;
        u64 shift = gap[depth];
        u64 next_cols = cols | bit, next_ld = (ld | bit) << shift, next_rd = (rd | bit) >> shift;
        u64 next = ~(next_cols | next_ld | next_rd | blocked[depth + 1]);
        if (!next) continue;
        if (turns) s->placed[depth] = bit;
        if (depth + 1 == before_last) {
            count += last_two(s, n, next, next_cols, next_ld, next_rd, &nodes, turns);
            continue;
        }
        s->avail[depth] = avail;
        s->cols[depth] = cols;
        s->ld[depth] = ld;
        s->rd[depth] = rd;
        depth++;
        avail = next;
        cols = next_cols;
        ld = next_ld;
        rd = next_rd;
    }
    s->depth = depth;
    s->avail[depth] = avail;
    s->cols[depth] = cols;
    s->ld[depth] = ld;
    s->rd[depth] = rd;
    s->count += count;
    s->nodes += nodes;
    return over;
}

CLONED LINE_ALIGNED
static int search_on(Search *s, int n, u64 budget) {
    if (s->free_lines == 1) { /* the edge queens leave one line: its free row, if any */
        u64 left = ~s->blocked[0];
        if (left) {
            s->count += 1;
            if (s->half_turn) compare_turns(s, n, left);
        }
        s->nodes += 1;
        return 1;
    }
    return s->half_turn ? run(s, n, budget, 1) : run(s, n, budget, 0);
}

static void weigh(u64 count, u64 turns, int stabiliser, u64 *solutions, u64 *classes) {
    /* A constellation's count with its images added to the totals: its solutions stand for
       8 / |H| of the board's, and by Burnside's lemma its classes are (count + turns) / |H|,
       turns being its solutions that a half turn keeps plus twice those a quarter turn keeps
       (zero where the constellation itself is not kept by them). */
    *solutions += (u64)(8 / stabiliser) * count;
    *classes += (count + turns) / (u64)stabiliser;
}

static void finish(Search *s) {
    /* The constellation is counted: add it, and its images, to the totals. */
    u64 turns = (s->half_turn ? s->fixed_half : 0) + (s->quarter_turn ? 2 * s->fixed_quarter : 0);
    weigh(s->count, turns, s->stabiliser, &s->solutions, &s->classes);
    s->active = 0;
}

/* The solutions that a half turn keeps, as a queen on each line of the first half decides its
   image on the second: the search goes down half the lines, with the rows and both diagonals of
   the whole board as bits (line + row and line - row + n - 1 are under 2n - 1 <= 63). */
typedef struct {
    int n, halves, middle; /* the free lines of the first half; the middle line's, or -1 */
    int line[MAX_N], row[MAX_N];
    u64 half, quarter; /* the solutions a half turn keeps, and of those a quarter turn */
} Turned;

static int take(int n, int line, int row, u64 *rows, u64 *up, u64 *down) {
    /* Put a queen on (line, row) if nothing attacks it there: 1 if it was put. */
    u64 r = (u64)1 << row, u = (u64)1 << (line + row), d = (u64)1 << (line - row + n - 1);
    if ((*rows & r) || (*up & u) || (*down & d)) return 0;
    *rows |= r;
    *up |= u;
    *down |= d;
    return 1;
}

static void turned_from(Turned *t, int at, u64 rows, u64 up, u64 down) {
    /* The search from the first-half line at, its queens and images so far in the masks. */
    int n = t->n;
    if (at == t->halves) {
        t->half++;
        int quarter = 1; /* whether the quarter turn sends every queen onto a queen */
        for (int line = 0; line < n && quarter; line++) {
            int to_line, to_row;
            symmetry_moves(n, QUARTER_TURN, line, t->row[line], &to_line, &to_row);
            quarter = t->row[to_line] == to_row;
        }
        t->quarter += (u64)quarter;
        return;
    }
    int line = t->line[at];
    for (int row = 0; row < n; row++) {
        u64 r = rows, u = up, d = down;
        int image_line, image_row; /* the queen's image under the half turn */
        symmetry_moves(n, HALF_TURN, line, row, &image_line, &image_row);
        if (!take(n, line, row, &r, &u, &d) || !take(n, image_line, image_row, &r, &u, &d)) continue;
        t->row[line] = row;
        t->row[image_line] = image_row;
        turned_from(t, at + 1, r, u, d);
    }
}

static u64 kept_by_turns(int n, const Edges *e, int keeps) {
    /* Of the solutions with edge queens e, those a half turn keeps plus twice those a quarter
       turn keeps, where the turn keeps e (else none is kept): with the count, Burnside's sum. */
    if (!(keeps & KEEPS_HALF_TURN)) return 0;
    int m = n - 1, lines[4] = {0, m, e->c, e->d}, fixed[4] = {e->a, e->b, 0, m};
    Turned t = {.n = n, .halves = 0, .middle = -1};
    u64 rows = 0, up = 0, down = 0;
    for (int line = 0; line < n; line++) t.row[line] = -1;
    for (int i = 0; i < 4; i++) t.row[lines[i]] = fixed[i];
    for (int line = 0; line < n; line++) {
        if (t.row[line] >= 0) {
            if (!take(n, line, t.row[line], &rows, &up, &down)) return 0; /* an edge queen twice */
        } else if (line < m - line) {
            t.line[t.halves++] = line;
        } else if (line == m - line) {
            t.middle = line;
        }
    }
    if (t.middle >= 0) { /* the middle line's queen is its own image: the centre */
        if (!take(n, t.middle, t.middle, &rows, &up, &down)) return 0;
        t.row[t.middle] = t.middle;
    }
    turned_from(&t, 0, rows, up, down);
    return t.half + ((keeps & KEEPS_QUARTER_TURN) ? 2 * t.quarter : 0);
}

static int read_rows(PyObject *given, int *rows, int most) {
    /* The rows of a tuple of ints, at most ``most``: how many, or -1 with an exception set. */
    Py_ssize_t size = PyTuple_GET_SIZE(given);
    if (size > most) {
        PyErr_Format(PyExc_ValueError, "at most %d rows can be given here", most);
        return -1;
    }
    for (Py_ssize_t i = 0; i < size; i++) {
        long row = PyLong_AsLong(PyTuple_GET_ITEM(given, i));
        if (row == -1 && PyErr_Occurred()) return -1;
        rows[i] = row < 0 || row > 63 ? -1 : (int)row;
    }
    return (int)size;
}

/* A count of constellations start to end - 1 under way, owned by a Python object: its search
   lives in the object, so no caller can hand it a state it did not leave, and one thread at a
   time drives it. */
typedef struct {
    PyObject_HEAD
    Search search;
    int n, given, busy;
    Py_ssize_t end;
    int rows[MAX_N];
} Counter;

OBJECT_TYPE(counter_spec, "nqueens.engines.bitboard._edges.Counter", Counter, free_object,
            "A count of constellations under way: start() makes it, count() runs it.");

static PyObject *edges_start(PyObject *module, PyObject *args) {
    int n, rows[MAX_N], given = 0;
    Py_ssize_t start, end;
    PyObject *given_rows = NULL;
    if (!PyArg_ParseTuple(args, "inn|O!", &n, &start, &end, &PyTuple_Type, &given_rows))
        return NULL;
    if (ensure(n) < 0) return NULL;
    if (start < 0 || end > cached_count[n] || start > end)
        return PyErr_Format(PyExc_IndexError, "constellations %zd to %zd of %zd", start, end,
                            cached_count[n]);
    if (given_rows != NULL && PyTuple_GET_SIZE(given_rows) > 0) {
        /* a part of one constellation: the lines before the last two can be given */
        if (end != start + 1)
            return PyErr_Format(PyExc_ValueError, "rows are given for one constellation only");
        const Edges *e = &cached[n][start].canonical;
        int edge_lines = 2 + (e->c != 0 && e->c != n - 1) + (e->d != 0 && e->d != n - 1);
        given = read_rows(given_rows, rows, n - edge_lines - 2);
        if (given < 0) return NULL;
    }
    for (Py_ssize_t index = start; index < end; index++) searched(n, index);
    Counter *counter = PyObject_New(Counter, module_type(module, 0));
    if (counter == NULL) return NULL;
    memset((char *)counter + sizeof(PyObject), 0, sizeof(Counter) - sizeof(PyObject));
    counter->n = n;
    counter->given = given;
    counter->end = end;
    memcpy(counter->rows, rows, sizeof(int) * (size_t)given);
    counter->search.index = (int32_t)start;
    return (PyObject *)counter;
}

static PyObject *edges_count(PyObject *module, PyObject *args) {
    Counter *counter;
    unsigned long long budget;
    if (!PyArg_ParseTuple(args, "O!K", module_type(module, 0), &counter, &budget)) return NULL;
    if (counter->busy) return PyErr_Format(PyExc_RuntimeError, "another thread runs this count");
    Search *s = &counter->search;
    int n = counter->n, given = counter->given;
    const Constellation *all = cached[n];
    u64 spent_before = s->nodes;
    counter->busy = 1;
    Py_BEGIN_ALLOW_THREADS
    while (s->index < counter->end) {
        if (!s->active) {
            set_up(s, n, &all[s->index].searched, all[s->index].keeps);
            if (given) place_given(s, counter->rows, given);
        }
        u64 spent = s->nodes - spent_before;
        if (spent >= budget) break;
        if (!search_on(s, n, budget - spent)) break;
        finish(s);
        s->index++;
    }
    Py_END_ALLOW_THREADS
    counter->busy = 0;
    int over = s->index >= counter->end;
    u64 solutions = s->solutions, classes = s->classes;
    if (s->active) /* a lower bound from the constellation under way */
        weigh(s->count, 0, s->stabiliser, &solutions, &classes);
    return Py_BuildValue("KKKO", solutions, classes, s->nodes, over ? Py_True : Py_False);
}

static PyObject *edges_constellations(PyObject *Py_UNUSED(self), PyObject *args) {
    int n;
    if (!PyArg_ParseTuple(args, "i", &n)) return NULL;
    if (ensure(n) < 0) return NULL;
    PyObject *list = PyList_New(cached_count[n]);
    if (list == NULL) return NULL;
    for (Py_ssize_t i = 0; i < cached_count[n]; i++) {
        const Constellation *k = &cached[n][i];
        const Edges *e = &k->canonical;
        PyObject *item = Py_BuildValue("iiiii", e->a, e->b, e->c, e->d, k->keeps >> 2);
        if (item == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, item);
    }
    return list;
}

static PyObject *edges_count_one(PyObject *Py_UNUSED(self), PyObject *args) {
    int n, a, b, c, d;
    if (!PyArg_ParseTuple(args, "iiiii", &n, &a, &b, &c, &d)) return NULL;
    if (ensure(n) < 0) return NULL;
    if (a < 0 || a >= n || b < 0 || b >= n || c < 0 || c >= n || d < 0 || d >= n)
        return PyErr_Format(PyExc_ValueError, "edge queens are on rows and lines 0 to %d", n - 1);
    Search s;
    memset(&s, 0, sizeof(Search));
    Edges e = {(int8_t)a, (int8_t)b, (int8_t)c, (int8_t)d};
    set_up(&s, n, &e, 1 << 2);
    Py_BEGIN_ALLOW_THREADS
    search_on(&s, n, ~(u64)0);
    Py_END_ALLOW_THREADS
    return Py_BuildValue("KK", s.count, s.nodes);
}

static int read_index(PyObject *args, int *n, Py_ssize_t *index) {
    /* The arguments (n, index) of a constellation: 0, or -1 with an exception set. */
    if (!PyArg_ParseTuple(args, "in", n, index)) return -1;
    if (ensure(*n) < 0) return -1;
    if (*index < 0 || *index >= cached_count[*n]) {
        PyErr_Format(PyExc_IndexError, "no constellation %zd of %zd", *index, cached_count[*n]);
        return -1;
    }
    return 0;
}

static int set_up_indexed(PyObject *args, Search *s, int *n) {
    /* The search of constellation index, from the arguments (n, index), as it is counted: 0, or
       -1 with an exception set. */
    Py_ssize_t index;
    if (read_index(args, n, &index) < 0) return -1;
    memset(s, 0, sizeof(Search));
    set_up(s, *n, searched(*n, index), cached[*n][index].keeps);
    return 0;
}

static PyObject *edges_free_lines(PyObject *Py_UNUSED(self), PyObject *args) {
    int n;
    Search s;
    if (set_up_indexed(args, &s, &n) < 0) return NULL;
    PyObject *lines = PyTuple_New(s.free_lines);
    if (lines == NULL) return NULL;
    for (int i = 0; i < s.free_lines; i++) {
        PyObject *line = PyLong_FromLong(s.line_of[i]);
        if (line == NULL) {
            Py_DECREF(lines);
            return NULL;
        }
        PyTuple_SET_ITEM(lines, i, line);
    }
    return lines;
}

static PyObject *edges_masks(PyObject *Py_UNUSED(self), PyObject *args) {
    int n;
    Py_ssize_t index;
    if (read_index(args, &n, &index) < 0) return NULL;
    /* the image of the fixed rule, unprobed: a device's threads do not repay the probes */
    const Constellation *k = &cached[n][index];
    Edges image[8];
    images(n, &k->canonical, image);
    const Edges *e = by_rule(n, image);
    Search s;
    memset(&s, 0, sizeof(Search));
    set_up(&s, n, e, k->keeps);
    u64 turns = kept_by_turns(n, e, k->keeps);
    PyObject *blocked = PyTuple_New(s.free_lines), *gaps = PyTuple_New(s.free_lines);
    if (blocked == NULL || gaps == NULL) goto failed;
    for (int i = 0; i < s.free_lines; i++) {
        PyObject *mask = PyLong_FromUnsignedLongLong(s.blocked[i] & (((u64)1 << n) - 1));
        PyObject *gap = PyLong_FromUnsignedLongLong(i + 1 < s.free_lines ? s.gap[i] : 0);
        if (mask == NULL || gap == NULL) {
            Py_XDECREF(mask);
            Py_XDECREF(gap);
            goto failed;
        }
        PyTuple_SET_ITEM(blocked, i, mask);
        PyTuple_SET_ITEM(gaps, i, gap);
    }
    return Py_BuildValue("NNK", blocked, gaps, turns);
failed:
    Py_XDECREF(blocked);
    Py_XDECREF(gaps);
    return NULL;
}

static PyObject *edges_weighed(PyObject *Py_UNUSED(self), PyObject *args) {
    int n;
    Py_ssize_t start;
    PyObject *counts, *turns;
    if (!PyArg_ParseTuple(args, "inO!O!", &n, &start, &PyTuple_Type, &counts, &PyTuple_Type,
                          &turns))
        return NULL;
    if (ensure(n) < 0) return NULL;
    Py_ssize_t size = PyTuple_GET_SIZE(counts);
    if (PyTuple_GET_SIZE(turns) != size || start < 0 || start > cached_count[n] - size)
        return PyErr_Format(PyExc_ValueError, "a count and turns for each of constellations "
                                              "start on, of %zd", cached_count[n]);
    u64 solutions = 0, classes = 0;
    for (Py_ssize_t i = 0; i < size; i++) {
        u64 count = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(counts, i));
        if (count == (u64)-1 && PyErr_Occurred()) return NULL;
        u64 kept = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(turns, i));
        if (kept == (u64)-1 && PyErr_Occurred()) return NULL;
        weigh(count, kept, cached[n][start + i].keeps >> 2, &solutions, &classes);
    }
    return Py_BuildValue("KK", solutions, classes);
}

static PyObject *edges_instructions(PyObject *Py_UNUSED(self), PyObject *Py_UNUSED(args)) {
#if CLONES
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") &&
        __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("fma"))
        return PyUnicode_FromString("x86-64-v3 (BMI2)");
    return PyUnicode_FromString("x86-64");
#else
    return PyUnicode_FromString("portable");
#endif
}

static PyMethodDef methods[] = {
    {"instructions", edges_instructions, METH_NOARGS,
     "instructions() -> the copy of the search this processor runs: x86-64-v3 (BMI2), x86-64 "
     "or portable (one copy)."},
    {"free_lines", edges_free_lines, METH_VARARGS,
     "free_lines(n, index) -> the lines searched, in order, for constellation index of size n."},
    {"masks", edges_masks, METH_VARARGS,
     "masks(n, index) -> (blocked, gaps, turns): for each line searched, in order, the rows "
     "the edge queens of constellation index take or attack, and the lines to the next one (0 "
     "last); and its solutions that a half turn keeps plus twice those a quarter turn keeps, "
     "which its classes need: (count + turns) / the symmetries keeping it."},
    {"weighed", edges_weighed, METH_VARARGS,
     "weighed(n, start, counts, turns) -> (solutions, classes): the board's solutions and\n"
     "classes that constellations start on stand for, given each one's count and its turns\n"
     "(masks() gives them), as count() adds them up."},
    {"count_one", edges_count_one, METH_VARARGS,
     "count_one(n, a, b, c, d) -> (solutions, placements) with these edge queens."},
    {"start", edges_start, METH_VARARGS,
     "start(n, start, end, rows=()) -> a count of constellations start to end - 1 of size n; "
     "with rows, only the solutions of constellation start with queens at those rows on its "
     "first free lines."},
    {"count", edges_count, METH_VARARGS,
     "count(counter, budget) -> (solutions, classes, placements, over)\n\n"
     "Go on with the count for at most about budget placements."},
    {"constellations", edges_constellations, METH_VARARGS,
     "constellations(n) -> [(a, b, c, d, symmetries keeping it)], the canonical ones in order."},
    {NULL, NULL, 0, NULL},
};

static PyType_Spec *const specs[] = {&counter_spec, NULL};

static const IntConstant constants[] = {
    {"MAX_N", MAX_N},
    {NULL, 0},
};

/* the constellations of each size are worked out once and kept for the whole process */
NQUEENS_MODULE(_edges, "The bitboard engine's counter of plain boards, in C.",
               methods, specs, constants,
               Py_MOD_MULTIPLE_INTERPRETERS_NOT_SUPPORTED)
