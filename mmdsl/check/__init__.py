"""Whole-program checks on the explorer: assertion violations, deadlocks, loops past their bound."""

from .verdict import Blocked, CheckResult, check_program

__all__ = ["check_program", "CheckResult", "Blocked"]
