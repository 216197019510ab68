# A torch CUDA extension of ten translation units, built by torch.utils.cpp_extension: eight
# kernels (csrc/add1.cu ... add8.cu, plain CUDA), the operator (ops.cpp) and an empty module
# (module.cpp). wheelgen splits their compile into the parts packages.yml's shards: asks for.
from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

setup(
    name="wgshards",
    version="0.1.0",
    description="wheelgen's shards example: a torch CUDA extension of ten translation units",
    packages=["wgshards"],
    ext_modules=[
        CUDAExtension(
            "wgshards._C",
            ["csrc/module.cpp", "csrc/ops.cpp"] + ["csrc/add%d.cu" % i for i in range(1, 9)],
            extra_compile_args={"cxx": ["-O2"], "nvcc": ["-O2"]},
        )
    ],
    cmdclass={"build_ext": BuildExtension},
)
