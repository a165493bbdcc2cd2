"""Computes herd7's verdicts on litmus/c11 under herd's C models: litmus/c11/herd-verdicts.csv.

For each test and each model (rc11.cat by default) it runs
``herd7 -model MODEL -macros c11.def TEST`` (c11.def gives herd atomic_store and the other
non-explicit forms, which mmdsl's C dialect knows) and records the Observation, the
final states herd lists and whether herd flagged undefined behaviour. Never run by the
tests (herd7 is absent in CI): rerun it by hand after adding tests, with herd7 on PATH.

    python bench/herd_c11_verdicts.py [--cats DIR] [--model rc11.cat ...] [--under tests/rmw]

``--under`` runs only the tests under that folder of litmus/c11 and keeps every other row.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUITE = ROOT / "litmus" / "c11"
OUT = SUITE / "herd-verdicts.csv"
FIELDS = ["path", "model", "observation", "positive", "negative", "undef", "nstates", "states_sha1", "states"]
LONG = 2000  # longer state lists are kept as their count and SHA-1 only


def herd_run(test: Path, model: str, cats: Path, timeout: float = 600) -> dict:
    """herd's answer on one test: Observation, witness counts, Undef, states (';'-joined, sorted)."""
    cmd = ["herd7", "-I", str(cats), "-model", model, "-macros", str(cats / "c11.def"), str(test)]
    try:
        text = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout).stdout
    except subprocess.TimeoutExpired:
        text = ""  # no Observation: herd did not finish in time
    lines = text.splitlines()
    row = {"observation": "", "positive": "", "negative": "", "undef": "", "states": ""}
    states, in_states = [], False
    for line in lines:
        if line.startswith("States "):
            in_states = True
            continue
        if in_states:
            if line in ("Ok", "No", "Undef") or line.startswith("Loop") or line.startswith("Witnesses"):
                in_states = False
            else:
                # herd prints a C location x as [x]; mmdsl as x
                states.append(re.sub(r"\[(\w+)\]=", r"\1=", " ".join(line.split())))
                continue
        if line == "Undef" or line.startswith("Flag *undef*"):
            row["undef"] = "yes"
        if line.startswith("Positive:"):
            parts = line.split()
            row["positive"], row["negative"] = parts[1], parts[3]
        if line.startswith("Observation "):
            row["observation"] = line.split()[2]
    joined = "|".join(sorted(states))
    row["nstates"] = str(len(states))
    row["states_sha1"] = hashlib.sha1(joined.encode()).hexdigest()
    row["states"] = joined if len(joined) <= LONG else ""
    return row


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cats", type=Path, default=Path("/work/herd-build/herdtools7/herd/libdir"))
    ap.add_argument("--model", action="append", default=None)
    ap.add_argument("--timeout", type=float, default=600, help="seconds per herd7 run")
    ap.add_argument("--under", default="", help="only the tests under this folder of litmus/c11")
    args = ap.parse_args()
    models = args.model or ["rc11.cat"]
    rows = []
    under = (SUITE / args.under) if args.under else SUITE
    if OUT.is_file():  # keep the other models' rows, and the rows of the other tests
        with OUT.open(newline="") as f:
            rows = [r for r in csv.DictReader(f)
                    if r["model"] not in models or not (SUITE / r["path"]).is_relative_to(under)]
    for test in sorted(under.rglob("*.litmus")):
        for model in models:
            row = herd_run(test, model, args.cats, args.timeout)
            rows.append({"path": str(test.relative_to(SUITE)), "model": model, **row})
    rows.sort(key=lambda r: (r["path"], r["model"]))
    OUT.parent.mkdir(parents=True, exist_ok=True)
    with OUT.open("w", newline="") as f:
        w = csv.DictWriter(f, FIELDS)
        w.writeheader()
        w.writerows(rows)
    missing = [r["path"] for r in rows if not r["observation"]]
    print(f"{len(rows)} rows in {OUT.relative_to(ROOT)}; no Observation from herd: {missing}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
