// wgcmake._kernels: runtime_version(), cublas_version() and axpy(a, x, y) over Python's C API
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <vector>

extern "C" int wg_runtime_version(void);
extern "C" int wg_cublas_version(void);
extern "C" int wg_axpy_host(int n, float a, const float *x, float *y);

static PyObject *runtime_version(PyObject *, PyObject *)
{
	return PyLong_FromLong(wg_runtime_version());
}

static PyObject *cublas_version(PyObject *, PyObject *)
{
	return PyLong_FromLong(wg_cublas_version());
}

static PyObject *axpy(PyObject *, PyObject *args)
{
	float a;
	PyObject *xs, *ys;
	if (!PyArg_ParseTuple(args, "fOO", &a, &xs, &ys))
		return nullptr;
	Py_ssize_t n = PySequence_Size(xs);
	if (n < 0 || PySequence_Size(ys) != n) {
		PyErr_SetString(PyExc_ValueError, "x and y must be sequences of one length");
		return nullptr;
	}
	std::vector<float> x(n), y(n);
	for (Py_ssize_t i = 0; i < n; i++) {
		PyObject *xi = PySequence_GetItem(xs, i), *yi = PySequence_GetItem(ys, i);
		x[i] = xi ? (float)PyFloat_AsDouble(xi) : 0.0f;
		y[i] = yi ? (float)PyFloat_AsDouble(yi) : 0.0f;
		Py_XDECREF(xi);
		Py_XDECREF(yi);
	}
	if (PyErr_Occurred())
		return nullptr;
	int rc = wg_axpy_host((int)n, a, x.data(), y.data());
	if (rc != 0)
		return PyErr_Format(PyExc_RuntimeError, "CUDA error %d", rc);
	PyObject *out = PyList_New(n);
	for (Py_ssize_t i = 0; out && i < n; i++)
		PyList_SET_ITEM(out, i, PyFloat_FromDouble(y[i]));
	return out;
}

static PyMethodDef methods[] = {
	{"runtime_version", runtime_version, METH_NOARGS, "the CUDA runtime's version (no GPU needed)"},
	{"cublas_version", cublas_version, METH_NOARGS, "cuBLAS's version, 1000 * major + 10 * minor (no GPU needed)"},
	{"axpy", axpy, METH_VARARGS, "a * x + y on the GPU"},
	{nullptr, nullptr, 0, nullptr},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_kernels", nullptr, -1, methods};

PyMODINIT_FUNC PyInit__kernels(void)
{
	return PyModule_Create(&module);
}
