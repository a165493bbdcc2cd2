"""Work done, not seconds: pinned candidate counts of the checker, so a change that enumerates more fails.

For the classic shapes, the bench/scaling.py family (many writes to one location, IRIW
with many writes per writer) and the coherence family of bench/coherence_family.py
(litmus/coherence/: every split of up to 6 writes to one location over up to 3 threads,
with and without reads between them) under sc and tso, ``work_counts.json`` pins:

- ``candidates``: complete candidates with consistent values (the full run; a property
  of the test and the enumeration, it must stay exactly the same);
- ``partial``: partial candidates checked against the prunable axioms on the way (it may
  go down, never up);
- ``verdict``: complete candidates of the verdict-only run (``run -q``, which stops at the
  first witness and cuts leaves that cannot satisfy the condition; may go down, never up).

After a change that does less work, re-pin with
``.venv/bin/python tests/axiomatic/test_work_counts.py --repin`` and say so in the commit.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PINS = Path(__file__).with_name("work_counts.json")
MODELS = ("sc", "tso")


def _files() -> list[Path]:
    classic = sorted((ROOT / "litmus" / "classic").glob("*.litmus"))
    scaling = sorted((ROOT / "litmus" / "scaling").glob("*.litmus"))
    coherence = sorted((ROOT / "litmus" / "coherence").glob("*.litmus"))
    return classic + scaling + coherence


def _key(path: Path, model: str) -> str:
    return f"{path.parent.name}/{path.stem} {model}"


def measure(path: Path, model_name: str) -> dict:
    from mmdsl.axiomatic import check
    from mmdsl.lang import load_model
    from mmdsl.litmus import load_litmus

    program, model = load_litmus(path), load_model(model_name)
    full = check(program, model, collect="none")
    quick = check(program, model, collect="verdict")
    assert quick.verdict == full.verdict, "verdict-only must give the full run's verdict"
    return {"candidates": full.candidates, "partial": full.stats["partial"], "verdict": quick.candidates}


CASES = [(p, m) for p in _files() for m in MODELS]


@pytest.mark.parametrize("path,model", CASES, ids=[_key(p, m) for p, m in CASES])
def test_work_is_pinned(path: Path, model: str):
    pinned = json.loads(PINS.read_text())[_key(path, model)]
    got = measure(path, model)
    assert got["candidates"] == pinned["candidates"], (got, pinned)
    assert got["partial"] <= pinned["partial"], f"more partial candidates checked than pinned: {got} {pinned}"
    assert got["verdict"] <= pinned["verdict"], f"verdict-only enumerates more than pinned: {got} {pinned}"


def test_pins_cover_the_files():
    assert set(json.loads(PINS.read_text())) == {_key(p, m) for p, m in CASES}


def test_verdict_only_is_much_cheaper_on_the_pinned_set():
    """The whole point of -q: summed over the pinned set it completes under a third of the candidates."""
    pins = json.loads(PINS.read_text()).values()
    assert 3 * sum(p["verdict"] for p in pins) < sum(p["candidates"] for p in pins)


# --why explains at most 4 forbidden executions that satisfy the condition: it enumerates
# only candidates that can (the condition's loads pinned) and stops at the fourth. Before,
# it completed every candidate without pruning: 246,960 for CoW6-2-2-2+R (4 s of CPU),
# millions for IRIW-5W.
WHY_PINS = {"scaling/CoW6-2-2-2+R": 4, "scaling/IRIW-5W": 4, "classic/IRIW": 1, "classic/MP": 1}


@pytest.mark.parametrize("name", sorted(WHY_PINS))
def test_why_enumerates_only_what_it_explains(name):
    from mmdsl.axiomatic import check
    from mmdsl.lang import load_model
    from mmdsl.litmus import load_litmus

    result = check(load_litmus(ROOT / "litmus" / f"{name}.litmus"), load_model("tso"), why=True)
    assert result.why and result.stats["why_candidates"] <= WHY_PINS[name]


if __name__ == "__main__" and "--repin" in sys.argv:
    sys.path.insert(0, str(ROOT))
    PINS.write_text(json.dumps({_key(p, m): measure(p, m) for p, m in CASES}, indent=1, sort_keys=True) + "\n")
    print(f"re-pinned {len(CASES)} counts in {PINS}")
