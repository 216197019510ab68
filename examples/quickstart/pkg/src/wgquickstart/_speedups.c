/*
 * wgquickstart._speedups: the C extension of the wheelgen quickstart example.
 *
 * Uses only API that exists unchanged in every CPython from 3.6 on
 * (single-phase init, PyArg_ParseTuple, PyLong/PyUnicode constructors).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#define WGQ_VERSION "0.1.0"

/* fib(93) is the largest Fibonacci number that fits in 64 unsigned bits. */
#define WGQ_FIB_MAX 93

static PyObject *
wgq_fib(PyObject *self, PyObject *args)
{
    long n;
    unsigned long long a = 0, b = 1, t;
    long i;

    (void)self;
    if (!PyArg_ParseTuple(args, "l:fib", &n))
        return NULL;
    if (n < 0) {
        PyErr_SetString(PyExc_ValueError, "fib() argument must be >= 0");
        return NULL;
    }
    if (n > WGQ_FIB_MAX) {
        PyErr_Format(PyExc_OverflowError,
                     "fib() argument must be <= %d", WGQ_FIB_MAX);
        return NULL;
    }
    for (i = 0; i < n; i++) {
        t = a + b;
        a = b;
        b = t;
    }
    return PyLong_FromUnsignedLongLong(a);
}

static PyObject *
wgq_version(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    return PyUnicode_FromString(WGQ_VERSION);
}

static PyMethodDef wgq_methods[] = {
    {"fib", wgq_fib, METH_VARARGS,
     "fib(n) -> int\n\nReturn the n-th Fibonacci number (0 <= n <= 93)."},
    {"version", wgq_version, METH_NOARGS,
     "version() -> str\n\nReturn the version the extension was built as."},
    {NULL, NULL, 0, NULL}
};

static struct PyModuleDef wgq_module = {
    PyModuleDef_HEAD_INIT,
    "wgquickstart._speedups",
    "C helpers of the wheelgen quickstart example.",
    -1,
    wgq_methods,
    NULL, NULL, NULL, NULL
};

PyMODINIT_FUNC
PyInit__speedups(void)
{
    return PyModule_Create(&wgq_module);
}
