# Metadata lives here (not in [project]) so that the old setuptools that
# pip picks for CPython 3.6 can still build this package.
from setuptools import Extension, find_packages, setup

setup(
    name="wgquickstart",
    version="0.1.0",
    description="wheelgen quickstart example: a tiny package with a C extension",
    license="MIT",
    python_requires=">=3.6",
    package_dir={"": "src"},
    packages=find_packages("src"),
    ext_modules=[
        Extension("wgquickstart._speedups", ["src/wgquickstart/_speedups.c"]),
    ],
    zip_safe=False,
)
