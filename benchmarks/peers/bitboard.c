/* A reference counter for one core: bitmask backtracking with the left-right mirror symmetry, as
   Jeff Somers's counter does. Used only to measure nqueens's counting against plain C.
   Usage: bitboard N */
#include <stdio.h>
#include <stdlib.h>
typedef unsigned long long u64;
static u64 full;
static u64 rec(u64 cols, u64 l, u64 r) {
    if (cols == full) return 1;
    u64 c = 0, avail = full & ~(cols | l | r);
    while (avail) { u64 b = avail & -avail; avail ^= b; c += rec(cols | b, (l | b) << 1, (r | b) >> 1); }
    return c;
}
int main(int argc, char **argv) {
    int n = atoi(argv[1]); full = (1ULL << n) - 1; u64 total = 0;
    if (n == 1) { puts("1"); return 0; }
    for (int i = 0; i < n / 2; i++) { u64 b = 1ULL << i; total += 2 * rec(b, b << 1, b >> 1); }
    if (n & 1) { u64 b = 1ULL << (n / 2); total += rec(b, b << 1, b >> 1); }
    printf("%llu\n", total); return 0;
}
