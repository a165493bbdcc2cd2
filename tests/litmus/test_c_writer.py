"""Writing C tests back with fences: the paper's fixes come out of the unfixed programs, formatting kept."""

from __future__ import annotations

from pathlib import Path

import pytest
from c_source import lower, shape

from mmdsl.core.errors import LitmusError, UnsupportedError
from mmdsl.core.program import Fence
from mmdsl.litmus import dialect_for, load_litmus, parse_litmus

ROOT = Path(__file__).resolve().parents[2]
PROGRAMS = ROOT / "litmus" / "programs"
C = dialect_for("C")


def functions(text: str) -> str:
    """The thread functions of a test (between the init block and the condition)."""
    start = text.index("\nP0(")
    return text[start:text.index("\n(*", start)]


def test_peterson_with_the_papers_three_barriers_is_peterson_fixed():
    p = load_litmus(PROGRAMS / "peterson.litmus")
    # before `turn = ...`, before the test inside the loop, before `lock = 0` (seed-programs.md)
    places = [(tid, k, "MemoryBarrier") for tid in (0, 1) for k in (1, 3, 10)]
    written = C.write_with_fences(p, places)
    assert functions(written) == functions((PROGRAMS / "peterson-fixed.litmus").read_text())
    # everything else is the original text, byte for byte
    assert written.replace("        MemoryBarrier();\n", "").replace("    MemoryBarrier();\n", "") == p.source


def test_dcl_with_barrier_2_has_the_instructions_of_dcl_fixed():
    p = load_litmus(PROGRAMS / "dcl.litmus")
    written = C.write_with_fences(p, [(0, 6, "MemoryBarrier"), (1, 6, "MemoryBarrier")])
    again = parse_litmus(written, "w.litmus")
    fixed = load_litmus(PROGRAMS / "dcl-fixed.litmus")
    for a, b in zip(again.threads, fixed.threads):
        assert [shape(i) for i in a.instrs] == [shape(i) for i in b.instrs]
    assert "            MemoryBarrier();\n            *helper = 1;" in written


def test_classic_fence_kinds_give_the_fenced_shape():
    sb = load_litmus(ROOT / "litmus" / "classic" / "c" / "SB.litmus")
    fenced = load_litmus(ROOT / "litmus" / "classic" / "c" / "SB+fences.litmus")
    for kind in ("mb", "mfence", "membar", "full"):
        again = parse_litmus(C.write_with_fences(sb, [(0, 1, kind), (1, 1, kind)]), "w.litmus")
        assert [[shape(i) for i in t.instrs] for t in again.threads] == \
               [[shape(i) for i in t.instrs] for t in fenced.threads]


@pytest.mark.parametrize("kind, text", [("mb", "smp_mb();"), ("MemoryBarrier", "MemoryBarrier();"),
                                        ("rmb", "smp_rmb();"), ("ll", "smp_rmb();"), ("wmb", "smp_wmb();"),
                                        ("ss", "smp_wmb();"), ("sfence", "smp_wmb();")])
def test_fence_spellings(kind, text):
    p = lower("P0(int *x, int *y) {\n  *x = 1;\n  *y = 1;\n}")
    assert C.write_with_fences(p, [(0, 1, kind)]).count(f"\n  {text}\n  *y = 1;") == 1


def test_places_inline_at_block_ends_and_in_unbraced_bodies():
    p = lower("P0(int *x, int *y) {\n  int r0 = *x; if (r0) *y = 1; else { *y = 2; }\n"
              "  while (*x != 1) {}\n}")
    # 0 Load, 1 Branch, 2 Store y=1, 3 jump, 4 Store y=2, 5 Nop, 6 Load, 7 Branch, 8 back, (9 = end)
    written = C.write_with_fences(p, [(0, 1, "mb"), (0, 2, "mb"), (0, 4, "wmb"), (0, 5, "rmb"), (0, 8, "mb"),
                                      (0, 9, "mb")])
    assert written.splitlines()[3:7] == [
        "  int r0 = *x; smp_mb(); if (r0) { smp_mb(); *y = 1; } else { smp_wmb(); *y = 2; }",
        "  smp_rmb();",
        "  while (*x != 1) { smp_mb(); }",
        "  smp_mb();",
    ]
    again = parse_litmus(written, "w.litmus").threads[0].instrs
    assert [type(i).__name__ for i in again].count("Fence") == 6
    assert [i.kind for i in again if isinstance(i, Fence)] == ["mb", "mb", "wmb", "rmb", "mb", "mb"]


def test_the_outermost_place_is_chosen_at_a_join():
    # index 3 is both the end of the then-block and the statement after the if: only the latter
    # runs on both paths, as an instruction inserted at index 3 would
    p = lower("P0(int *x, int *y) {\n  if (*x == 1) {\n    *y = 1;\n  }\n  *y = 2;\n}")
    written = C.write_with_fences(p, [(0, 3, "mb")])
    assert "  }\n  smp_mb();\n  *y = 2;" in written


@pytest.mark.parametrize("body, index, words", [
    ("P0(int *x, int *y) {\n  int r0 = *x + *y;\n}", 1, "inside a statement"),
    ("P0(int *x) {\n  while (*x != 1) { *x = 2; }\n}", 1, "loop condition"),
])
def test_places_c_cannot_express_are_refused_by_name(body, index, words):
    with pytest.raises(UnsupportedError, match=words) as info:
        C.write_with_fences(lower(body), [(0, index, "mb")])
    assert info.value.pos.line == 4


def test_bad_requests():
    p = lower("P0(int *x) {\n  *x = 1;\n}")
    with pytest.raises(UnsupportedError, match="cannot spell a fence of kind 'lwsync'"):
        C.write_with_fences(p, [(0, 0, "lwsync")])
    with pytest.raises(LitmusError, match="thread 3"):
        C.write_with_fences(p, [(3, 0, "mb")])
    with pytest.raises(LitmusError, match="instruction 5"):
        C.write_with_fences(p, [(0, 5, "mb")])


def test_fence_points_are_exactly_the_writable_places():
    p = lower("P0(int *x, int *y) {\n  int r0 = *x + *y;\n  while (*x != 1) { *y = r0; }\n}")
    # 0 Load, 1 Load, 2 Assign, 3 Nop, 4 Load, 5 Branch, 6 Store, 7 back, 8 end
    points = C.fence_points(p, 0)
    assert points == [0, 3, 6, 7, 8]
    for k in range(len(p.threads[0].instrs) + 1):
        if k in points:
            C.write_with_fences(p, [(0, k, "mb")])
        else:
            with pytest.raises(UnsupportedError):
                C.write_with_fences(p, [(0, k, "mb")])
