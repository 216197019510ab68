/* wgfamily._kernels: built_for() (pyver.cu's PY_VERSION) and a GPU self-test of the kernels */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

const char *wgf_py_version(void);
int wgf_count(void);
int wgf_scale(float *x, float k, int n);
int wgf_shift(float *x, float k, int n);

static PyObject *
built_for(PyObject *self, PyObject *args)
{
	(void)self;
	(void)args;
	return PyUnicode_FromString(wgf_py_version());
}

/* the three kernels on the GPU: True, or RuntimeError */
static PyObject *
gpu_selftest(PyObject *self, PyObject *args)
{
	float x[64];
	int i, e, n;

	(void)self;
	(void)args;
	for (i = 0; i < 64; i++)
		x[i] = (float)i;
	if ((e = wgf_scale(x, 2.0f, 64)) != 0 || (e = wgf_shift(x, 1.0f, 64)) != 0)
		return PyErr_Format(PyExc_RuntimeError, "CUDA error %d", e);
	for (i = 0; i < 64; i++) {
		if (x[i] != 2.0f * (float)i + 1.0f)
			return PyErr_Format(PyExc_RuntimeError, "wrong result at %d", i);
	}
	if ((n = wgf_count()) != 128)
		return PyErr_Format(PyExc_RuntimeError, "count kernel: %d", n);
	Py_RETURN_TRUE;
}

static PyMethodDef methods[] = {
	{ "built_for", built_for, METH_NOARGS, "the PY_VERSION pyver.cu was compiled against" },
	{ "gpu_selftest", gpu_selftest, METH_NOARGS, "run the kernels on the GPU" },
	{ NULL, NULL, 0, NULL },
};

static struct PyModuleDef module = { PyModuleDef_HEAD_INIT, "_kernels", NULL, -1, methods, NULL, NULL, NULL, NULL };

PyMODINIT_FUNC
PyInit__kernels(void)
{
	return PyModule_Create(&module);
}
