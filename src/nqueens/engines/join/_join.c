/* The join engine's counter of plain boards: the board's quarters are solved once, and their
   solutions joined, without a search over the whole board.

   The board is cut into four h x h quarters (N = 2h; or N = 2h + 1, whose middle row and column
   are placed first). Every solution has h queens in the left half's h columns, on some set R of
   rows, and the others in the right half. For one R (a "job"):
   - the left half's solutions are the pairs of a top-left and a bottom-left quarter solution
     on R's rows, with column sets that make up the half, that share no diagonal. Each leaves a
     pattern: which of the diagonals that cross into the right half it takes;
   - the right half's solutions, likewise;
   - the board's solutions with R in the left are the pairs of an left and a right pattern with
     no bit in common. They are counted 256 pairs at a time: one side's patterns are kept
     bit-sliced (for each chunk of four pattern bits and each of its 16 values, which of 256
     patterns have none of the value's bits), so that a pattern of the other side takes one row
     per chunk, ANDs them and counts what is left.
   The quarter solutions of every set of rows and columns are listed once (a Quarters object).

   Symmetry. Even N: the top-bottom mirror maps R to its reverse with the same count, so only
   R no greater than its reverse is joined, and counted twice unless it is a palindrome. A queen
   on a long diagonal: the reflection in either long diagonal keeps the other one square by square
   and swaps the halves of the first, so solutions with a queen on the left part of a long
   diagonal are counted as their images with it on the right part: left halves with one are
   dropped, and right halves with one (two) count twice (four times). Solutions with neither long
   diagonal taken are also kept as a set by the left-right mirror, which maps R to its complement:
   they are counted once, for the smallest of R, its reverse and their complements, as often as
   that set has members. Odd N: the queens of the middle row (column c) and middle column (row
   r) are placed first. Off the centre, the 8 symmetries map (c, r) to 8 distinct placements (the
   two queens would attack each other if c and r were as far from the middle), so one in 8 is
   counted, 8 times; at the centre, both mirrors keep the centre queen and R's counts are weighed
   by them as above. Without symmetry every R and every placement of the middle queens is
   counted once.

   The quarters' lists are an object of this module (`quarters`), never changed once made, so
   that every count of the same board shares them; a count (`start`) owns its tables and stops
   after a budget of work, so that a deadline or Ctrl-C gets a word in between calls. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>
#include <string.h>

#include "searches.h"

#define MAX_N 21 /* quarters of 10 x 10: the next size's lists would take tens of gigabytes */
#define LANES 4  /* 64-bit words side by side: 256 patterns to a block */
#define BLOCK (64 * LANES)
#define CHUNK_BITS 4
#define VALUES (1 << CHUNK_BITS)
#define MAX_CHUNKS 16
#define CLASS_SHIFT 62 /* a right half's queens on each long diagonal, above its pattern */
#define PATTERN_MASK ((((u64)1) << CLASS_SHIFT) - 1)

#if NQ_GNU
typedef u64 Lanes __attribute__((vector_size(8 * LANES)));
#define LANE_AND(a, b) ((a) & (b))
#define LANE_NOT(a) (~(a))
#define LANE_SHIFT_RIGHT(a, s) ((a) >> (s))
#define LANE_SHIFT_LEFT(a, s) ((a) << (s))
#define LANE_XOR(a, b) ((a) ^ (b))
#define LANE_AND_WORD(a, w) ((a) & (w))
#else
typedef struct {
    u64 w[LANES];
} Lanes;
static Lanes lanes_op(Lanes a, Lanes b, int op, int s) {
    Lanes r;
    for (int i = 0; i < LANES; i++)
        r.w[i] = op == 0   ? a.w[i] & b.w[i]
                 : op == 1 ? ~a.w[i]
                 : op == 2 ? a.w[i] >> s
                 : op == 3 ? a.w[i] << s
                           : a.w[i] ^ b.w[i];
    return r;
}
static Lanes lanes_word(u64 w) {
    Lanes r;
    for (int i = 0; i < LANES; i++) r.w[i] = w;
    return r;
}
#define LANE_AND(a, b) lanes_op(a, b, 0, 0)
#define LANE_NOT(a) lanes_op(a, a, 1, 0)
#define LANE_SHIFT_RIGHT(a, s) lanes_op(a, a, 2, s)
#define LANE_SHIFT_LEFT(a, s) lanes_op(a, a, 3, s)
#define LANE_XOR(a, b) lanes_op(a, b, 4, 0)
#define LANE_AND_WORD(a, w) lanes_op(a, lanes_word(w), 0, 0)
#endif

