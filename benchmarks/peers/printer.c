/* A reference for listing: every solution of the N-queens problem, as the 1-based row of the
   queen in each column, one line per solution, in lexicographic order, written through a large
   buffer. Bitmask backtracking (as Jeff Somers's counter), no symmetry: the least work a program
   can do to print every solution. Used only to measure nqueens's listing against plain C.
   Usage: printer N > file */
#include <stdio.h>
#include <stdlib.h>

typedef unsigned long long u64;
static int n;
static u64 full;
static int rows[64];
static char buffer[1 << 20];
static size_t used;

static void emit(void) {
    if (used + 4 * 64 > sizeof buffer) {
        fwrite(buffer, 1, used, stdout);
        used = 0;
    }
    for (int c = 0; c < n; c++) {
        int value = rows[c] + 1;
        if (c) buffer[used++] = ' ';
        if (value >= 10) buffer[used++] = (char)('0' + value / 10);
        buffer[used++] = (char)('0' + value % 10);
    }
    buffer[used++] = '\n';
}

static void place(int col, u64 taken, u64 left, u64 right) {
    if (col == n) {
        emit();
        return;
    }
    u64 free = full & ~(taken | left | right);
    while (free) {
        u64 bit = free & (~free + 1);
        free ^= bit;
        rows[col] = __builtin_ctzll(bit);
        place(col + 1, taken | bit, (left | bit) << 1, (right | bit) >> 1);
    }
}

int main(int argc, char **argv) {
    n = argc > 1 ? atoi(argv[1]) : 8;
    if (n < 1 || n > 63) return 2;
    full = (1ULL << n) - 1;
    place(0, 0, 0, 0);
    fwrite(buffer, 1, used, stdout);
    return 0;
}
