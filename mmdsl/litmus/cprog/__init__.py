"""Whole C programs (main, pthreads, <stdatomic.h>, assert) read through the system preprocessor and
pycparser, lowered to the core program: ``load_c_program(path, unroll=N)``."""

from .program import CProgram, load_c_program

__all__ = ["load_c_program", "CProgram"]
