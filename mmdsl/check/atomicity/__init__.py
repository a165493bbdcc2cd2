"""Atomicity specifications (Hatcliff, Robby and Dwyer, after Flanagan and Qadeer) checked on the explorer."""

from .check import check_atomicity
from .report import COLUMNS, AtomicityResult, BlockReport

__all__ = ["check_atomicity", "AtomicityResult", "BlockReport", "COLUMNS"]