/* Lane i of x, as a value to read or write. */
#if NQ_GNU
#define LANE(x, i) ((x)[i])
#else
#define LANE(x, i) ((x).w[i])
#endif

/* ---- The quarters' solutions ------------------------------------------------------------ */

/* Where the middle queens stand, what they take, and how the rest of the board is shared. */
typedef struct {
    u64 taken_sums, taken_differences; /* diagonals r + c and c - r + N - 1 of the middle queens */
    u64 free_rows;                     /* rows without a middle queen */
    u32 left_columns, right_columns;    /* free columns of each half, as bits 0..h-1 */
    int left_rows;                     /* queens in the left half: its free columns */
    int long_diagonals; /* even N with symmetry: weighed by the long diagonals' queens */
} Config;

/* One R to join: its rows in the left half, its placement of the middle queens and what a
   right half counts for, by how many long-diagonal queens it has. */
typedef struct {
    u32 rows;
    u16 config;
    u8 weight[3];
} Job;

typedef struct {
    PyObject_HEAD
    int n, h, symmetry;
    u32 *start;    /* the solutions of quarter rows x, columns y: start[x << h | y] onwards */
    u64 *diagonals; /* each as its sums | differences << 32, in the quarter's own coordinates */
    size_t placements;
    Config *configs;
    int config_count;
    Job *jobs;
    size_t job_count;
} Quarters;

static void quarter_solutions(Quarters *q, int row, u32 rows, u32 columns, u64 sums,
                              u64 differences, int listing) {
    int h = q->h;
    if (row == h) {
        size_t cell = ((size_t)rows << h) | columns;
        if (listing)
            q->diagonals[q->start[cell]++] = sums | differences << 32;
        else
            q->start[cell + 1]++;
        return;
    }
    quarter_solutions(q, row + 1, rows, columns, sums, differences, listing);
    u32 free = ~columns & ((1u << h) - 1) & ~(u32)(sums >> row) & ~(u32)(differences >> (h - 1 - row));
    while (free) {
        u32 bit = free & (0u - free);
        free ^= bit;
        int column = lowest_bit(bit);
        quarter_solutions(q, row + 1, rows | (1u << row), columns | bit,
                          sums | (u64)1 << (row + column),
                          differences | (u64)1 << (column - row + h - 1), listing);
    }
}

/* Every partial solution of an h x h quarter, by its rows and columns: 0, or -1 (no memory). */
static int list_quarters(Quarters *q) {
    size_t cells = (size_t)1 << (2 * q->h);
    q->start = calloc(cells + 1, sizeof(u32));
    if (q->start == NULL) return -1;
    quarter_solutions(q, 0, 0, 0, 0, 0, 0);
    for (size_t cell = 0; cell < cells; cell++) q->start[cell + 1] += q->start[cell];
    q->placements = q->start[cells];
    q->diagonals = malloc(q->placements * sizeof(u64));
    if (q->diagonals == NULL) return -1;
    quarter_solutions(q, 0, 0, 0, 0, 0, 1); /* moves each start to its end */
    memmove(q->start + 1, q->start, cells * sizeof(u32));
    q->start[0] = 0;
    return 0;
}

static u64 reversed_rows(u64 rows, int n) {
    u64 reversed = 0;
    for (int row = 0; row < n; row++)
        if (rows >> row & 1) reversed |= (u64)1 << (n - 1 - row);
    return reversed;
}

/* How many of R, its reverse and their complements (in the free rows) are distinct, where R is
   the smallest of them; 0 where it is not. */
static int mirror_weight(u64 rows, u64 free_rows, int n) {
    u64 images[4] = {rows, reversed_rows(rows, n), free_rows & ~rows, 0};
    images[3] = free_rows & ~images[1];
    int distinct = 0;
    for (int i = 0; i < 4; i++) {
        if (images[i] < rows) return 0;
        int seen = 0;
        for (int j = 0; j < i; j++) seen |= images[j] == images[i];
        distinct += !seen;
    }
    return distinct;
}

