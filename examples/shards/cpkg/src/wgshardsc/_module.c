/* The module wgshardsc._C: total(n) = part1(n) + ... + part8(n) = 36 * n, each part compiled
   apart (in a sharded build, possibly on another runner). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

long part1(long n);
long part2(long n);
long part3(long n);
long part4(long n);
long part5(long n);
long part6(long n);
long part7(long n);
long part8(long n);

static PyObject *total(PyObject *self, PyObject *args)
{
	long n;

	(void)self;
	if (!PyArg_ParseTuple(args, "l", &n))
		return NULL;
	return PyLong_FromLong(part1(n) + part2(n) + part3(n) + part4(n) + part5(n) + part6(n) + part7(n) + part8(n));
}

static PyMethodDef methods[] = {
	{ "total", total, METH_VARARGS, "part1(n) + ... + part8(n): 36 * n" },
	{ NULL, NULL, 0, NULL },
};

static struct PyModuleDef module = { PyModuleDef_HEAD_INIT, "_C", NULL, -1, methods, NULL, NULL, NULL, NULL };

PyMODINIT_FUNC PyInit__C(void)
{
	return PyModule_Create(&module);
}
