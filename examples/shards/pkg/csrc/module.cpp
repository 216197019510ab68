// The Python module wgshards._C: empty. Importing it loads the library, whose static
// initializers register the operator of ops.cpp.
#include <Python.h>

static struct PyModuleDef module = { PyModuleDef_HEAD_INIT, "_C", "wheelgen's shards example: torch.ops.wgshards", -1, nullptr, nullptr, nullptr, nullptr, nullptr };

PyMODINIT_FUNC PyInit__C(void)
{
	return PyModule_Create(&module);
}
