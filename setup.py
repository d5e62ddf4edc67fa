"""The compiled core: ``casino.engine._core``, an optional C extension built from src/ccore/.

Everything else about the package is in pyproject.toml. The extension is optional: where
no C compiler works, ``pip install`` still succeeds and the pure-Python engine answers
(``casino --version`` says which; docs/architecture.md, "The compiled core").
"""

from __future__ import annotations

from glob import glob

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

#: Flags for compilers that speak gcc's language (gcc, clang); others get none.
UNIX_FLAGS = ["-O2", "-std=c11"]


class BuildExt(build_ext):
    """build_ext that adds the gcc/clang flags when the compiler is gcc/clang-like, and the
    maths library the evaluation's normal distribution needs (erf, sqrt)."""

    def build_extensions(self) -> None:
        if self.compiler.compiler_type in ("unix", "mingw32", "cygwin"):
            for ext in self.extensions:
                ext.extra_compile_args = [*ext.extra_compile_args, *UNIX_FLAGS]
                ext.libraries = [*ext.libraries, "m"]
        super().build_extensions()


#: Every C source of the core: files added to src/ccore/ are built without listing them.
SOURCES = sorted(glob("src/ccore/*.c"))

setup(
    # No sources (a tree without src/ccore/), no extension: linking nothing would give an
    # empty module that cannot be imported.
    ext_modules=[
        Extension(
            "casino.engine._core",
            sources=SOURCES,
            include_dirs=["src/ccore"],
            depends=sorted(glob("src/ccore/*.h")),
            optional=True,
        ),
    ] if SOURCES else [],
    cmdclass={"build_ext": BuildExt},
)
