"""Atomicity specifications (Hatcliff, Robby and Dwyer, after Flanagan and Qadeer) checked on the explorer."""

from .check import COLUMNS, AtomicityResult, BlockReport, check_atomicity

__all__ = ["check_atomicity", "AtomicityResult", "BlockReport", "COLUMNS"]
