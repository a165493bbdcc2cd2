"""mmdsl: a workbench for memory consistency models."""

__version__ = "0.1.0"
