"""Records herd7's result blocks on litmus/c11 under herd's C models: tests/axiomatic/data/c11-herd/MODEL.txt.

For each test of litmus/c11 and each model it runs
``herd7 -I CATS -model MODEL -macros CATS/c11.def TEST`` (as bench/herd_c11_verdicts.py
does) and keeps herd's output from ``States`` to ``Observation``, under a line
``== PATH`` (the test's path under litmus/c11); a test herd does not finish within
``--timeout`` seconds gets ``== PATH`` and ``timeout``. tests/axiomatic/test_herd_c11_witnesses.py
reads these blocks with tests/refdata.py's outcome(). Never run by the tests (herd7 is
absent in CI): rerun it by hand after adding tests, with herd7 on PATH.

    python bench/herd_c11_outputs.py --cats ../shared/reference/herd-cats [--model c11_orig.cat ...]
"""

from __future__ import annotations

import argparse
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUITE = ROOT / "litmus" / "c11"
OUT = ROOT / "tests" / "axiomatic" / "data" / "c11-herd"
MODELS = ["rc11.cat", "c11_orig.cat", "simple-c11.cat", "c11_simp.cat", "c11_partialSC.cat"]


def herd_block(test: Path, model: str, cats: Path, timeout: float) -> str:
    """herd's lines from States to Observation on one test, or "timeout"."""
    cmd = ["herd7", "-I", str(cats), "-model", model, "-macros", str(cats / "c11.def"), str(test)]
    try:
        text = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout).stdout
    except subprocess.TimeoutExpired:
        return "timeout"
    lines = text.splitlines()
    start = next(k for k, line in enumerate(lines) if line.startswith("States "))
    end = next(k for k, line in enumerate(lines) if line.startswith("Observation "))
    return "\n".join(lines[start:end + 1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cats", type=Path, default=ROOT / ".." / "shared" / "reference" / "herd-cats")
    ap.add_argument("--model", action="append", help="a model of the cats folder (default: the c11 family and rc11)")
    ap.add_argument("--timeout", type=float, default=20.0)
    args = ap.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    tests = sorted(SUITE.rglob("*.litmus"))
    for model in args.model or MODELS:
        parts = [f"# herd7 7.58 on litmus/c11: herd7 -I CATS -model {model} -macros CATS/c11.def TEST "
                 f"(CATS: herd's stock library folder; {args.timeout:g} s per test)"]
        for test in tests:
            parts.append(f"== {test.relative_to(SUITE)}\n{herd_block(test, model, args.cats.resolve(), args.timeout)}")
        (OUT / model.replace(".cat", ".txt")).write_text("\n".join(parts) + "\n")
        print(model, len(tests), "tests")


if __name__ == "__main__":
    main()
