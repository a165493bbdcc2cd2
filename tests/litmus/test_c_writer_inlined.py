"""Writing fences back into C whose functions are inlined (and loops unrolled): the fence goes into the function's
own text, runs at every copy, and the writer says when that is more than the selection asked for."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from mmdsl.cli.app import app
from mmdsl.core.errors import UnsupportedError
from mmdsl.core.program import Fence, Store
from mmdsl.fences.encoding import Choice
from mmdsl.fences.places import FenceKind, Place
from mmdsl.fences.writer import fenced_source
from mmdsl.litmus import dialect_for, load_litmus, parse_litmus

ROOT = Path(__file__).resolve().parents[2]
C = dialect_for("C")

# push is inlined twice in P0; pop returns early when the stack is empty
STACK = """\
C stack
{ }

struct node { int value; struct node *next; };
struct node pool[2];
struct node *top;

void push(int v)
{
    struct node *n = malloc(sizeof(struct node));
    n->value = v;
    n->next = top;
    top = n;
}

int pop()
{
    struct node *t = top;
    if (t == NULL) return -1;
    return t->value;
}

P0() { push(1); push(2); }
P1() { int r0 = pop(); }

locations [1:r0;]
"""


def _program():
    return parse_litmus(STACK, "stack.litmus")


def _store_index(p, tid: int, nth: int, field: str) -> int:
    stores = [i for i, ins in enumerate(p.threads[tid].instrs) if isinstance(ins, Store) and field in str(ins.addr)]
    return stores[nth]


def test_a_fence_in_an_inlined_function_is_written_into_its_body_and_runs_at_every_call():
    p = _program()
    before_top = _store_index(p, 0, 0, "top")  # `top = n;` of the first call only
    written = C.write_with_fences(p, [(0, before_top, "wmb")])
    assert "    n->next = top;\n    smp_wmb();\n    top = n;\n" in written
    assert written.count("smp_wmb();") == 1
    again = parse_litmus(written, "w.litmus")
    # read back, both inlined copies of push have the fence before their store to top
    fenced = [i for i, ins in enumerate(again.threads[0].instrs) if isinstance(ins, Fence)]
    assert len(fenced) == 2
    assert all(str(again.threads[0].instrs[i + 1].addr) == "top" for i in fenced)


def test_the_writer_says_when_a_fence_in_shared_code_is_more_than_the_selection():
    p = _program()
    place = Place(0, _store_index(p, 0, 0, "top"), "P0", None, "", "")
    kind = FenceKind("wmb", 2, ("wmb",))
    notes: list[str] = []
    text = fenced_source(p, [Choice(place, kind)], notes)
    assert text.count("smp_wmb();") == 1
    assert notes == ["'smp_wmb();' before line 13 is in push(), inlined at each call: written once there, it "
                     "runs at all 2 copies of that place (P0 x2); the chosen fences need it at 1 of them, so "
                     "the written test has 1 fence(s) more than the selection"]
    # asked at both calls: one statement, a note without the surplus
    both = [Choice(Place(0, _store_index(p, 0, k, "top"), "P0", None, "", ""), kind) for k in (0, 1)]
    notes = []
    assert fenced_source(p, both, notes).count("smp_wmb();") == 1
    assert notes[0].endswith("runs at all 2 copies of that place (P0 x2)")


def test_the_end_of_a_function_that_returns_early_is_no_fence_place():
    p = _program()
    # after pop's body comes `r0 = ret`, where `return -1` jumps too: a fence before pop's `}` would miss
    # that path, and the rest of `int r0 = pop();` is inside a statement
    end = next(i for i, ins in enumerate(p.threads[1].instrs) if ins.text.startswith("int r0") and i > 0)
    assert end not in C.fence_points(p, 1)
    with pytest.raises(UnsupportedError) as err:
        C.write_with_fences(p, [(1, end, "mb")])
    assert "inside a statement" in err.value.message and err.value.pos.line == 24


def test_the_relaxed_models_store_load_and_load_store_fences_have_c_spellings():
    assert C.fence_text("sl") == "store_load_fence();"
    assert C.fence_text("ls") == "load_store_fence();"
    p = parse_litmus(STACK.replace("    top = n;\n}", "    store_load_fence();\n    load_store_fence();\n"
                                   "    load_load_fence();\n    store_store_fence();\n    top = n;\n}"), "f.litmus")
    kinds = [ins.kind for ins in p.threads[0].instrs if isinstance(ins, Fence)]
    assert kinds == ["sl", "ls", "ll", "ss"] * 2


def test_fences_o_writes_the_msn_queue_with_its_fences_in_the_functions_and_rechecks_it(tmp_path):
    out = tmp_path / "msn-fenced.litmus"
    res = CliRunner().invoke(app, ["fences", str(ROOT / "litmus/datatypes/msn-queue.litmus"), "-m", "relaxed",
                                   "--spec", "serial", "-o", str(out)])
    assert res.exit_code == 0, res.output
    assert "Wrote" in res.output and "re-run: 2 state(s), all allowed by a serial execution" in res.output
    assert "Note: 'smp_rmb();' before line 39 is in dequeue(), inlined at each call and in a loop unrolled 2 times" \
        in res.output
    text = out.read_text()
    assert text.count("store_load_fence();") == 2 and text.count("smp_rmb();") == 2
    assert load_litmus(out).name == "msn-queue"
