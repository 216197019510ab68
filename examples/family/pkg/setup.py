"""wgfamily: wheelgen's family fixture (examples/family/packages.yml).

Three .cu files compiled by nvcc, each with the Python's include directory on its command line
as torch's cpp_extension passes it to every compile: scale.cu and shift.cu do not include
Python.h, so their objects are the same for every Python; pyver.cu does, so its object is not.
The architectures come from TORCH_CUDA_ARCH_LIST ("9.0"); the CUDA runtime is linked statically.
"""
import os
import shutil
import subprocess
import sysconfig

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


def cuda_home():
    home = os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH")
    if not home:
        nvcc = shutil.which("nvcc")
        home = os.path.dirname(os.path.dirname(nvcc)) if nvcc else "/usr/local/cuda"
    return home


def gencode_flags():
    flags = []
    for arch in (os.environ.get("TORCH_CUDA_ARCH_LIST") or "9.0").replace(" ", ";").split(";"):
        if arch:
            num = arch.replace("+PTX", "").replace(".", "")
            flags += ["-gencode", "arch=compute_%s,code=sm_%s" % (num, num)]
    return flags


class BuildCuda(build_ext):
    def build_extension(self, ext):
        home = cuda_home()
        nvcc = (os.environ.get("NVCC") or os.path.join(home, "bin", "nvcc")).split()
        objects = []
        os.makedirs(self.build_temp, exist_ok=True)
        for src in [s for s in ext.sources if s.endswith(".cu")]:
            obj = os.path.join(self.build_temp, os.path.basename(src) + ".o")
            cmd = nvcc + ["-c", src, "-o", obj, "-O2", "-Xcompiler", "-fPIC", "-std=c++17",
                          "-I" + sysconfig.get_paths()["include"]] + gencode_flags()
            print(" ".join(cmd), flush=True)
            subprocess.check_call(cmd)
            objects.append(obj)
        ext.sources = [s for s in ext.sources if not s.endswith(".cu")]
        ext.extra_objects = objects + list(ext.extra_objects or [])
        ext.library_dirs = list(ext.library_dirs or []) + [os.path.join(home, "lib64"), os.path.join(home, "lib")]
        ext.libraries = list(ext.libraries or []) + ["cudart_static", "rt", "pthread", "dl", "stdc++"]
        build_ext.build_extension(self, ext)


setup(
    name="wgfamily",
    version="0.1.0",
    description="CUDA kernels, one of which includes Python.h (wheelgen's family fixture)",
    package_dir={"": "src"},
    packages=["wgfamily"],
    ext_modules=[Extension("wgfamily._kernels", ["src/wgfamily/_module.c", "src/wgfamily/scale.cu",
                                                  "src/wgfamily/shift.cu", "src/wgfamily/pyver.cu"])],
    cmdclass={"build_ext": BuildCuda},
)