static Config middle_queens(int n, int column, int row) {
    int h = n / 2, m = h, far = n - h;
    Config c;
    memset(&c, 0, sizeof c);
    u64 all_rows = ((u64)1 << n) - 1;
    u32 half = (1u << h) - 1;
    c.left_columns = c.right_columns = half;
    c.free_rows = all_rows;
    if (n % 2 == 0) {
        c.left_rows = h;
        return c;
    }
    c.taken_sums = (u64)1 << (m + column) | (u64)1 << (row + m);
    c.taken_differences = (u64)1 << (column - m + n - 1) | (u64)1 << (m - row + n - 1);
    c.free_rows &= ~((u64)1 << m) & ~((u64)1 << row);
    if (column < m) c.left_columns &= ~(1u << column);
    if (column > m) c.right_columns &= ~(1u << (column - far));
    c.left_rows = bits_set(c.left_columns);
    return c;
}

/* The placements of the middle queens counted, and for each the sets R: 0, or -1 (memory). */
static int list_jobs(Quarters *q) {
    int n = q->n, m = n / 2, odd = n % 2;
    size_t capacity = 2 * (size_t)n * (size_t)n + 2;
    q->configs = malloc(capacity * sizeof(Config));
    if (q->configs == NULL) return -1;
    int weights[2 * MAX_N * MAX_N + 2];
    q->config_count = 0;
    if (!odd) {
        Config c = middle_queens(n, 0, 0);
        c.long_diagonals = q->symmetry;
        weights[q->config_count] = 1;
        q->configs[q->config_count++] = c;
    } else {
        weights[q->config_count] = 1; /* the centre */
        q->configs[q->config_count++] = middle_queens(n, m, m);
        for (int column = 0; column < n; column++)
            for (int row = 0; row < n; row++) {
                int dc = column - m, dr = row - m;
                if (dc == 0 || dr == 0 || dc == dr || dc == -dr) continue;
                if (q->symmetry && !(0 < dc && dc < dr)) continue;
                weights[q->config_count] = q->symmetry ? 8 : 1;
                q->configs[q->config_count++] = middle_queens(n, column, row);
            }
    }
    size_t jobs = 0, job_capacity = 1024;
    q->jobs = malloc(job_capacity * sizeof(Job));
    if (q->jobs == NULL) return -1;
    for (int index = 0; index < q->config_count; index++) {
        const Config *c = &q->configs[index];
        int mirrored = q->symmetry && (c->long_diagonals || (odd && index == 0));
        for (u64 rows = c->free_rows;; rows = (rows - 1) & c->free_rows) {
            if (bits_set(rows) == c->left_rows) {
                Job job = {(u32)rows, (u16)index, {0, 0, 0}};
                if (!mirrored) {
                    job.weight[0] = (u8)weights[index];
                } else if (c->long_diagonals) {
                    u64 reverse = reversed_rows(rows, n);
                    int top_bottom = reverse == rows ? 1 : 2;
                    if (reverse >= rows) {
                        job.weight[0] = (u8)mirror_weight(rows, c->free_rows, n);
                        job.weight[1] = (u8)(2 * top_bottom);
                        job.weight[2] = (u8)(4 * top_bottom);
                    }
                } else {
                    job.weight[0] = (u8)mirror_weight(rows, c->free_rows, n);
                }
                if (job.weight[0] || job.weight[1] || job.weight[2]) {
                    if (jobs == job_capacity) {
                        Job *more = realloc(q->jobs, 2 * job_capacity * sizeof(Job));
                        if (more == NULL) return -1;
                        q->jobs = more;
                        job_capacity *= 2;
                    }
                    q->jobs[jobs++] = job;
                }
            }
            if (rows == 0) break;
        }
    }
    q->job_count = jobs;
    return 0;
}

static void quarters_dealloc(PyObject *self) {
    Quarters *q = (Quarters *)self;
    free(q->start);
    free(q->diagonals);
    free(q->configs);
    free(q->jobs);
    free_object(self);
}

OBJECT_TYPE(quarters_spec, "nqueens.engines.join._join.Quarters", Quarters, quarters_dealloc,
            "The quarters' solutions and the jobs of one board: quarters() makes them.");

/* ---- A count ------------------------------------------------------------------------------- */

typedef struct {
    u64 *patterns;
    size_t length, capacity;
} Patterns;

/* A quarter's solutions placed on the board for one placement of the middle queens: those that
   clash with no middle queen (nor, where the long diagonals weigh, take the left part of one),
   each as a key to meet the other quarter of its half and the pattern it leaves. A set of rows
   and columns is laid out when a job first needs it (``laid[cell]`` is then the layout's
   number), in the place the quarters' list gives it. */
