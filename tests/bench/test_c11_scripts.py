"""bench's C11 scripts: the committed variants are what make_c11_variants.py writes, herd's
output is read right by herd_c11_verdicts.py, and docs/cat.md quotes the stock-model count
count_stock_cats.py prints (never more)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HERD_CATS = (ROOT / ".." / "shared" / "reference" / "herd-cats").resolve()


def _bench(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_variants_are_what_the_script_writes():
    made = _bench("make_c11_variants").variants()
    folder = ROOT / "litmus" / "c11" / "tests" / "variants"
    assert {p.stem for p in folder.glob("*.litmus")} == set(made)
    for name, text in made.items():
        assert (folder / f"{name}.litmus").read_text() == text, name


def test_herds_output_is_read_into_observation_counts_and_states(monkeypatch):
    herd = _bench("herd_c11_verdicts")
    out = ("Test t Allowed\nStates 2\n0:r0=0; [x]=1;\n0:r0=1;  [x]=2;\nUndef\nWitnesses\n"
           "Positive: 1 Negative: 1\nFlag *undef*\nCondition exists (0:r0=1)\nObservation t Sometimes 1 1\n")

    class Done:
        stdout = out

    monkeypatch.setattr(herd.subprocess, "run", lambda *a, **k: Done())
    row = herd.herd_run(Path("t.litmus"), "rc11.cat", Path("/cats"))
    assert (row["observation"], row["positive"], row["negative"], row["undef"]) == ("Sometimes", "1", "1", "yes")
    assert row["states"] == "0:r0=0; x=1;|0:r0=1; x=2;" and row["nstates"] == "2"


def test_docs_quote_a_count_the_script_printed():
    if not HERD_CATS.is_dir():
        pytest.skip(f"herd's stock models are not in {HERD_CATS}")
    loaded, refused = _bench("count_stock_cats").count(HERD_CATS)
    text = (ROOT / "docs" / "cat.md").read_text()
    m = re.search(r"Of the (\d+) `\.cat` files of herd 7\.58's library folder \(with the Linux-kernel model\), (\d+)\s+load",
                  text)
    assert m, "docs/cat.md no longer quotes the count"
    assert int(m.group(1)) == len(loaded) + len(refused)
    assert int(m.group(2)) <= len(loaded)  # the docs never claim more than loads
