"""Shared by the diagram tests: build one execution diagram of a bundled classic test."""

from __future__ import annotations

from pathlib import Path

from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus
from mmdsl.render.dot_execution import execution_dot
from mmdsl.render.execution_choice import choose_executions
from mmdsl.render.execution_view import execution_view
from mmdsl.render.styles import style_named

ROOT = Path(__file__).resolve().parents[2]
CLASSIC = ROOT / "litmus" / "classic"


def classic_view(test: str, model: str, show: str, *, index: int = 0, init: bool = False, fences=()):
    """The view of the index-th execution ``--show`` picks for litmus/classic/TEST under MODEL."""
    program = load_litmus(CLASSIC / f"{test}.litmus")
    m = load_model(model)
    chosen = choose_executions(program, m, show, max_count=index + 1).chosen[index]
    return execution_view(chosen.execution, m, test=program.name, status=chosen.status,
                          thread_names=[t.name for t in program.threads], condition=program.condition,
                          violations=chosen.violations, show_init=init, fences=list(fences))


def classic_dot(test: str, model: str, show: str, style: str = "screen", **kw) -> str:
    return execution_dot(classic_view(test, model, show, **kw), style_named(style))
