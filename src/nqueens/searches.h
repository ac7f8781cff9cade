/* What the C modules of nqueens share: the integer types they count in, the marks that keep a
   hot function inlined or pick a faster copy of it where the processor has one, and the bit
   operations of a search on bitmasks, each with a portable fallback for compilers without
   GCC's builtins; and, after Python.h, the state of a module of one type of object. Included
   by every module; no module defines these itself. */
#ifndef NQUEENS_SEARCHES_H
#define NQUEENS_SEARCHES_H

#include <stdint.h>

typedef uint64_t u64;
typedef int32_t i32;
typedef uint32_t u32;
typedef uint16_t u16;
typedef uint8_t u8;

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

#ifdef Py_PYTHON_H
/* A module of one type of object (a search, a count, an attempt), initialised in two phases:
   its type is made as the module is executed, and kept in the module's state, so that every
   interpreter's module has its own. */
typedef struct {
    PyTypeObject *type;
} OneType;

static inline PyTypeObject *type_of_module(PyObject *module) {
    return ((OneType *)PyModule_GetState(module))->type;
}

static inline int one_type_traverse(PyObject *module, visitproc visit, void *arg) {
    Py_VISIT(type_of_module(module));
    return 0;
}

static inline int one_type_clear(PyObject *module) {
    Py_CLEAR(((OneType *)PyModule_GetState(module))->type);
    return 0;
}

/* Make the module's type from ``spec`` and add it to the module as ``name``: 0, or -1 with
   an exception set. */
static inline int add_one_type(PyObject *module, PyType_Spec *spec, const char *name) {
    OneType *state = PyModule_GetState(module);
    state->type = (PyTypeObject *)PyType_FromModuleAndSpec(module, spec, NULL);
    if (state->type == NULL) return -1;
    return PyModule_AddObjectRef(module, name, (PyObject *)state->type);
}

/* The end of an object of a heap type that owns nothing outside itself (or has let it go). */
static inline void free_object(PyObject *self) {
    PyTypeObject *type = Py_TYPE(self);
    type->tp_free(self);
    Py_DECREF(type);
}
#endif

#endif
