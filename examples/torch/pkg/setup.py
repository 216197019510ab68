# A tiny torch CUDA extension: operators registered with the torch dispatcher (ops.cpp, a CPU
# path), a kernel (scale.cu) and an empty Python module (module.cpp, the only file that includes
# Python.h), compiled by torch.utils.cpp_extension with the cell's nvcc.
from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

setup(
    name="wgtorch",
    version="0.1.0",
    description="wheelgen's torch CUDA extension fixture",
    packages=["wgtorch"],
    ext_modules=[
        CUDAExtension(
            "wgtorch._C",
            ["csrc/module.cpp", "csrc/ops.cpp", "csrc/scale.cu"],
            extra_compile_args={"cxx": ["-O2"], "nvcc": ["-O2"]},
        )
    ],
    cmdclass={"build_ext": BuildExtension},
)
