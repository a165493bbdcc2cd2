"""The model language: grammar, metamodel, semantic checks, lowering to the core IR, evaluation."""

from .ir import Model
from .library import bundled_model_paths, load_model

__all__ = ["Model", "load_model", "bundled_model_paths"]
