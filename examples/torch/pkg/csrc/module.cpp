// The Python module wgtorch._C: empty. Importing it loads the library, whose static
// initializers register the operators of ops.cpp. This is the only file that includes
// Python.h, so it is the only one compiled anew for each Python.
#include <Python.h>

static struct PyModuleDef module = { PyModuleDef_HEAD_INIT, "_C", "wheelgen's torch fixture: operators in torch.ops.wgtorch", -1, nullptr, nullptr, nullptr, nullptr, nullptr };

PyMODINIT_FUNC PyInit__C(void)
{
	return PyModule_Create(&module);
}
