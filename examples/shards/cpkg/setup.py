# A C extension of nine translation units (wheelgen's CPU shards fixture): part1.c ... part8.c
# each define one function, _module.c gathers them into the module wgshardsc._C.
from setuptools import Extension, setup

setup(
    name="wgshardsc",
    version="0.1.0",
    description="wheelgen's shards fixture: a C extension of nine translation units",
    license="MIT",
    python_requires=">=3.8",
    package_dir={"": "src"},
    packages=["wgshardsc"],
    ext_modules=[
        Extension(
            "wgshardsc._C",
            ["src/wgshardsc/_module.c"] + ["src/wgshardsc/part%d.c" % i for i in range(1, 9)],
        )
    ],
    zip_safe=False,
)
