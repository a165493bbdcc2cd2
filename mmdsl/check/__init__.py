"""Whole-program checks on the explorer: assertion violations, deadlocks, loops past their bound."""

from .result import Blocked, CheckResult
from .verdict import check_program

__all__ = ["check_program", "CheckResult", "Blocked"]
