/* wgcuda._kernels: the Python face of kernels.cu */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>

int wg_runtime_version(void);
int wg_device_count(void);
int wg_add(const float *a, const float *b, float *c, int n);
int wg_dtype_selftest(int dtype, int n);

static PyObject *
runtime_version(PyObject *self, PyObject *args)
{
	(void)self;
	(void)args;
	return PyLong_FromLong(wg_runtime_version());
}

static PyObject *
device_count(PyObject *self, PyObject *args)
{
	(void)self;
	(void)args;
	return PyLong_FromLong(wg_device_count());
}

/* add(list a, list b) -> list, computed by the kernel */
static PyObject *
add(PyObject *self, PyObject *args)
{
	PyObject *la, *lb, *out = NULL;
	Py_ssize_t n, i;
	float *a, *b, *c;
	int e;

	(void)self;
	if (!PyArg_ParseTuple(args, "O!O!", &PyList_Type, &la, &PyList_Type, &lb))
		return NULL;
	n = PyList_Size(la);
	if (n != PyList_Size(lb) || n > 1 << 24) {
		PyErr_SetString(PyExc_ValueError, "lists of equal length (at most 2**24) expected");
		return NULL;
	}
	a = malloc((size_t)(n + 1) * sizeof(float));
	b = malloc((size_t)(n + 1) * sizeof(float));
	c = malloc((size_t)(n + 1) * sizeof(float));
	if (!a || !b || !c) {
		PyErr_NoMemory();
		goto done;
	}
	for (i = 0; i < n; i++) {
		a[i] = (float)PyFloat_AsDouble(PyList_GetItem(la, i));
		b[i] = (float)PyFloat_AsDouble(PyList_GetItem(lb, i));
	}
	if (PyErr_Occurred())
		goto done;
	if ((e = wg_add(a, b, c, (int)n)) != 0) {
		PyErr_Format(PyExc_RuntimeError, "CUDA error %d", e);
		goto done;
	}
	out = PyList_New(n);
	for (i = 0; out && i < n; i++)
		PyList_SetItem(out, i, PyFloat_FromDouble(c[i]));
done:
	free(a);
	free(b);
	free(c);
	return out;
}

/* dtype_selftest(dtype, n) -> 0, a CUDA error code, or -1 for a wrong result */
static PyObject *
dtype_selftest(PyObject *self, PyObject *args)
{
	int dtype, n;

	(void)self;
	if (!PyArg_ParseTuple(args, "ii", &dtype, &n))
		return NULL;
	if (dtype < 0 || dtype > 2 || n < 1 || n > 1 << 24) {
		PyErr_SetString(PyExc_ValueError, "dtype 0 (fp32), 1 (fp16) or 2 (bf16), and 1 <= n <= 2**24 expected");
		return NULL;
	}
	return PyLong_FromLong(wg_dtype_selftest(dtype, n));
}

static PyMethodDef methods[] = {
	{ "runtime_version", runtime_version, METH_NOARGS, "CUDA runtime version compiled in (e.g. 13000)" },
	{ "device_count", device_count, METH_NOARGS, "number of CUDA devices visible (0 without a GPU)" },
	{ "add", add, METH_VARARGS, "element-wise sum of two float lists, on the GPU" },
	{ "dtype_selftest", dtype_selftest, METH_VARARGS, "axpy and a sum of squares in fp32/fp16/bf16 on the GPU, checked" },
	{ NULL, NULL, 0, NULL },
};

static struct PyModuleDef module = { PyModuleDef_HEAD_INIT, "_kernels", NULL, -1, methods, NULL, NULL, NULL, NULL };

PyMODINIT_FUNC
PyInit__kernels(void)
{
	return PyModule_Create(&module);
}