typedef struct {
    u32 *laid, *kept;
    u64 *keys, *patterns;
    u64 refuse_sums, refuse_differences;
    int top, left, bottom;
} Quadrant;

typedef struct {
    PyObject_HEAD
    Quarters *quarters;
    size_t next, end;
    int config;  /* whose quadrants are laid out (-1: none) */
    u32 layout;  /* the number of that layout, from 1 */
    int long_diagonals, bits, chunks;
    Quadrant quadrants[4]; /* top-left, bottom-left, top-right, bottom-right */
    u64 squeeze[8][256];   /* a pattern's bytes to the bits kept */
    Patterns left, right[3];
    Lanes *table;
    u64 *block_weights;
    size_t table_capacity, weights_capacity;
    u64 solutions, halves, pairs;
    int busy, failed;
} Counter;

static int reserve(Patterns *p, size_t more) {
    if (p->length + more <= p->capacity) return 0;
    size_t capacity = p->capacity ? p->capacity : 4096;
    while (capacity < p->length + more) capacity *= 2;
    u64 *grown = realloc(p->patterns, capacity * sizeof(u64));
    if (grown == NULL) return -1;
    p->patterns = grown;
    p->capacity = capacity;
    return 0;
}

/* The diagonals crossing from one half into the other: sums and differences h' .. h' + 2h - 2
   (h' = N - h), as 2(2h - 1) bits. */
static u64 crossing(int n, u64 sums, u64 differences) {
    int h = n / 2, length = 2 * h - 1, shift = n - h;
    u64 mask = ((u64)1 << length) - 1;
    return ((sums >> shift) & mask) | ((differences >> shift) & mask) << length;
}

static u64 squeezed(const Counter *c, u64 raw) {
    u64 out = 0;
    for (int byte = 0; byte < 8 && raw; byte++, raw >>= 8) out |= c->squeeze[byte][raw & 255];
    return out;
}

/* The quadrants for placement ``index`` of the middle queens, each set of rows and columns to
   be laid out as a job needs it: 0, or -1 (no memory). */
static int lay_out(Counter *c, int index) {
    const Quarters *q = c->quarters;
    const Config *config = &q->configs[index];
    int n = q->n, h = q->h, far = n - h;
    size_t cells = (size_t)1 << (2 * h);
    u64 long_diagonal = config->long_diagonals ? (u64)1 << (n - 1) : 0;
    /* bits no pair can share: the middle queens' diagonals, and the long diagonals where no
       left half takes them */
    u64 keep = ((u64)1 << (2 * (2 * h - 1))) - 1;
    keep &= ~crossing(n, config->taken_sums | long_diagonal,
                      config->taken_differences | long_diagonal);
    c->bits = bits_set(keep);
    c->chunks = (c->bits + CHUNK_BITS - 1) / CHUNK_BITS;
    if (c->chunks == 0) c->chunks = 1;
    for (int byte = 0; byte < 8; byte++) {
        int below = bits_set(keep & (((u64)1 << (8 * byte)) - 1));
        for (int value = 0; value < 256; value++) {
            u64 out = 0;
            int at = below;
            for (int bit = 0; bit < 8; bit++) {
                if (!(keep >> (8 * byte + bit) & 1)) continue;
                if (value >> bit & 1) out |= (u64)1 << at;
                at++;
            }
            c->squeeze[byte][value] = out;
        }
    }
    for (int which = 0; which < 4; which++) {
        Quadrant *quadrant = &c->quadrants[which];
        if (quadrant->laid == NULL) {
            quadrant->laid = calloc(cells, sizeof(u32));
            quadrant->kept = malloc(cells * sizeof(u32));
            quadrant->keys = malloc((q->placements + 1) * sizeof(u64));
            quadrant->patterns = malloc((q->placements + 1) * sizeof(u64));
            if (!quadrant->laid || !quadrant->kept || !quadrant->keys || !quadrant->patterns)
                return -1;
        }
        int right_half = which >> 1;
        quadrant->bottom = which & 1;
        quadrant->top = quadrant->bottom ? far : 0;
        quadrant->left = right_half ? far : 0;
        quadrant->refuse_sums = config->taken_sums;
        quadrant->refuse_differences = config->taken_differences;
        if (!right_half) { /* the left part of the long diagonals r = c and r + c = N - 1 */
            if (quadrant->bottom)
                quadrant->refuse_sums |= long_diagonal;
            else
                quadrant->refuse_differences |= long_diagonal;
        }
    }
    c->long_diagonals = config->long_diagonals;
    c->config = index;
    c->layout++;
    return 0;
}

