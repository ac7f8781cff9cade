/* Solutions as text, many at a time, both ways: what `solve` writes off a terminal (numbered
   compact rows, plain boards, JSON records), written from a buffer of rows (one byte a column) in
   one pass, so that listing keeps up with the output; and the plainest of those lines read back
   and checked, so that `verify` keeps up with `solve`.

   The text written is byte for byte what the one-solution-at-a-time writers write (the compact
   and board text of nqueens.core.pictures, the JSON records of nqueens.formats.records), and the
   lines read are only those the reader of nqueens.formats.read_back reads the same
   way; the tests compare both with them. Beside them, clauses as DIMACS writes them, for
   `nqueens export --to dimacs`. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#include "searches.h"

enum { COMPACT = 1, BOARD = 2, JSON = 3 };

static char *number(char *at, unsigned long long value) {
    char digits[24];
    int count = 0;
    do {
        digits[count++] = (char)('0' + value % 10);
        value /= 10;
    } while (value);
    while (count) *at++ = digits[--count];
    return at;
}

static Py_ssize_t longest(int form, int n, Py_ssize_t prefix) {
    switch (form) {
    /* rows are at most 256 (three digits): a column takes 4 bytes in compact rows ("256 "),
       5 in JSON ("255, "), and a number of 20 digits heads a board or a record */
    case COMPACT: return 32 + 4 * (Py_ssize_t)n;
    case BOARD: return 32 + 2 * (Py_ssize_t)n * n;
    default: return prefix + 48 + 5 * (Py_ssize_t)n;
    }
}

static PyObject *text_solutions(PyObject *Py_UNUSED(self), PyObject *args) {
    Py_buffer rows, prefix;
    int n, form;
    Py_ssize_t count;
    unsigned long long first;
    if (!PyArg_ParseTuple(args, "y*iniy*K", &rows, &n, &count, &form, &prefix, &first))
        return NULL;
    PyObject *text = NULL;
    if (n < 1 || n > 256 || count < 0 || count > rows.len / n || form < COMPACT || form > JSON) {
        PyErr_SetString(PyExc_ValueError, "rows, n, count and form do not agree");
        goto done;
    }
    Py_ssize_t each = longest(form, n, prefix.len);
    if (count && each > PY_SSIZE_T_MAX / count) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t size = count * each;
    text = PyBytes_FromStringAndSize(NULL, size);
    if (text == NULL) goto done;
    char *start = PyBytes_AS_STRING(text), *at = start;
    const unsigned char *board = rows.buf;
    int off_the_board = 0;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t at_row = 0; at_row < count * n; at_row++) off_the_board |= board[at_row] >= n;
    for (Py_ssize_t index = 0; index < count && !off_the_board; index++, board += n) {
        unsigned long long solution = first + (unsigned long long)index;
        if (form == JSON) {
            memcpy(at, prefix.buf, prefix.len);
            at += prefix.len;
            memcpy(at, "\"solution\": ", 12);
            at = number(at + 12, solution);
            memcpy(at, ", \"rows\": [", 11);
            at += 11;
            for (int c = 0; c < n; c++) {
                if (c) {
                    *at++ = ',';
                    *at++ = ' ';
                }
                at = number(at, board[c]);
            }
            memcpy(at, "]}\n", 3);
            at += 3;
            continue;
        }
        if (form == COMPACT) { /* one line a board, for other programs: no heading */
            for (int c = 0; c < n; c++) {
                if (c) *at++ = ' ';
                at = number(at, (unsigned long long)board[c] + 1);
            }
            *at++ = '\n';
            continue;
        }
        memcpy(at, "Solution ", 9);
        at = number(at + 9, solution);
        *at++ = '\n';
        for (int row = 0; row < n; row++) {
            for (int c = 0; c < n; c++) {
                *at++ = board[c] == row ? 'Q' : '_';
                *at++ = c + 1 < n ? ' ' : '\n';
            }
        }
        *at++ = '\n';
    }
    Py_END_ALLOW_THREADS
    if (off_the_board) {
        PyErr_SetString(PyExc_ValueError, "a row is off the board: rows are 0 to n - 1");
        Py_CLEAR(text);
    } else if (_PyBytes_Resize(&text, at - start) < 0) {
        text = NULL;
    }
done:
    PyBuffer_Release(&rows);
    PyBuffer_Release(&prefix);
    return text;
}


#define MAX_CHECKED 255

/* Whether the queens `rows[0..n)` (rows from 0) are a solution: one a row and a diagonal. */
static int valid(const int *rows, int n) {
    unsigned char row[MAX_CHECKED], up[2 * MAX_CHECKED], down[2 * MAX_CHECKED];
    memset(row, 0, n);
    memset(up, 0, 2 * n);
    memset(down, 0, 2 * n);
    for (int c = 0; c < n; c++) {
        int r = rows[c];
        if (row[r] || up[r + c] || down[r - c + n - 1]) return 0;
        row[r] = up[r + c] = down[r - c + n - 1] = 1;
    }
    return 1;
}

/* The whole number at `*at` (digits only, at most 9 of them), or -1. */
static long whole(const char **at, const char *end) {
    const char *p = *at;
    long value = 0;
    int digits = 0;
    while (p < end && *p >= '0' && *p <= '9' && digits < 10) {
        value = value * 10 + (*p++ - '0');
        digits++;
    }
    if (!digits || digits > 9 || (digits > 1 && **at == '0')) return -1;
    *at = p;
    return value;
}

