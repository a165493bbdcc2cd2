"""A dependencies line may carry `cost N`: what fence selection pays to insert that dependency."""

from __future__ import annotations

from mmdsl.lang import load_model
from mmdsl.render.model_text import dependency_lines


def test_bundled_hardware_models_price_their_insertable_dependencies():
    power = {r.name: r.cost for r in load_model("power").dependencies}
    assert power == {"addr": 1, "data": 1, "ctrl": 1, "addr;po": None, "ctrl+isync": 2,
                     "addr;po;ctrl+isync": None, "rdw": None, "rfi": None, "detour": None}
    armv7 = {r.name: r.cost for r in load_model("armv7").dependencies}
    assert armv7 == {"addr": 1, "data": 1, "ctrl": 1, "addr;po": None, "ctrl+isb": 2,
                     "addr;po;ctrl+isb": None, "rdw": None, "rfi": None, "detour": None}
    armv8 = {r.name: r.cost for r in load_model("armv8").dependencies}
    assert armv8 == {"addr": 1, "data": 1, "ctrl": 1, "addr;po": None, "ctrl+isb": 2}


def test_check_model_shows_the_cost():
    lines = dependency_lines(load_model("power"))
    assert any(line.startswith("  addr: R * M, cost 1") for line in lines)
    assert any(line.startswith("  addr;po: R * W    #") for line in lines)


def test_eieio_costs_what_lwsync_does():
    fences = load_model("power").fences
    assert fences["eieio"].cost == fences["lwsync"].cost == 2
