"""Hostile `dependencies` blocks and programs that make the explorer guess a lot: clean errors, bounded runs."""

from __future__ import annotations


import pytest
from budget import cpu_budget

from mmdsl.axiomatic import check
from mmdsl.core.errors import ModelError
from mmdsl.explorer import explore
from mmdsl.lang import load_model
from mmdsl.lang.lower import lower_model_file
from mmdsl.litmus import parse_litmus

HEAD = "model m\nreorder {\n  R W\n R i di\n W Y d\n}\n"


def _load(tmp_path, text: str):
    path = tmp_path / "m.mm"
    path.write_text(text, encoding="utf-8")
    return lower_model_file(path)


def test_thousands_of_pairs_load_and_run(tmp_path):
    pairs = " | ".join(["R * M"] * 3000)
    model = _load(tmp_path, HEAD + f"dependencies {{ addr : {pairs}\n ctrl : R * W }}\n")
    assert len(model.dependencies[0].pairs) == 3000
    lb = parse_litmus("LISA LB\n{\n}\n P0 | P1 ;\n r[] r0 x | r[] r0 y ;\n w[] y 1 | w[] x 1 ;\n"
                      "exists (0:r0=1 /\\ 1:r0=1)\n")
    assert check(lb, model).verdict == "Allowed"


@pytest.mark.parametrize("name", ["ctrl ; ctrl", "deps", "addr-po", "x" * 5000])
def test_a_crafted_relation_name_is_a_located_error(tmp_path, name):
    with pytest.raises(ModelError) as err:
        _load(tmp_path, HEAD + f"dependencies {{\n {name} : R * W\n}}\n")
    assert err.value.pos.line == 8 and err.value.pos.col == 2
    assert "is not a dependency relation" in err.value.message
    assert len(err.value.message) < 500 + len(name)


@pytest.mark.parametrize("text", ["dependencies {", "dependencies { addr : }", "dependencies { : R * W }",
                                  "dependencies { addr : R * W | }", "dependencies { addr : R * W \u00e9 }",
                                  "dependencies { addr : R ; W }",
                                  "dependencies { addr;po;po : R * W }"])
def test_broken_blocks_are_located_syntax_errors(tmp_path, text):
    with pytest.raises(ModelError) as err:
        _load(tmp_path, HEAD + text + "\n")
    assert err.value.pos is not None and err.value.pos.line >= 7


def test_many_locations_to_guess_an_address_from_stay_bounded():
    """Under rmo an access after an address-dependent one goes on at every location, guessed."""
    n = 8
    init = " ".join(f"v{i}=0;" for i in range(n))
    reads = "".join(f" r[] r{i + 4} v{i}      | ;\n" for i in range(n))
    text = (f"LISA many\n{{ {init} }}\n P0 | P1 ;\n r[] r0 y | w[] x 1 ;\n mov r3 (xor r0 r0) | f[mb] ;\n"
            f" r[] r2 z+r3 | w[] y 1 ;\n r[] r1 x | ;\n{reads}exists (0:r0=1 /\\ 0:r1=0)\n")
    program = parse_litmus(text)
    with cpu_budget(30):
        result = explore(program, load_model("rmo"))
    assert result.verdict == "Allowed"
