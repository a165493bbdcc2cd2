"""C11 orders compiled onto table models (mmdsl/check/mapping.py): the standard x86 mapping (a
seq_cst store is MOV+MFENCE, nothing else fenced) and its effect on Peterson's algorithm."""

from __future__ import annotations

from budget import cpu_budget
from refdata import ROOT

from mmdsl.check import check_program
from mmdsl.check.mapping import compile_orders
from mmdsl.core.program import Fence, Load, Store
from mmdsl.lang import load_model
from mmdsl.litmus.cprog import load_c_program

PETERSON_SC = ROOT / "litmus" / "programs-c" / "peterson-sc.c"


def _worker(program):
    return next(t for t in program.threads if t.name.startswith("worker"))


def _user_ops(thread):
    """The worker's accesses and fences from its own source lines (not the thread start/end)."""
    return [i for i in thread.instrs if isinstance(i, (Load, Store, Fence)) and i.text.startswith(("atomic", "in_cs"))]


def test_seq_cst_store_gets_a_full_fence_after_it_under_tso():
    program = compile_orders(load_c_program(str(PETERSON_SC)).program, load_model("tso"))
    ops = _user_ops(_worker(program))
    for k, ins in enumerate(ops):
        if isinstance(ins, Store) and ins.text.startswith("atomic_store"):
            assert isinstance(ops[k + 1], Fence) and ops[k + 1].kind == "mb", ins.text
        if isinstance(ins, Load):  # a seq_cst load is a plain MOV on x86
            assert not (k + 1 < len(ops) and isinstance(ops[k + 1], Fence) and ops[k + 1].text == ins.text)


def test_nothing_is_added_under_sc():
    cp = load_c_program(str(PETERSON_SC))
    program = compile_orders(cp.program, load_model("sc"))
    assert len(_user_ops(_worker(program))) == len(_user_ops(_worker(cp.program)))


def test_peterson_seq_cst_safe_and_relaxed_violated_under_tso(tmp_path):
    relaxed = tmp_path / "peterson-relaxed.c"
    relaxed.write_text(PETERSON_SC.read_text().replace("memory_order_seq_cst", "memory_order_relaxed"))
    with cpu_budget(40):
        assert check_program(load_c_program(str(PETERSON_SC)), load_model("tso")).verdict == "safe"
        assert check_program(load_c_program(str(relaxed)), load_model("tso")).verdict == "violation"
