"""RISC-V fences: the device bits (i, o) order no memory access, so `fence` is the full fence."""

from __future__ import annotations

from pathlib import Path

import pytest

from mmdsl.axiomatic import check
from mmdsl.core.program import Fence
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus
from mmdsl.litmus.riscv import fence_kind

MP = """RISCV MP+{name}
{{
0:x5=x; 0:x7=y;
1:x5=y; 1:x7=x;
}}
 P0          | P1          ;
 ori x6,x0,1 | lw x6,0(x5) ;
 sw x6,0(x5) | {fence} ;
 {fence} | lw x8,0(x7) ;
 sw x6,0(x7) |             ;
exists (1:x6=1 /\\ 1:x8=0)
"""


@pytest.mark.parametrize("pred, succ, kind", [
    ("iorw", "iorw", "fence-rw-rw"), ("rw", "rw", "fence-rw-rw"), ("ir", "ow", "fence-r-w"),
    ("i", "o", "fence-i-o"), ("r", "iorw", "fence-r-rw"),
])
def test_fence_kind_drops_the_device_bits(pred, succ, kind):
    assert fence_kind(pred, succ) == kind


@pytest.mark.parametrize("name, fence", [("fences", "fence"), ("fence-iorws", "fence iorw,iorw"),
                                         ("fence-rws", "fence rw,rw")])
def test_a_bare_fence_forbids_mp_under_riscv(tmp_path: Path, name, fence):
    """A bare fence used to be a kind riscv.mm did not declare: a warning and 'Allowed'."""
    path = tmp_path / f"{name}.litmus"
    path.write_text(MP.format(name=name, fence=fence))
    program = load_litmus(path)
    assert {i.kind for t in program.threads for i in t.instrs if isinstance(i, Fence)} == {"fence-rw-rw"}
    result = check(program, load_model("riscv"))
    assert result.verdict == "Forbidden" and not result.warnings
