"""herd's ppc.cat / arm.cat have rfi in ppo (ii0 = dd | rfi | rdw) and detour (ci0 = ctrlisync |
detour); power.mm and armv7.mm say them with their `rfi` and `detour` dependencies. Before,
the checker allowed data ; rfi ; addr and addr ; detour ; addr where herd and the explorer
forbid them (tests/axiomatic/data/ppo-rules/NOTE.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mmdsl.axiomatic import check
from mmdsl.core.errors import UnsupportedError
from mmdsl.explorer import explore
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus
from mmdsl.render.herd_text import herd_block

DATA = Path(__file__).resolve().parent / "data" / "ppo-rules"
CASES = [("MP+sync+data-rfi-addr", "power", "ppc"), ("MP+dmb+data-rfi-addr", "armv7", "arm"),
         ("MP+sync+addr-detour-addr", "power", "ppc"),
         # the explorer's per-read views against herd (NOTE.md, "rdw, rfi and detour in the explorer")
         ("MP+sync+addrpo-detour-addr", "power", "ppc"), ("MP+dmb+addrpo-detour-addr", "armv7", "arm"),
         ("MP+sync+addrpo-rfi-addr", "power", "ppc"), ("MP+dmb+addrpo-rfi-addr", "armv7", "arm"),
         ("MP+sync+addr-pos-addr", "power", "ppc"), ("MP+dmb+addr-pos-addr", "armv7", "arm"),
         ("MP+sync+addr-rdw-addr", "power", "ppc"), ("MP+dmb+addr-rdw-addr", "armv7", "arm")]
# the explorer refuses these by name (a read of its own thread's write held by a branch, accesses after)
CHECKER_ONLY = [("MP+sync+ctrl-detour-addr", "power", "ppc")]


def block_states(text: str) -> set[str]:
    """The final states of a herd-shaped output, each as its sorted assignments."""
    lines = text.split("\nStates ", 1)[1].splitlines()
    return {" ".join(sorted(a.strip().replace("[", "").replace("]", "") for a in line.split(";") if a.strip()))
            for line in lines[1:1 + int(lines[0])]}


def herd_states(name: str, arch: str) -> set[str]:
    return block_states((DATA / f"{name}.litmus.{arch}.expected").read_text())


def states(result) -> set[str]:
    return block_states(herd_block(result, show_time=False))


@pytest.mark.parametrize("name, model, arch", CASES)
def test_the_explorer_gives_herds_states(name, model, arch):
    assert states(explore(load_litmus(DATA / f"{name}.litmus"), load_model(model))) == herd_states(name, arch)


@pytest.mark.parametrize("name, model, arch", CASES + CHECKER_ONLY)
def test_the_checker_gives_herds_states(name, model, arch):
    assert states(check(load_litmus(DATA / f"{name}.litmus"), load_model(model))) == herd_states(name, arch)


@pytest.mark.parametrize("name, model, arch", CHECKER_ONLY)
def test_the_explorer_refuses_a_detour_through_a_held_write_by_name(name, model, arch):
    """ctrl ; detour: herd orders the reads (cc ; ci in ci); the explorer cannot run a read of
    its own location after a write a branch holds, so it says so rather than guess."""
    with pytest.raises(UnsupportedError, match="reads a location its thread wrote just before"):
        explore(load_litmus(DATA / f"{name}.litmus"), load_model(model))
