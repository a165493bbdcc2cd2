"""`load_model_text`: a model given as text (the web page's editor), errors named after its label,
includes confined to bundled models by name."""

from __future__ import annotations

from pathlib import Path

import pytest

from mmdsl.core.errors import ModelError
from mmdsl.lang import load_model
from mmdsl.lang.library import load_model_text

REPO = Path(__file__).resolve().parents[2]


def test_a_bundled_models_text_loads_as_the_model():
    text = (REPO / "models" / "tso.mm").read_text()
    typed = load_model_text(text, "tso.mm")
    bundled = load_model("tso")
    assert typed.name == bundled.name and typed.title == bundled.title
    assert [a.name for a in typed.axioms] == [a.name for a in bundled.axioms]


def test_errors_are_located_in_the_label():
    with pytest.raises(ModelError) as caught:
        load_model_text("model x\nreorder {\n  R W\n R - -\n W Y oops\n}\n", "mine.mm")
    assert (caught.value.pos.file, caught.value.pos.line, caught.value.pos.col) == ("mine.mm", 5, 6)


def test_includes_name_bundled_models_only():
    assert load_model_text('model x\ninclude "tso"\n').name == "x"
    assert load_model_text('model x\ninclude "tso.mm"\n').name == "x"
    for target in ("/etc/passwd", "../models/tso", str(REPO / "models" / "tso.mm"), "tso/../sc", "x.cat", ""):
        with pytest.raises(ModelError) as caught:
            load_model_text(f'model x\ninclude "{target}"\n')
        assert caught.value.pos.line == 2 and "not found" in caught.value.message