/* The solutions of quarter ``cell`` (rows << h | columns) placed in ``quadrant``, laid out for
   the current layout: where they start, and how many it keeps into *kept. */
static u32 laid_out(Counter *c, Quadrant *quadrant, size_t cell, u32 *kept) {
    const Quarters *q = c->quarters;
    u32 first = q->start[cell];
    if (quadrant->laid[cell] == c->layout) {
        *kept = quadrant->kept[cell];
        return first;
    }
    int n = q->n, h = q->h, far = n - h;
    u32 count = 0;
    for (u32 i = first; i < q->start[cell + 1]; i++) {
        u64 own_sums = q->diagonals[i] & 0xffffffffu, own_differences = q->diagonals[i] >> 32;
        u64 sums = own_sums << (quadrant->top + quadrant->left);
        u64 differences = own_differences << (quadrant->left - quadrant->top + n - h);
        if ((sums & quadrant->refuse_sums) | (differences & quadrant->refuse_differences)) continue;
        /* a top and a bottom quarter of one half meet where these keys do */
        quadrant->keys[first + count] = quadrant->bottom
                                            ? own_sums << far | own_differences << 32
                                            : own_sums | own_differences << far << 32;
        u64 pattern = squeezed(c, crossing(n, sums, differences));
        u64 on_long = ((sums >> (n - 1)) & 1) | ((differences >> (n - 1)) & 1) << 1;
        if (c->long_diagonals) pattern |= on_long << CLASS_SHIFT;
        quadrant->patterns[first + count++] = pattern;
    }
    quadrant->laid[cell] = c->layout;
    quadrant->kept[cell] = count;
    *kept = count;
    return first;
}

/* Every half on ``rows`` (board rows) and ``columns`` (the half's own bits), from its top and
   bottom quadrants; left halves into c->left, right ones into c->right by their long-diagonal
   queens. 0, or -1 (no memory). */
CLONED static int halves(Counter *c, u64 rows, u32 columns, int right_half) {
    const Quarters *q = c->quarters;
    int n = q->n, h = q->h;
    u32 half = (1u << h) - 1;
    u32 top_rows = (u32)rows & half, bottom_rows = (u32)(rows >> (n - h)) & half;
    int top_count = bits_set(top_rows);
    Quadrant *top = &c->quadrants[right_half ? 2 : 0], *bottom = &c->quadrants[right_half ? 3 : 1];
    for (u32 top_columns = columns;; top_columns = (top_columns - 1) & columns) {
        if (bits_set(top_columns) == top_count) {
            u32 bottom_columns = columns & ~top_columns;
            size_t a = ((size_t)top_rows << h) | top_columns;
            size_t b = ((size_t)bottom_rows << h) | bottom_columns;
            u32 many, top_kept;
            u32 first = laid_out(c, bottom, b, &many);
            if (many) {
                u32 top_first = laid_out(c, top, a, &top_kept);
                for (u32 i = top_first; i < top_first + top_kept; i++) {
                    u64 key = top->keys[i], pattern = top->patterns[i];
                    const u64 *keys = bottom->keys + first, *patterns = bottom->patterns + first;
                    if (!right_half) {
                        if (reserve(&c->left, many) < 0) return -1;
                        u64 *out = c->left.patterns + c->left.length;
                        size_t kept = 0;
                        for (size_t j = 0; j < many; j++) {
                            out[kept] = pattern | patterns[j];
                            kept += !(key & keys[j]);
                        }
                        c->left.length += kept;
                        c->halves += kept;
                    } else {
                        for (int k = 0; k < 3; k++)
                            if (reserve(&c->right[k], many) < 0) return -1;
                        for (size_t j = 0; j < many; j++) {
                            if (key & keys[j]) continue;
                            u64 joined = pattern | patterns[j];
                            Patterns *into = &c->right[bits_set(joined >> CLASS_SHIFT)];
                            into->patterns[into->length++] = joined & PATTERN_MASK;
                            c->halves++;
                        }
                    }
                }
            }
        }
        if (top_columns == 0) break;
    }
    return 0;
}

