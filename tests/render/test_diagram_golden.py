"""Execution diagrams of classic tests compared byte for byte with golden DOT files (pytest --bless)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import golden
from diagram_cases import classic_dot

GOLDEN = Path(__file__).resolve().parent / "golden"

CASES = [
    # (golden name, test, model, show, options)
    ("SB-sc-forbidden", "SB", "sc", "forbidden", {}),
    ("SB-tso-witness", "SB", "tso", "witness", {}),
    ("MP-tso-forbidden", "MP", "tso", "forbidden", {}),
    ("MP-pso-witness", "MP", "pso", "witness", {}),
    ("MP-sc-forbidden-init", "MP", "sc", "forbidden", {"init": True}),
    ("IRIW-sc-forbidden", "IRIW", "sc", "forbidden", {}),
    ("2+2W-tso-forbidden", "2+2W", "tso", "forbidden", {}),
    ("MP+fences-tso-forbidden", "MP+fences", "tso", "forbidden", {}),
    ("lisa-LB-rmo-witness", "lisa/LB", "rmo", "witness", {}),
    ("lisa-CoRW1-tso-forbidden", "lisa/CoRW1", "tso", "forbidden", {}),
    ("SB-sc-forbidden-paper", "SB", "sc", "forbidden", {"style": "paper"}),
    ("SB-tso-witness-fences", "SB", "tso", "witness", {"fences": [(0, 1, "mfence"), (1, 1, "mfence")]}),
]


@pytest.mark.parametrize("name, test, model, show, opts", CASES, ids=[c[0] for c in CASES])
def test_golden_dot(name, test, model, show, opts, bless):
    golden(GOLDEN / f"{name}.dot", classic_dot(test, model, show, **opts), bless)


def test_dot_is_the_same_on_every_run():
    first = classic_dot("IRIW", "rmo", "allowed", index=3)
    assert all(classic_dot("IRIW", "rmo", "allowed", index=3) == first for _ in range(3))
