"""Start-up of `mmdsl run` on one test: which modules it imports (a work count, not a timed test).

Running one classic X86 test must not import the other dialects' grammars (C and its
textX grammar), the suite machinery, the progress bar (rich), diagrams, the explorer, the
fence solver (OR-Tools) or graphviz: each costs start-up time a user feels on every call.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json, sys
sys.argv = ["mmdsl", "run", "litmus/classic/SB.litmus", "-m", "tso"]
from mmdsl.cli.app import app
try:
    app()
except SystemExit as exit:
    code = exit.code
print(json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""

NOT_NEEDED = ["ortools", "graphviz", "dask", "rich", "yaml", "mmdsl.litmus.c", "mmdsl.litmus.c_grammar",
              "mmdsl.litmus.lisa", "mmdsl.suite.run", "mmdsl.suite.console", "mmdsl.explorer", "mmdsl.fences",
              "mmdsl.render.dot_text", "mmdsl.render.matrix", "starlette", "uvicorn", "mmdsl.web"]


def _modules_of_one_run() -> list[str]:
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, timeout=120)
    last = json.loads(out.stdout.strip().splitlines()[-1])
    assert last["code"] in (0, None), out.stderr
    assert "Observation SB" in out.stdout
    return last["modules"]


def test_run_one_x86_test_imports_only_what_it_needs():
    modules = _modules_of_one_run()
    loaded = [m for m in NOT_NEEDED if m in modules or any(x.startswith(m + ".") for x in modules)]
    assert loaded == [], f"`mmdsl run` on one X86 test imports {loaded}"


MAIN_PROBE = """
import json, sys
from mmdsl.cli.app import main
sys.argv = ["mmdsl", "run", *json.loads(sys.stdin.read()), "-m", "armv8", "-q"]
try:
    main()
except SystemExit as exit:
    code = exit.code
print(json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""

NOT_IN_A_RUN = ["ortools", "graphviz", "dask", "rich", "hypothesis", "typer", "pydantic", "click", "textx",
                "mmdsl.suite.console", "mmdsl.explorer", "mmdsl.fences"]


def test_the_mmdsl_command_runs_many_tests_without_typer_rich_or_solvers(tmp_path):
    """`mmdsl run FILES -m armv8 -q` as the console script runs it (``app.main``), on 101 tests
    (past the progress bar's 40 and the verdict matrix's 100), the second time with its model
    in the disk cache: no typer or pydantic (run_main reads the command line), no rich (the
    summary is plain off a terminal), no textX (the cached model), no solver, graphviz or dask."""
    files = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "litmus/aarch64/tests").rglob("*.litmus"))[:101]
    env = {"PATH": "/usr/bin:/bin", "XDG_CACHE_HOME": str(tmp_path)}
    for _ in range(2):
        out = subprocess.run([sys.executable, "-c", MAIN_PROBE], cwd=ROOT, input=json.dumps(files),
                             capture_output=True, text=True, timeout=120, env=env)
        last = json.loads(out.stdout.strip().splitlines()[-1])
    assert last["code"] in (0, None), out.stderr
    assert "armv8: " in out.stdout and "101 test(s) x 1 model(s)" in out.stdout
    modules = last["modules"]
    loaded = [m for m in NOT_IN_A_RUN if m in modules or any(x.startswith(m + ".") for x in modules)]
    assert loaded == [], f"`mmdsl run` on 101 tests imports {loaded}"
