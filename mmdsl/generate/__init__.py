"""Test generation: diy-style critical cycles of edges, written as litmus tests, and tests that tell two models apart."""

from .api import (Generated, distinguishing, generate_cycles, generate_from_models, generate_from_words,
                  write_suite)
from .cycles import Bounds, enumerate_cycles
from .edges import Edge, parse_cycle, parse_edge_list

__all__ = ["Bounds", "Edge", "Generated", "distinguishing", "enumerate_cycles", "generate_cycles",
           "generate_from_models", "generate_from_words",
           "parse_cycle", "parse_edge_list", "write_suite"]