/* The 64 x 64 bit matrices of each lane turned: bit r of word b becomes bit b of word r. */
static void transpose(Lanes *words) {
    u64 mask = 0x00000000FFFFFFFFull;
    for (int j = 32; j != 0; j >>= 1, mask ^= mask << j) {
        for (int k = 0; k < 64; k = (k + j + 1) & ~j) {
            Lanes t = LANE_AND_WORD(LANE_XOR(LANE_SHIFT_RIGHT(words[k], j), words[k + j]), mask);
            words[k + j] = LANE_XOR(words[k + j], t);
            words[k] = LANE_XOR(words[k], LANE_SHIFT_LEFT(t, j));
        }
    }
}

#define ROW(blocks, chunk, value) ((((size_t)(chunk) * VALUES + (value)) * (blocks)))

/* The bit-sliced table of ``sides`` (one weight each) as c->table: 0, or -1 (no memory). */
CLONED static int slice(Counter *c, Patterns *const *sides, const u64 *weights, int count,
                 size_t *blocks_out) {
    size_t blocks = 0;
    for (int s = 0; s < count; s++) blocks += (sides[s]->length + BLOCK - 1) / BLOCK;
    size_t need = blocks * (size_t)c->chunks * VALUES;
    if (need > c->table_capacity) {
        free(c->table);
        size_t bytes = 2 * need * sizeof(Lanes);
        c->table = aligned_alloc(sizeof(Lanes), bytes);
        if (c->table == NULL) {
            c->table_capacity = 0;
            return -1;
        }
        c->table_capacity = 2 * need;
    }
    if (blocks > c->weights_capacity) {
        u64 *grown = realloc(c->block_weights, 2 * blocks * sizeof(u64));
        if (grown == NULL) return -1;
        c->block_weights = grown;
        c->weights_capacity = 2 * blocks;
    }
    size_t block = 0;
    for (int s = 0; s < count; s++) {
        const Patterns *side = sides[s];
        for (size_t first = 0; first < side->length; first += BLOCK, block++) {
            Lanes words[64];
            for (int r = 0; r < 64; r++)
                for (int l = 0; l < LANES; l++) {
                    size_t i = first + 64 * (size_t)l + (size_t)r;
                    LANE(words[r], l) = i < side->length ? side->patterns[i] : 0;
                }
            transpose(words); /* words[b]: which patterns have bit b */
            c->block_weights[block] = weights[s];
            for (int chunk = 0; chunk < c->chunks; chunk++) {
                Lanes all;
                for (int l = 0; l < LANES; l++) {
                    size_t at = first + 64 * (size_t)l, left = side->length > at ? side->length - at : 0;
                    u64 present = left >= 64 ? ~(u64)0 : ((u64)1 << left) - 1;
                    LANE(all, l) = chunk == 0 ? present : ~(u64)0;
                }
                c->table[ROW(blocks, chunk, 0) + block] = all;
                for (int value = 1; value < VALUES; value++) {
                    int bit = CHUNK_BITS * chunk + lowest_bit((u64)value);
                    Lanes prior = c->table[ROW(blocks, chunk, value & (value - 1)) + block];
                    c->table[ROW(blocks, chunk, value) + block] =
                        bit < c->bits ? LANE_AND(prior, LANE_NOT(words[bit])) : prior;
                }
            }
        }
    }
    *blocks_out = blocks;
    return 0;
}

/* The weighed number of sliced patterns that share no bit with ``pattern``. */
CLONED static u64 matches(const Counter *c, size_t blocks, u64 pattern) {
    const Lanes *rows[MAX_CHUNKS];
    int count = 0;
    for (int chunk = 0; chunk < c->chunks; chunk++) {
        int value = (int)(pattern >> (CHUNK_BITS * chunk)) & (VALUES - 1);
        if (value || chunk == 0) rows[count++] = c->table + ROW(blocks, chunk, value);
    }
    u64 total = 0;
    for (size_t block = 0; block < blocks; block++) {
        Lanes left = rows[0][block];
        for (int r = 1; r < count; r++) left = LANE_AND(left, rows[r][block]);
        u64 found = 0;
        for (int l = 0; l < LANES; l++) found += (u64)bits_set(LANE(left, l));
        total += found * c->block_weights[block];
    }
    return total;
}

