"""A per-thread model's `rdw` line, or its absence, in the explorer (explorer/machines/propagation/read_views.py):
a user's copy of power.mm / armv7.mm without `rdw` gives, in both engines, the states of
herd's ppc.cat / arm.cat without rdw (tests/explorer/data/no-rdw/NOTE.md). Before, the
explorer ordered every read after an earlier read of its location whatever the model said,
and was stricter than the checker with no refusal."""

from __future__ import annotations

from pathlib import Path

import pytest
from explorer_paths import DATA, ROOT

from mmdsl.axiomatic import check
from mmdsl.core.errors import UnsupportedError
from mmdsl.explorer import explore
from mmdsl.explorer.machines.propagation.read_views import access_locations
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus
from mmdsl.render.herd_text import herd_block

NO_RDW = DATA / "no-rdw"
PPO_RULES = ROOT / "tests" / "axiomatic" / "data" / "ppo-rules"
PPC = ROOT / "litmus" / "ppc" / "tests"
ARM = ROOT / "litmus" / "arm" / "tests"
CASES = [
    (PPC / "classic" / "CoRR.litmus", "power"),
    (PPC / "herding-cats" / "co1.litmus", "power"),
    (PPC / "herding-cats" / "co2.litmus", "power"),
    (PPC / "herding-cats" / "coa.litmus", "power"),
    (PPC / "herding-cats" / "MP+lwsync+addr-po-detr.litmus", "power"),
    (PPO_RULES / "MP+sync+addr-rdw-addr.litmus", "power"),
    (PPO_RULES / "MP+sync+addr-pos-addr.litmus", "power"),
    (ARM / "classic" / "CoRR.litmus", "armv7"),
    (ARM / "herding-cats" / "MP+dmb+pos-ctrlisb+BIS.litmus", "armv7"),
    (PPO_RULES / "MP+dmb+addr-rdw-addr.litmus", "armv7"),
    (PPO_RULES / "MP+dmb+addr-pos-addr.litmus", "armv7"),
]
ARCH = {"power": "ppc", "armv7": "arm"}


def without_rdw(name: str, folder: Path):
    """The bundled model ``name`` with its ``rdw`` dependency line deleted, as a user's file."""
    lines = (ROOT / "models" / f"{name}.mm").read_text().splitlines(keepends=True)
    kept = [line for line in lines if not line.strip().startswith("rdw :")]
    assert len(kept) == len(lines) - 1
    path = folder / f"{name}-nordw.mm"
    path.write_text("".join(kept).replace(f"model {name} ", f"model {name}_nordw ", 1))
    return load_model(str(path))


def block_states(text: str) -> set[str]:
    """The final states of a herd-shaped output, each as its sorted assignments."""
    lines = text.split("\nStates ", 1)[1].splitlines()
    return {" ".join(sorted(a.strip().replace("[", "").replace("]", "") for a in line.split(";") if a.strip()))
            for line in lines[1:1 + int(lines[0])]}


def states(result) -> set[str]:
    return block_states(herd_block(result, show_time=False))


@pytest.mark.parametrize("path, model", CASES, ids=[f"{p.stem}-{m}" for p, m in CASES])
def test_a_model_without_rdw_gives_herds_states_in_both_engines(path, model, tmp_path):
    m = without_rdw(model, tmp_path)
    program = load_litmus(path)
    herd = block_states((NO_RDW / f"{path.name}.{ARCH[model]}-nordw.expected").read_text())
    assert states(check(program, m)) == herd
    assert states(explore(program, m)) == herd



def test_a_location_computed_by_arithmetic_is_followed():
    """``xor r3,r1,r1; add r3,r3,r4``: the address is ``x`` (r4's), as the checker finds at run
    time; the same-location pairs the model's lines look at are decided on it."""
    program = load_litmus(PPC / "hand" / "MP+lwsync+addr-ld-std.litmus")
    thread = program.threads[1]
    where = access_locations(thread)
    assert {thread.instrs[k].text: loc for k, loc in where.items()} == {"ld r1,0(r2)": "y", "ldx r5,r0,r3": "x"}


def test_a_location_the_code_does_not_fix_is_refused_by_name(tmp_path):
    program = load_litmus(NO_RDW / "MP+sync+branch-location.litmus")
    for model in (load_model("power"), without_rdw("power", tmp_path)):
        with pytest.raises(UnsupportedError, match="accesses a location the thread's code does not fix"):
            explore(program, model)
    assert check(program, load_model("power")).observation == "Never"  # herd7 7.58, ppc.cat: Never, 3 states
