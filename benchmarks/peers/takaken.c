/* Takaken's N-queens counter: bitmask backtracking with all 8 symmetries of the square, in C.
   The same search as nqueens's bitboard engine (same rules, same tree), so that
   benchmarks/counting.py can compare the per-core speed of the two side by side.
   Usage: takaken N   (prints the total, a space, and the number of unique solutions) */
#include <stdio.h>
#include <stdlib.h>

typedef unsigned long long u64;
static int size, last, bound1, bound2;
static u64 mask, topbit, endbit, sidemask, lastmask, board[64];
static u64 count2, count4, count8;

/* Rotations that bring another edge queen to row 0's column are compared whole. */
static void check(void) {
    u64 *own, *you, bit, ptn;
    if (board[bound2] == 1) { /* quarter turn */
        for (ptn = 2, own = board + 1; own <= board + last; own++, ptn <<= 1) {
            bit = 1;
            for (you = board + last; *you != ptn && *own >= bit; you--) bit <<= 1;
            if (*own > bit) return;
            if (*own < bit) break;
        }
        if (own > board + last) { count2++; return; }
    }
    if (board[last] == endbit) { /* half turn */
        for (you = board + last - 1, own = board + 1; own <= board + last; own++, you--) {
            bit = 1;
            for (ptn = topbit; ptn != *you && *own >= bit; ptn >>= 1) bit <<= 1;
            if (*own > bit) return;
            if (*own < bit) break;
        }
        if (own > board + last) { count4++; return; }
    }
    if (board[bound1] == topbit) { /* three quarters */
        for (ptn = topbit >> 1, own = board + 1; own <= board + last; own++, ptn >>= 1) {
            bit = 1;
            for (you = board; *you != ptn && *own >= bit; you++) bit <<= 1;
            if (*own > bit) return;
            if (*own < bit) break;
        }
    }
    count8++;
}

/* The first queen inside the row: every edge queen at least bound1 squares from a corner. */
static void inside(int y, u64 left, u64 down, u64 right) {
    u64 bitmap = mask & ~(left | down | right), bit;
    if (y == last) {
        if (bitmap && !(bitmap & lastmask)) { board[y] = bitmap; check(); }
        return;
    }
    if (y < bound1) bitmap &= ~sidemask;
    else if (y == bound2) {
        if (!(down & sidemask)) return;
        if ((down & sidemask) != sidemask) bitmap &= sidemask;
    }
    while (bitmap) {
        bitmap ^= board[y] = bit = bitmap & -bitmap;
        inside(y + 1, (left | bit) << 1, down | bit, (right | bit) >> 1);
    }
}

/* The first queen in the corner: every such class has 8 members. */
static void corner(int y, u64 left, u64 down, u64 right) {
    u64 bitmap = mask & ~(left | down | right), bit;
    if (y == last) {
        if (bitmap) { board[y] = bitmap; count8++; }
        return;
    }
    if (y < bound1) bitmap &= ~(u64)2;
    while (bitmap) {
        bitmap ^= board[y] = bit = bitmap & -bitmap;
        corner(y + 1, (left | bit) << 1, down | bit, (right | bit) >> 1);
    }
}

int main(int argc, char **argv) {
    u64 bit;
    if (argc != 2 || (size = atoi(argv[1])) < 4 || size > 63) {
        fprintf(stderr, "usage: takaken N (4 <= N <= 63)\n");
        return 2;
    }
    last = size - 1;
    topbit = 1ULL << last;
    mask = (1ULL << size) - 1;
    board[0] = 1;
    for (bound1 = 2; bound1 < last; bound1++) {
        board[1] = bit = 1ULL << bound1;
        corner(2, (2 | bit) << 1, 1 | bit, bit >> 1);
    }
    sidemask = lastmask = topbit | 1;
    endbit = topbit >> 1;
    for (bound1 = 1, bound2 = size - 2; bound1 < bound2; bound1++, bound2--) {
        board[0] = bit = 1ULL << bound1;
        inside(1, bit << 1, bit, bit >> 1);
        lastmask |= lastmask >> 1 | lastmask << 1;
        endbit >>= 1;
    }
    printf("%llu %llu\n", count8 * 8 + count4 * 4 + count2 * 2, count8 + count4 + count2);
    return 0;
}
