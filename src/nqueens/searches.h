/* What the C modules of nqueens share: the integer types they count in, the marks that keep a
   hot function inlined or pick a faster copy of it where the processor has one, and the bit
   operations of a search on bitmasks, each with a portable fallback for compilers without
   GCC's builtins; and, after Python.h, a module's definition and its types of object. Included
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

/* A hot function that begins on a 64-byte line, so that where its loops fall in the processor's
   fetch blocks does not move with the code compiled before it: the edge search ran a few
   percent slower when its entry moved by 32 bytes. */
#if NQ_GNU
#define LINE_ALIGNED __attribute__((aligned(64)))
#else
#define LINE_ALIGNED
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

/* The square's 8 symmetries. Each sends the square (line, row) of an n x n board (a line is a
   column, where a search places its queens in turn) to: the two swapped where `swap`, then the
   line mirrored (m - line, m = n - 1) where `mirror_line`, the row where `mirror_row`.
   nqueens.core.symmetry.SYMMETRIES holds the same table in the same order (a test holds them
   equal): 0 keeps, 1-3 turn by quarters, 4-7 reflect. */
typedef struct {
    unsigned char swap, mirror_line, mirror_row;
} Symmetry;

static const Symmetry SYMMETRIES[8] = {
    {0, 0, 0}, /* identity */
    {1, 0, 1}, /* quarter turn: (row, m - line) */
    {0, 1, 1}, /* half turn */
    {1, 1, 0}, /* three-quarter turn: (m - row, line) */
    {0, 1, 0}, /* mirror left-right */
    {0, 0, 1}, /* mirror top-bottom */
    {1, 0, 0}, /* transpose */
    {1, 1, 1}, /* anti-transpose */
};

enum { QUARTER_TURN = 1, HALF_TURN = 2, THREE_QUARTER_TURN = 3 };

/* Where symmetry `which` sends the square (line, row). */
ALWAYS_INLINE void symmetry_moves(int n, int which, int line, int row, int *to_line, int *to_row) {
    Symmetry s = SYMMETRIES[which];
    int m = n - 1, first = s.swap ? row : line, second = s.swap ? line : row;
    *to_line = s.mirror_line ? m - first : first;
    *to_row = s.mirror_row ? m - second : second;
}

/* The row of the queen on `line` of a solution's image under symmetry `which`, the solution
   given by the row on each line (`rows`) and the line of each row (`lines`). */
ALWAYS_INLINE int symmetry_row_at(int n, int which, int line, const unsigned char *rows,
                                  const unsigned char *lines) {
    Symmetry s = SYMMETRIES[which];
    int m = n - 1, at = s.mirror_line ? m - line : line;
    int value = s.swap ? lines[at] : rows[at];
    return s.mirror_row ? m - value : value;
}

#ifdef Py_PYTHON_H
/* A module's types of object (a search, a count, an attempt; the join's quarters and its
   counter), initialised in two phases: each type is made as the module is executed and kept in
   the module's state, so that every interpreter's module has its own. A module's types are
   numbered from 0 in the order of its SPECS (NQUEENS_MODULE); most have one. */
#define MOST_TYPES 2

typedef struct {
    PyTypeObject *types[MOST_TYPES];
} ModuleTypes;

/* The module's type numbered `which`. */
static inline PyTypeObject *module_type(PyObject *module, int which) {
    return ((ModuleTypes *)PyModule_GetState(module))->types[which];
}

static inline int types_traverse(PyObject *module, visitproc visit, void *arg) {
    for (int which = 0; which < MOST_TYPES; which++) Py_VISIT(module_type(module, which));
    return 0;
}

static inline int types_clear(PyObject *module) {
    ModuleTypes *state = PyModule_GetState(module);
    for (int which = 0; which < MOST_TYPES; which++) Py_CLEAR(state->types[which]);
    return 0;
}

/* A whole number a module offers Python as a constant. */
typedef struct {
    const char *name;
    long value;
} IntConstant;

/* A module's execution: its types made from ``specs`` (numbered from 0 in their order, up to a
   NULL), each added under its name, and its ``constants`` (up to one named NULL): 0, or -1 with
   an exception set. */
static inline int add_types_and_constants(PyObject *module, PyType_Spec *const specs[],
                                          const IntConstant constants[]) {
    ModuleTypes *state = PyModule_GetState(module);
    for (int which = 0; specs[which] != NULL; which++) {
        PyTypeObject *type = (PyTypeObject *)PyType_FromModuleAndSpec(module, specs[which], NULL);
        state->types[which] = type;
        if (type == NULL || PyModule_AddType(module, type) < 0) return -1;
    }
    for (; constants->name != NULL; constants++)
        if (PyModule_AddIntConstant(module, constants->name, constants->value) < 0) return -1;
    return 0;
}

/* The end of an object of a heap type that owns nothing outside itself (or has let it go). */
static inline void free_object(PyObject *self) {
    PyTypeObject *type = Py_TYPE(self);
    type->tp_free(self);
    Py_DECREF(type);
}

/* The spec ``SPEC`` of a type of object, for a module's SPECS: its dotted NAME, its struct
   TYPE, the function DEALLOC that lets an object go (free_object, after what the object owns)
   and its DOC. */
#define OBJECT_TYPE(SPEC, NAME, TYPE, DEALLOC, DOC)                                              \
    static PyType_Slot SPEC##_slots[] = {                                                        \
        {Py_tp_dealloc, (void *)(DEALLOC)},                                                      \
        {Py_tp_doc, DOC},                                                                        \
        {0, NULL},                                                                               \
    };                                                                                           \
    static PyType_Spec SPEC = {NAME, sizeof(TYPE), 0, Py_TPFLAGS_DEFAULT, SPEC##_slots}

#ifdef Py_mod_multiple_interpreters
#define INTERPRETERS_SLOT(WHICH) {Py_mod_multiple_interpreters, WHICH},
#else
#define INTERPRETERS_SLOT(WHICH) /* before Python 3.12, every interpreter shares the GIL */
#endif

/* The module NAME and its PyInit function: initialised in two phases, its state its types
   (made from SPECS, a NULL-ended array of at most MOST_TYPES), with its METHODS, its CONSTANTS
   (IntConstant, a NULL name last) and its DOC, and what it allows of interpreters
   (INTERPRETERS, one of Python's Py_MOD_*INTERPRETER* values from 3.12 on). */
#define NQUEENS_MODULE(NAME, DOC, METHODS, SPECS, CONSTANTS, INTERPRETERS)                        \
    _Static_assert(sizeof(SPECS) / sizeof((SPECS)[0]) <= MOST_TYPES + 1, "too many types");      \
    static int NAME##_exec(PyObject *module) {                                                   \
        return add_types_and_constants(module, SPECS, CONSTANTS);                                \
    }                                                                                            \
    static PyModuleDef_Slot NAME##_slots[] = {                                                   \
        {Py_mod_exec, (void *)NAME##_exec},                                                      \
        INTERPRETERS_SLOT(INTERPRETERS){0, NULL},                                                \
    };                                                                                           \
    static struct PyModuleDef NAME##_definition = {                                              \
        PyModuleDef_HEAD_INIT, #NAME, DOC, sizeof(ModuleTypes), METHODS, NAME##_slots,           \
        types_traverse, types_clear, NULL,                                                       \
    };                                                                                           \
    PyMODINIT_FUNC PyInit_##NAME(void) { return PyModuleDef_Init(&NAME##_definition); }
#endif

#endif
