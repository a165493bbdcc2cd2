"""Fuzz the command line with mutated tests, models and manifests: a clean exit or a located error.

Each example is a batch of mutated inputs, each run through the real CLI (``mmdsl run``,
``draw``, ``fences``, ``explore``, ``check-model``, ``suite``) in a subprocess under a
memory limit and a wall-clock limit per command (``fuzz_sandbox.py``). Every command must
exit 0 (or 1 where it documents 1: a suite's mismatches), or exit 2 with an error naming
``file:line:col``; never a traceback, never past the limits.

The run is deterministic (``derandomize=True``) and small enough for CI. A longer run:
``MMDSL_FUZZ_EXAMPLES=200 .venv/bin/python -m pytest tests/hostile/test_fuzz.py`` (the
number of batches per test; each batch holds ``BATCH`` inputs), or ``-m slow`` for the
larger fixed run. A failure prints each offending command with its input files.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fuzz_mutations import LITMUS, MODELS, litmus_seeds, manifest_seeds, model_seeds, mutated  # noqa: E402
from fuzz_sandbox import Job, problems, run_jobs  # noqa: E402

EXAMPLES = int(os.environ.get("MMDSL_FUZZ_EXAMPLES", "10"))
SLOW_EXAMPLES = 15
BATCH = 8

LITMUS_SEEDS = litmus_seeds()
MODEL_SEEDS = model_seeds()
MANIFEST_SEEDS = manifest_seeds()

LITMUS_COMMANDS = [
    ["run", "{f}", "-m", "sc"],
    ["run", "{f}", "-m", "tso", "--why"],
    ["run", "{f}", "-m", "rmo", "--json"],
    ["run", "{f}", "-m", "pso", "-e", "both"],
    ["draw", "{f}", "-m", "tso", "-o", "out", "-f", "dot", "--max", "2"],
    ["fences", "{f}", "-m", "tso", "--time-limit", "5", "--max-states", "20000"],  # 1: no fence can help
    ["explore", "{f}", "-m", "pso", "--max-states", "20000", "--json"],
    ["fences", "{f}", "-m", "pso", "--time-limit", "5", "--max-states", "20000", "-o", "fenced.litmus"],
    ["run", "{f}", "-m", "rmo", "--draw", "d", "--draw-format", "dot", "-q"],
]
MODEL_COMMANDS = [
    ["check-model", "{f}"],
    ["run", "SB.litmus", "MP.litmus", "-m", "{f}"],
    ["run", "MP.litmus", "-m", "{f}", "-e", "explorer"],
    ["fences", "SB.litmus", "-m", "{f}", "--time-limit", "5"],  # 1: no fence can help
    ["draw", "MP.litmus", "-m", "{f}", "-o", "out", "-f", "dot"],
]
SUITE_COMMANDS = [  # a suite bounds each cell itself: --timeout well below the sandbox's limit
    ["suite", "{f}", "--executor", "inline"],
    ["suite", "{f}", "--executor", "inline", "--json"],
    ["suite", "{f}", "-j", "1", "--report", "md", "-o", "report.md"],
    ["suite", "{f}", "--executor", "inline", "--draw", "d", "--draw-format", "dot", "--report", "html", "-o", "r.html"],
]
CELL_TIMEOUT = "5"  # seconds, for every command that has --timeout (a hang is then a bug of that option)


def _timeout_options() -> set[str]:
    """The commands that take --timeout (issue 9 item 7 adds it to run, explore, fences and draw)."""
    import typer.main

    from mmdsl.cli.app import app

    group = typer.main.get_command(app)
    return {name for name, cmd in group.commands.items()
            if any("--timeout" in p.opts for p in cmd.params)}


TIMEOUT_COMMANDS = _timeout_options()


def _command(template: list[str], f: str) -> list[str]:
    args = [a.format(f=f) for a in template]
    return args + (["--timeout", CELL_TIMEOUT] if args[0] in TIMEOUT_COMMANDS else [])


def _litmus_job(folder: Path, draw) -> Job:
    dialect = draw(st.sampled_from(sorted(LITMUS_SEEDS)))
    name, text = draw(st.sampled_from(LITMUS_SEEDS[dialect]))
    (folder / name).write_text(draw(mutated(text, dialect)))
    args = _command(draw(st.sampled_from(LITMUS_COMMANDS)), name)
    return _job(folder, args, [name])


def _model_job(folder: Path, draw) -> Job:
    for model in MODELS.glob("*.mm"):  # so that `include "tso.mm"` finds something
        shutil.copy(model, folder / model.name)
    shutil.copy(LITMUS / "classic" / "SB.litmus", folder / "SB.litmus")
    shutil.copy(LITMUS / "classic" / "lisa" / "MP.litmus", folder / "MP.litmus")
    name, text = draw(st.sampled_from(MODEL_SEEDS))
    (folder / "m.mm").write_text(draw(mutated(text, "model")))
    args = _command(draw(st.sampled_from(MODEL_COMMANDS)), "m.mm")
    return _job(folder, args, ["m.mm"])


def _suite_job(folder: Path, draw) -> Job:
    suite, text, files = draw(st.sampled_from(MANIFEST_SEEDS))
    for rel, content in files.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(content)
    manifest = folder / suite / "manifest.yaml"
    manifest.parent.mkdir(parents=True, exist_ok=True)
    manifest.write_text(draw(mutated(text, "manifest")))
    target = draw(st.sampled_from([suite, f"{suite}/manifest.yaml"]))
    args = _command(draw(st.sampled_from(SUITE_COMMANDS)), target)
    return _job(folder, args, [f"{suite}/manifest.yaml"])


def _job(folder: Path, args: list[str], inputs: list[str]) -> Job:
    """The exit codes a command documents: fences 1 (no fence can help, or no answer in time),
    suite 1 (a mismatch or a timeout), any command given --timeout 1 for a run it stopped.
    ``run --engine both`` documents 1 for two engines that disagree, but that is a wrong
    verdict in one of them, so here it is a failure."""
    ok = (0, 1, 2) if args[0] in ("fences", "suite") else (0, 2)
    return Job(str(folder), args, inputs, ok, timeout_exits_1="--timeout" in args)


MAKERS = {"litmus": _litmus_job, "model": _model_job, "manifest": _suite_job}


def _fuzz(kind: str, data) -> None:
    root = Path(tempfile.mkdtemp(prefix=f"mmdsl-fuzz-{kind}-"))
    jobs = []
    for i in range(BATCH):
        folder = root / str(i)
        folder.mkdir()
        jobs.append(MAKERS[kind](folder, data.draw))
    bad = [(o, p) for o in run_jobs(jobs) if (p := problems(o))]
    if bad:
        report = "\n\n".join(f"== {', '.join(p)}\n{o.describe()}" for o, p in bad)
        pytest.fail(f"{len(bad)} of {len(jobs)} fuzzed commands misbehaved (inputs kept in {root}):\n\n{report}",
                    pytrace=False)
    shutil.rmtree(root, ignore_errors=True)


def _settings(examples: int):
    return settings(max_examples=examples, derandomize=True, deadline=None, database=None,
                    phases=[Phase.explicit, Phase.generate],  # shrinking would rerun subprocesses for minutes
                    suppress_health_check=list(HealthCheck))


@pytest.mark.parametrize("kind", sorted(MAKERS))
@_settings(EXAMPLES)
@given(data=st.data())
def test_fuzzed_inputs_exit_cleanly(kind, data):
    _fuzz(kind, data)


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(MAKERS))
@_settings(SLOW_EXAMPLES)
@given(data=st.data())
def test_fuzzed_inputs_exit_cleanly_long_run(kind, data):
    _fuzz(kind, data)
