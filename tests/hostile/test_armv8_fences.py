"""Hostile inputs to fence selection under armv8 with dependencies: loops with dependency kinds,
crowded registers, taken labels, a model whose axiom uses a dependency negatively. Each is a
located error with exit code 2 or an answer the re-check confirms (never a traceback)."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from mmdsl.cli.app import app
from mmdsl.fences import FenceOptions, select_fences
from mmdsl.fences.writer import fenced_source
from mmdsl.lang import load_model
from mmdsl.litmus import parse_litmus

REPO = Path(__file__).resolve().parents[2]
runner = CliRunner()

LOOP = """AArch64 MP+loop
{ 0:X1=x; 0:X3=y; 1:X0=y; 1:X2=x; }
 P0          | P1           ;
 MOV W0,#1   | L0:          ;
 STR W0,[X1] | LDR W1,[X0]  ;
 MOV W2,#1   | CBZ W1,L0    ;
 STR W2,[X3] | LDR W3,[X2]  ;
exists (1:X3=0)
"""


def test_a_dependency_kind_on_a_program_with_a_loop_is_refused_by_name(tmp_path):
    f = tmp_path / "loop.litmus"
    f.write_text(LOOP)
    for extra in (["--kinds", "dmb-st,addr"], ["--cost", "data=2"]):
        r = runner.invoke(app, ["fences", str(f), "-m", "armv8", *extra])
        assert r.exit_code == 2, r.output
        assert "is a device only in loop-free tests" in r.output and "Traceback" not in r.output


def _crowded_mp() -> str:
    """MP whose reader uses every scratch register the writer could take (W5..W28)."""
    regs = [f"X{n}" for n in range(5, 29)]
    init = " ".join(f"1:{r}={i};" for i, r in enumerate(regs))
    return f"""AArch64 MP+crowded
{{ 0:X1=x; 0:X3=y; 1:X0=y; 1:X2=x; {init} }}
 P0          | P1          ;
 MOV W0,#1   | LDR W1,[X0] ;
 STR W0,[X1] | LDR W3,[X2] ;
 MOV W2,#1   | LC90:       ;
 STR W2,[X3] |             ;
exists (1:X1=1 /\\ 1:X3=0)
"""


def test_no_free_register_means_no_address_dependency_and_a_taken_label_is_skipped(tmp_path):
    program = parse_litmus(_crowded_mp(), str(tmp_path / "crowded.litmus"))
    sel = select_fences(program, load_model("armv8"), FenceOptions(kinds=["dmb-st", "addr", "ctrl+isb"]))
    assert sel.status == "OPTIMAL" and sel.after.verdict == "Forbidden"
    assert [c.kind.name for c in sel.fences] == ["dmb-st", "ctrl+isb"]  # no register left for the EOR
    text = fenced_source(program, sel.fences)
    assert "CBNZ W1,LC91" in text and "LC91:" in text  # LC90 is the test's own
    assert parse_litmus(text, "t.litmus").threads[1].instrs


def test_a_model_using_a_dependency_negatively_is_refused(tmp_path):
    model = tmp_path / "neg.mm"
    model.write_text(
        "model neg\nreorder {\n        R  W\n    R   i  i\n    W   Y  Y\n}\n"
        "dependencies {\n    addr : R * M cost 1\n}\n"
        "fence dmb orders M * M cost 3\n"
        "axiom order : acyclic (po \\ dep) | rfe | co | fr\n")
    r = runner.invoke(app, ["fences", str(REPO / "litmus" / "aarch64" / "tests" / "classic" / "MP.litmus"),
                            "-m", str(model)])
    assert r.exit_code == 2, r.output
    assert "negatively" in r.output and "Traceback" not in r.output


def test_a_load_into_the_zero_register_is_no_dependency_source(tmp_path):
    """LDR WZR keeps no value: no dependency starts there (it was an AttributeError traceback)."""
    f = tmp_path / "zr.litmus"
    f.write_text("""AArch64 MP+zr
{ 0:X1=x; 0:X3=y; 1:X0=y; 1:X2=x; }
 P0          | P1           ;
 MOV W0,#1   | LDR W1,[X0]  ;
 STR W0,[X1] | LDR WZR,[X2] ;
 MOV W2,#1   | LDR W3,[X2]  ;
 STR W2,[X3] |              ;
exists (1:X1=1 /\\ 1:X3=0)
""")
    r = runner.invoke(app, ["fences", str(f), "-m", "armv8", "-o", str(tmp_path / "out.litmus")])
    assert r.exit_code == 0, r.output
    assert "Status OPTIMAL" in r.output and "re-run: Forbidden" in r.output
