"""The suite tests' helper modules (suitefiles, gen_manifests) live next to them; make them importable
under pytest's importlib import mode."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)
