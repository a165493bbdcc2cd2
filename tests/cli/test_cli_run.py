"""The CLI end to end: models, check-model, run (text, JSON, --why, directories, errors)."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from mmdsl.cli.app import app

runner = CliRunner()


def invoke(*args):
    return runner.invoke(app, list(args))


def test_models_lists_every_bundled_model_with_its_title():
    r = invoke("models")
    assert r.exit_code == 0
    lines = {line.split()[0]: line for line in r.output.splitlines()}
    assert {"sc", "tso", "pso", "rmo", "dotnet", "relaxed", "tso-axioms"} <= set(lines)
    assert "Total Store Order" in lines["tso"]


def test_check_model_prints_table_and_axioms():
    r = invoke("check-model", "models/tso.mm")
    assert r.exit_code == 0
    assert "      Ld  St  At\n  Ld  -   -   -\n  St  Y   -   -\n  At  -   -   -\n" in r.output
    assert "tso: acyclic ppo | fence | rfe | co | fr | (dep | rmw) ; rfi  (default)" in r.output
    assert "ok: model 'tso' is well formed" in r.output
    j = json.loads(invoke("check-model", "dotnet", "--json").output)
    assert j["table"]["rows"] == ["Read", "Write", "VolRead", "VolWrite", "Lock", "Unlock"]


def test_bad_model_exit_code_2_no_traceback(tmp_path):
    bad = tmp_path / "bad.mm"
    bad.write_text("model bad\naxiom x : acyclic po | nope\n")
    r = invoke("check-model", str(bad))
    assert r.exit_code == 2
    assert f"{bad}:2:24: model error: unknown name 'nope'" in r.output
    assert "Traceback" not in r.output


def test_run_single_test_herd_shape():
    r = invoke("run", "litmus/classic/SB.litmus", "-m", "tso")
    assert r.exit_code == 0
    out = r.output.splitlines()
    assert out[:3] == ["Test SB Allowed", "States 4", "0:EAX=0; 1:EAX=0;"]
    assert "Observation SB Sometimes 1 3" in out


def test_run_json_and_why():
    r = invoke("run", "litmus/classic/SB.litmus", "-m", "sc", "--json", "--why")
    assert r.exit_code == 0
    data = json.loads(r.output)
    (res,) = data["results"]
    assert res["verdict"] == "Forbidden" and res["observation"] == "Never"
    (why,) = res["why"]
    assert why["violations"][0]["axiom"] == "sc"
    assert why["violations"][0]["cycle"] == ["a", "b", "c", "d"]
    t = invoke("run", "litmus/classic/SB.litmus", "-m", "sc", "--why")
    assert "sc (acyclic): cycle a:Wx=1 -ppo-> b:Ry=0 -fr-> c:Wy=1 -ppo-> d:Rx=0 -fr-> a" in t.output


def test_run_directory_several_models_matrix():
    r = invoke("run", "litmus/classic", "-m", "sc", "-m", "tso", "-q")
    assert r.exit_code == 0
    # 30 X86 + 17 LISA + 30 C forms; TSO allows SB, R, RWC, W+RWC in each dialect
    assert "tso: 12 allowed, 65 forbidden" in r.output
    assert "77 test(s) x 2 model(s)" in r.output


def test_bad_file_among_good_ones_is_reported_and_others_run(tmp_path):
    good = tmp_path / "good.litmus"
    good.write_text((__import__("pathlib").Path("litmus/classic/MP.litmus")).read_text())
    bad = tmp_path / "bad.litmus"
    bad.write_text("X86 BAD\n{ }\n P0 ;\n FROB [x] ;\nexists (x=1)\n")
    r = invoke("run", str(tmp_path), "-m", "tso")
    assert r.exit_code == 2
    assert f"{bad}:4:2: litmus error: unsupported x86 instruction 'FROB'" in r.output
    assert "Test MP Allowed" in r.output
    assert "1 failed" in r.output
    j = json.loads(invoke("run", str(tmp_path), "-m", "tso", "--json").output)
    assert len(j["results"]) == 1 and j["errors"][0]["line"] == 4


def test_unknown_model_is_a_clean_error():
    r = invoke("run", "litmus/classic/SB.litmus", "-m", "nosuchmodel")
    assert r.exit_code == 2
    assert "unknown model 'nosuchmodel'" in r.output and "Traceback" not in r.output


def test_run_takes_the_explorers_reduction_and_keeps_the_final_states():
    """`run --engine explorer --reduction dotnet` explores the .NET checker's reduced space (its
    Table 4: 881 states for Peterson; ours stays above, docs/reproduction-dotnet.md) with the
    final states of the unreduced one; a reduction without the explorer is refused by name."""
    counts, states = {}, {}
    for reduction in ("dotnet", "none"):
        r = invoke("run", "litmus/programs/peterson.litmus", "-m", "dotnet", "--engine", "explorer",
                   "--reduction", reduction, "--json")
        res = json.loads(r.output)["results"][0]
        counts[reduction], states[reduction] = res["stats"]["states"], res["states"]
        assert res["observation"] == "Sometimes"
    assert states["dotnet"] == states["none"]
    assert counts["dotnet"] <= 1888 < counts["none"]  # tests/explorer/test_reduction_dotnet.py pins 1888
    r = invoke("run", "litmus/programs/peterson.litmus", "-m", "dotnet", "--reduction", "dotnet")
    assert r.exit_code == 2 and "--reduction dotnet is an option of the explorer's runs" in r.output