/* One job joined: its weighed number of solutions, into c->solutions. 0, or -1 (memory). */
static int join(Counter *c, const Job *job) {
    const Quarters *q = c->quarters;
    const Config *config = &q->configs[job->config];
    if (c->config != job->config && lay_out(c, job->config) < 0) return -1;
    c->left.length = c->right[0].length = c->right[1].length = c->right[2].length = 0;
    if (halves(c, job->rows, config->left_columns, 0) < 0) return -1;
    if (c->left.length == 0) return 0;
    if (halves(c, config->free_rows & ~(u64)job->rows, config->right_columns, 1) < 0) return -1;
    Patterns *right[3];
    u64 weights[3];
    int sides = 0;
    size_t right_length = 0;
    for (int k = 0; k < 3; k++)
        if (job->weight[k] && c->right[k].length) {
            right[sides] = &c->right[k];
            weights[sides++] = job->weight[k];
            right_length += c->right[k].length;
        }
    if (sides == 0) return 0;
    size_t blocks;
    u64 found = 0;
    if (right_length >= c->left.length) { /* slice the larger side, look up the other's */
        if (slice(c, right, weights, sides, &blocks) < 0) return -1;
        for (size_t i = 0; i < c->left.length; i++) found += matches(c, blocks, c->left.patterns[i]);
        c->pairs += (u64)c->left.length * blocks * BLOCK;
    } else {
        Patterns *left[1] = {&c->left};
        u64 one[1] = {1};
        if (slice(c, left, one, 1, &blocks) < 0) return -1;
        for (int s = 0; s < sides; s++) {
            u64 part = 0;
            for (size_t i = 0; i < right[s]->length; i++)
                part += matches(c, blocks, right[s]->patterns[i]);
            found += part * weights[s];
            c->pairs += (u64)right[s]->length * blocks * BLOCK;
        }
    }
    c->solutions += found;
    return 0;
}

static void counter_dealloc(PyObject *self) {
    Counter *c = (Counter *)self;
    for (int which = 0; which < 4; which++) {
        free(c->quadrants[which].laid);
        free(c->quadrants[which].kept);
        free(c->quadrants[which].keys);
        free(c->quadrants[which].patterns);
    }
    free(c->left.patterns);
    for (int k = 0; k < 3; k++) free(c->right[k].patterns);
    free(c->table);
    free(c->block_weights);
    Py_XDECREF(c->quarters);
    free_object(self);
}

OBJECT_TYPE(counter_spec, "nqueens.engines.join._join.Counter", Counter, counter_dealloc,
            "A count of jobs under way: start() makes it, count() runs it.");

/* ---- The module ---------------------------------------------------------------------------- */

enum { QUARTERS_TYPE, COUNTER_TYPE }; /* the module's types, numbered as specs lists them */

static PyObject *join_quarters(PyObject *module, PyObject *args) {
    int n, symmetry;
    if (!PyArg_ParseTuple(args, "ip", &n, &symmetry)) return NULL;
    if (n < 1 || n > MAX_N) return PyErr_Format(PyExc_ValueError, "n must be 1 to %d, not %d", MAX_N, n);
    Quarters *q = PyObject_New(Quarters, module_type(module, QUARTERS_TYPE));
    if (q == NULL) return NULL;
    memset((char *)q + sizeof(PyObject), 0, sizeof(Quarters) - sizeof(PyObject));
    q->n = n;
    q->h = n / 2;
    q->symmetry = symmetry;
    int failed;
    Py_BEGIN_ALLOW_THREADS
    failed = list_quarters(q) < 0 || list_jobs(q) < 0;
    Py_END_ALLOW_THREADS
    if (failed) {
        Py_DECREF(q);
        return PyErr_NoMemory();
    }
    return (PyObject *)q;
}

static PyObject *join_jobs(PyObject *module, PyObject *args) {
    Quarters *q;
    if (!PyArg_ParseTuple(args, "O!", module_type(module, QUARTERS_TYPE), &q)) return NULL;
    return PyLong_FromSize_t(q->job_count);
}

static PyObject *join_placements(PyObject *module, PyObject *args) {
    Quarters *q;
    if (!PyArg_ParseTuple(args, "O!", module_type(module, QUARTERS_TYPE), &q)) return NULL;
    return PyLong_FromSize_t(q->placements);
}

static PyObject *join_start(PyObject *module, PyObject *args) {
    Quarters *q;
    Py_ssize_t start, end;
    if (!PyArg_ParseTuple(args, "O!nn", module_type(module, QUARTERS_TYPE), &q, &start, &end)) return NULL;
    if (start < 0 || end > (Py_ssize_t)q->job_count || start > end)
        return PyErr_Format(PyExc_IndexError, "jobs %zd to %zd of %zu", start, end, q->job_count);
    Counter *c = PyObject_New(Counter, module_type(module, COUNTER_TYPE));
    if (c == NULL) return NULL;
    memset((char *)c + sizeof(PyObject), 0, sizeof(Counter) - sizeof(PyObject));
    Py_INCREF(q);
    c->quarters = q;
    c->next = (size_t)start;
    c->end = (size_t)end;
    c->config = -1;
    return (PyObject *)c;
}

