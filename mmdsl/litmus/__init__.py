"""The litmus front end: herd's .litmus layout, one pyparsing grammar per dialect, lowered to the core."""

from .loader import load_litmus, parse_litmus
from .registry import dialect_for, supported_archs

__all__ = ["load_litmus", "parse_litmus", "dialect_for", "supported_archs"]
