"""bench/compare_herd.py's logic (not its timings): herd7's command line, one file per test name, verdict counts."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _bench():
    spec = importlib.util.spec_from_file_location("compare_herd", ROOT / "bench" / "compare_herd.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_herd_is_told_not_to_refuse_x86_64_tests_under_an_x86_model():
    # herd7 7.58 refuses an X86_64 test under x86tso.cat ("Architecture mismatch") in no
    # time and prints no verdict: timed like that, herd looks 0.1 s fast on the whole corpus.
    cmd = _bench().herd_command("herd7", "tso", ["a.litmus", "b.litmus"])
    assert cmd[:5] == ["herd7", "-archcheck", "false", "-model", "x86tso.cat"]
    assert cmd[-2:] == ["a.litmus", "b.litmus"] and "-speedcheck" not in cmd


def test_speedcheck_command_checks_the_same_files():
    cmd = _bench().herd_command("herd7", "sc", ["a.litmus"], speedcheck=True)
    assert cmd == ["herd7", "-archcheck", "false", "-model", "sc.cat", "-speedcheck", "true", "a.litmus"]


def test_one_file_per_test_name_keeps_the_first_like_herd(tmp_path):
    # herd7 checks a test name once per run: a later file of the same name is skipped
    # (same hash) or refused (different hash), so both tools get the first one only.
    files = []
    for folder, name in [("A", "SB"), ("A", "MP"), ("B", "SB"), ("B", "LB")]:
        (tmp_path / folder).mkdir(exist_ok=True)
        f = tmp_path / folder / f"{name}.litmus"
        f.write_text(f"\nX86_64 {name}\n\"cycle\"\n{{}}\n P0 ;\n nop ;\nexists (x=1)\n")
        files.append(str(f))
    kept, dropped = _bench().one_file_per_test(files)
    assert kept == [files[0], files[1], files[3]]
    assert dropped == [files[2]]


def test_verdicts_printed_counts_herd_blocks_and_the_mmdsl_summary():
    bench = _bench()
    herd = "Test SB Allowed\nStates 1\nObservation SB Sometimes 1 3\nTime SB 0.00\n\n" * 3
    assert bench.verdicts_printed(herd) == 3
    table = "┃ test ┃ tso ┃\n│ SB │ A │\ntso: 1 allowed, 0 forbidden\n12 test(s) x 2 model(s)\n"
    assert bench.verdicts_printed(table) == 24
    assert bench.verdicts_printed("Warning: File \"a\": Architecture mismatch (User error)\n") == 0


def test_paired_runs_alternate_and_report_medians(monkeypatch):
    bench = _bench()
    calls = []
    cpu = {"a": iter([1.0, 3.0, 2.0]), "b": iter([4.0, 4.0, 8.0])}

    def timed(cmd):
        calls.append(cmd[0])
        return (0.5, next(cpu[cmd[0]]), 0, 7)

    monkeypatch.setattr(bench, "timed", timed)
    got = bench.paired(["a"], ["b"], 3)
    assert calls == ["a", "b", "a", "b", "a", "b"]  # A B A B ..., not all of A then all of B
    assert got["ours"] == (0.5, 2.0, 0, 7) and got["theirs"] == (0.5, 4.0, 0, 7)
    assert got["ratios"] == [0.25, 0.75, 0.25] and bench.median(got["ratios"]) == 0.25
    monkeypatch.setattr(bench, "timed", lambda cmd: (0.5, 1.0, 0, 7))
    assert bench.paired(["a"], None, 1).keys() == {"ours"}  # no herd7: mmdsl alone