static PyObject *join_restart(PyObject *module, PyObject *args) {
    Counter *c;
    Py_ssize_t start, end;
    if (!PyArg_ParseTuple(args, "O!nn", module_type(module, COUNTER_TYPE), &c, &start, &end)) return NULL;
    if (c->busy) return PyErr_Format(PyExc_RuntimeError, "another thread runs this count");
    if (start < 0 || end > (Py_ssize_t)c->quarters->job_count || start > end)
        return PyErr_Format(PyExc_IndexError, "jobs %zd to %zd of %zu", start, end,
                            c->quarters->job_count);
    c->next = (size_t)start;
    c->end = (size_t)end;
    c->solutions = c->halves = c->pairs = 0;
    Py_RETURN_NONE;
}

static PyObject *join_board(PyObject *module, PyObject *args) {
    Counter *c;
    if (!PyArg_ParseTuple(args, "O!", module_type(module, COUNTER_TYPE), &c)) return NULL;
    return Py_NewRef((PyObject *)c->quarters);
}

static PyObject *join_count(PyObject *module, PyObject *args) {
    Counter *c;
    PyObject *budget_given;
    if (!PyArg_ParseTuple(args, "O!O!", module_type(module, COUNTER_TYPE), &c, &PyLong_Type, &budget_given))
        return NULL;
    u64 budget = PyLong_AsUnsignedLongLong(budget_given);
    if (budget == (u64)-1 && PyErr_Occurred()) return NULL;
    if (c->busy) return PyErr_Format(PyExc_RuntimeError, "another thread runs this count");
    if (c->failed) return PyErr_NoMemory();
    const Quarters *q = c->quarters;
    u64 before = c->halves + c->pairs / BLOCK;
    int failed = 0;
    c->busy = 1;
    Py_BEGIN_ALLOW_THREADS
    if (q->n == 1) { /* one queen, no quarters */
        if (c->next < c->end) c->solutions = 1;
        c->next = c->end;
    }
    /* a job at least, so that every call makes progress */
    for (int first = 1; c->next < c->end && (first || c->halves + c->pairs / BLOCK - before < budget);
         first = 0) {
        if (join(c, &q->jobs[c->next]) < 0) {
            failed = 1;
            break;
        }
        c->next++;
    }
    Py_END_ALLOW_THREADS
    c->busy = 0;
    if (failed) {
        c->failed = 1;
        return PyErr_NoMemory();
    }
    return Py_BuildValue("KKKO", c->solutions, c->halves, c->pairs,
                         c->next >= c->end ? Py_True : Py_False);
}

static PyMethodDef methods[] = {
    {"quarters", join_quarters, METH_VARARGS,
     "quarters(n, symmetry) -> the solutions of every quarter of an n x n board, and its jobs "
     "(with symmetry: one for each set of its images)."},
    {"jobs", join_jobs, METH_VARARGS, "jobs(quarters) -> how many jobs a count of it joins."},
    {"placements", join_placements, METH_VARARGS,
     "placements(quarters) -> how many quarter solutions it lists."},
    {"start", join_start, METH_VARARGS,
     "start(quarters, start, end) -> a count of jobs start to end - 1."},
    {"restart", join_restart, METH_VARARGS,
     "restart(counter, start, end) -> None: the counter counts jobs start to end - 1 from\n"
     "nothing, keeping the quadrants it laid out."},
    {"board", join_board, METH_VARARGS, "board(counter) -> the quarters it counts."},
    {"count", join_count, METH_VARARGS,
     "count(counter, budget) -> (solutions, halves, pairs, over)\n\n"
     "Go on with the count for about budget units of work (a half board, or 256 pairs compared),\n"
     "a job at a time."},
    {NULL, NULL, 0, NULL},
};

static PyType_Spec *const specs[] = {&quarters_spec, &counter_spec, NULL};

static const IntConstant constants[] = {
    {"MAX_N", MAX_N},
    {NULL, 0},
};

NQUEENS_MODULE(_join, "The join engine's counter of plain boards, in C.",
               methods, specs, constants,
               Py_MOD_PER_INTERPRETER_GIL_SUPPORTED)
