"""The axiomatic checker: candidate enumeration with pruning, axiom evaluation, explanations."""

from .checker import check

__all__ = ["check"]