static int literal(const char **at, const char *end, const char *text) {
    size_t length = strlen(text);
    if ((size_t)(end - *at) < length || memcmp(*at, text, length)) return 0;
    *at += length;
    return 1;
}

/* One line of `[start, end)` (its line end left out): 1 a valid board, 0 a separator (a blank
   line, a heading), -1 a line to leave to the reader of one line at a time. */
static int line_read(const char *start, const char *end) {
    int rows[MAX_CHECKED];
    const char *at = start;
    if (at == end) return 0;
    if (literal(&at, end, "Solution ")) return whole(&at, end) >= 0 && at == end ? 0 : -1;
    if (*at == '{') { /* {"type": "solution", "n": N, "solution": K, "rows": [r, ...]} */
        long n, row;
        if (!literal(&at, end, "{\"type\": \"solution\", \"n\": ")) return -1;
        if ((n = whole(&at, end)) < 1 || n > MAX_CHECKED) return -1;
        if (!literal(&at, end, ", \"solution\": ") || whole(&at, end) < 0) return -1;
        if (!literal(&at, end, ", \"rows\": [")) return -1;
        for (long c = 0; c < n; c++) {
            if (c && !literal(&at, end, ", ")) return -1;
            if ((row = whole(&at, end)) < 0 || row >= n) return -1;
            rows[c] = (int)row;
        }
        if (!literal(&at, end, "]}") || at != end) return -1;
        return valid(rows, (int)n) ? 1 : -1;
    }
    int n = 0; /* compact: 1-based rows between single spaces */
    while (at < end) {
        if (n && !literal(&at, end, " ")) return -1;
        long row = whole(&at, end);
        if (row < 1 || n == MAX_CHECKED) return -1;
        rows[n++] = (int)row - 1;
    }
    int identity = 1; /* "1 2 ... N" may head a board drawn with labels */
    for (int c = 0; c < n; c++) {
        if (rows[c] >= n) return -1;
        identity &= rows[c] == c;
    }
    return !identity && valid(rows, n) ? 1 : -1;
}

static PyObject *text_check(PyObject *Py_UNUSED(self), PyObject *args) {
    Py_buffer text;
    if (!PyArg_ParseTuple(args, "y*", &text)) return NULL;
    const char *at = text.buf, *end = at + text.len;
    Py_ssize_t lines = 0, boards = 0;
    Py_BEGIN_ALLOW_THREADS
    while (at < end) {
        const char *stop = memchr(at, '\n', end - at);
        if (stop == NULL) break; /* a line whose end is still to come */
        int found = line_read(at, stop);
        if (found < 0) break;
        boards += found;
        lines++;
        at = stop + 1;
    }
    Py_END_ALLOW_THREADS
    Py_ssize_t used = at - (const char *)text.buf;
    PyBuffer_Release(&text);
    return Py_BuildValue("nnn", lines, boards, used);
}

static PyObject *text_clauses(PyObject *Py_UNUSED(self), PyObject *args) {
    Py_buffer literals;
    if (!PyArg_ParseTuple(args, "y*", &literals)) return NULL;
    PyObject *text = NULL;
    Py_ssize_t count = literals.len / (Py_ssize_t)sizeof(int);
    if (literals.len % (Py_ssize_t)sizeof(int)) {
        PyErr_SetString(PyExc_ValueError, "literals must be whole C ints");
        goto done;
    }
    text = PyBytes_FromStringAndSize(NULL, count * 12);
    if (text == NULL) goto done;
    char *start = PyBytes_AS_STRING(text), *at = start;
    const char *literal = literals.buf;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t index = 0; index < count; index++) {
        int value; /* copied: the caller's buffer may be of any alignment */
        memcpy(&value, literal + index * (Py_ssize_t)sizeof(int), sizeof(int));
        if (value == 0) {
            *at++ = '0';
            *at++ = '\n';
            continue;
        }
        if (value < 0) *at++ = '-';
        at = number(at, value < 0 ? -(unsigned long long)(long long)value : (unsigned long long)value);
        *at++ = ' ';
    }
    Py_END_ALLOW_THREADS
    if (_PyBytes_Resize(&text, at - start) < 0) text = NULL;
done:
    PyBuffer_Release(&literals);
    return text;
}

static PyMethodDef methods[] = {
    {"solutions", text_solutions, METH_VARARGS,
     "solutions(rows, n, count, form, prefix, first) -> bytes\n"
     "`count` solutions of `rows` (n bytes each) as `solve` writes them off a terminal, numbered\n"
     "from `first`: COMPACT rows or plain BOARDs under a heading, or JSON records, each\n"
     "beginning with `prefix` (the record's fields before its number)."},
    {"check", text_check, METH_VARARGS,
     "check(text) -> (lines, boards, used)\n"
     "Read the whole lines of `text` as far as each is a blank line, a `Solution K` heading or a\n"
     "board that is a solution, written as compact rows or as a plain JSON record: how many lines\n"
     "were read, how many boards among them, and their bytes. The first other line is left."},
    {"clauses", text_clauses, METH_VARARGS,
     "clauses(literals) -> bytes\n"
     "DIMACS clauses: `literals` (C ints) as numbers between spaces, each 0 ending a line."},
    {NULL, NULL, 0, NULL},
};

static PyType_Spec *const specs[] = {NULL};

static const IntConstant constants[] = {
    {"COMPACT", COMPACT},
    {"BOARD", BOARD},
    {"JSON", JSON},
    {NULL, 0},
};

NQUEENS_MODULE(_text, "Solutions as text, many at a time.",
               methods, specs, constants,
               Py_MOD_MULTIPLE_INTERPRETERS_SUPPORTED)
