/* What the C modules of nqueens share: the integer types they count in, the marks that keep a
   hot function inlined or pick a faster copy of it where the processor has one, and the bit
   operations of a search on bitmasks, each with a portable fallback for compilers without
   GCC's builtins. Included by every module; no module defines these itself. */
#ifndef NQUEENS_SEARCHES_H
#define NQUEENS_SEARCHES_H

#include <stdint.h>

typedef uint64_t u64;
typedef int32_t i32;

#if defined(__GNUC__) || defined(__clang__)
#define NQ_GNU 1
#else
#define NQ_GNU 0
#endif

/* A function the compiler must inline: the loops that take rules as constants are copied
   once for each combination, so the plain search pays nothing for the others. */
#if NQ_GNU
#define ALWAYS_INLINE static inline __attribute__((always_inline))
#else
#define ALWAYS_INLINE static inline
#endif

/* On x86-64, a second copy of a hot function for processors with BMI2 and POPCNT (2013 on),
   chosen when the module loads; elsewhere one copy. No flag ties a build to the processor it
   was built on. */
#if defined(__x86_64__) && defined(__has_attribute)
#if __has_attribute(target_clones)
#define CLONED __attribute__((target_clones("arch=x86-64-v3", "default")))
#define CLONES 1
#endif
#endif
#ifndef CLONED
#define CLONED
#define CLONES 0
#endif

/* The number of bits set in ``word``. */
ALWAYS_INLINE int bits_set(u64 word) {
#if NQ_GNU
    return __builtin_popcountll(word);
#else
    int count = 0;
    for (; word; word &= word - 1) count++;
    return count;
#endif
}

/* The index of the lowest bit set in ``word``, which is not 0. */
ALWAYS_INLINE int lowest_bit(u64 word) {
#if NQ_GNU
    return __builtin_ctzll(word);
#else
    int index = 0;
    while (!((word >> index) & 1)) index++;
    return index;
#endif
}

/* ``*into = a * b``, or the largest u64 where that overflows: an estimate saturates. */
ALWAYS_INLINE void multiply_saturated(u64 a, u64 b, u64 *into) {
#if NQ_GNU
    if (__builtin_mul_overflow(a, b, into)) *into = ~(u64)0;
#else
    *into = a != 0 && b > ~(u64)0 / a ? ~(u64)0 : a * b;
#endif
}

/* ``*into += a``, or the largest u64 where that overflows. */
ALWAYS_INLINE void add_saturated(u64 a, u64 *into) {
    *into = *into > ~(u64)0 - a ? ~(u64)0 : *into + a;
}

#endif
