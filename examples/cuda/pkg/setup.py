"""wgcuda: a real CUDA extension compiled by nvcc, no torch.

nvcc comes from $CUDA_HOME/bin (wheelgen sets it per cell); the architectures from
TORCH_CUDA_ARCH_LIST ("8.0;9.0", "9.0a", "12.0+PTX"). The CUDA runtime is linked
statically, so the wheel imports on a machine with no CUDA toolkit and no GPU.
"""
import os
import shutil
import subprocess

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

# Absolute include paths, as flash-attn, xformers and the rest build them
# (os.path.dirname(os.path.abspath(__file__))): the compile cache must still hit when
# the tree sits somewhere else for the next cell.
HERE = os.path.dirname(os.path.abspath(__file__))
INCLUDE = os.path.join(HERE, "src", "wgcuda")


def cuda_home():
    home = os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH")
    if not home:
        nvcc = shutil.which("nvcc")
        home = os.path.dirname(os.path.dirname(nvcc)) if nvcc else "/usr/local/cuda"
    return home


def gencode_flags():
    flags = []
    for arch in (os.environ.get("TORCH_CUDA_ARCH_LIST") or "8.0").replace(" ", ";").split(";"):
        if not arch:
            continue
        ptx = arch.endswith("+PTX")
        num = arch.replace("+PTX", "").replace(".", "")
        flags += ["-gencode", "arch=compute_%s,code=sm_%s" % (num, num)]
        if ptx:
            flags += ["-gencode", "arch=compute_%s,code=compute_%s" % (num, num)]
    return flags


class BuildCuda(build_ext):
    def build_extension(self, ext):
        home = cuda_home()
        # NVCC may name a launcher too ("ccache /usr/local/cuda/bin/nvcc"), as wheelgen sets it
        nvcc = (os.environ.get("NVCC") or os.path.join(home, "bin", "nvcc")).split()
        objects = []
        for src in [s for s in ext.sources if s.endswith(".cu")]:
            obj = os.path.join(self.build_temp, os.path.basename(src) + ".o")
            os.makedirs(self.build_temp, exist_ok=True)
            cmd = nvcc + ["-c", src, "-o", obj, "-O2", "-Xcompiler", "-fPIC", "-std=c++17", "-I" + INCLUDE] + gencode_flags()
            threads = os.environ.get("NVCC_THREADS")
            if threads:
                cmd += ["--threads", threads]
            print(" ".join(cmd), flush=True)
            subprocess.check_call(cmd)
            objects.append(obj)
        ext.sources = [s for s in ext.sources if not s.endswith(".cu")]
        ext.extra_objects = objects + list(ext.extra_objects or [])
        ext.include_dirs = list(ext.include_dirs or []) + [os.path.join(home, "include")]
        ext.library_dirs = list(ext.library_dirs or []) + [os.path.join(home, "lib64"), os.path.join(home, "lib")]
        ext.libraries = list(ext.libraries or []) + ["cudart_static", "rt", "pthread", "dl", "stdc++"]
        build_ext.build_extension(self, ext)


setup(
    name="wgcuda",
    version="0.1.0",
    description="A CUDA extension compiled by nvcc (wheelgen's CUDA fixture)",
    package_dir={"": "src"},
    packages=["wgcuda"],
    ext_modules=[Extension("wgcuda._kernels", ["src/wgcuda/_module.c", "src/wgcuda/kernels.cu"])],
    cmdclass={"build_ext": BuildCuda},
)
