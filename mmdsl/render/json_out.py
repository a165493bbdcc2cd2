"""Machine-readable (JSON) forms of results, models and errors."""

from __future__ import annotations

import json

from ..core.condition import key_text
from ..core.errors import MmdslError
from ..core.outcome import TestResult
from ..lang.ir import CELL_MEANING, Model, render_expr
from .herd_text import reached_no_final_state


def result_dict(result: TestResult, why: bool = False) -> dict:
    d = {
        "test": result.test,
        "path": result.path,
        "model": result.model,
        "engine": result.engine,
        "kind": result.condition.quantifier,
        "condition": result.condition.text(),
        "states": [
            {"state": {key_text(k): v for k, v in state}, "executions": count}
            for state, count in sorted(result.states.items(), key=lambda kv: kv[0].text())
        ],
        "positive": result.positive,
        "negative": result.negative,
        "ok": result.ok,
        "observation": result.observation,
        "verdict": result.verdict,
        "candidates": result.candidates,
        "time": round(result.time, 4),
        "warnings": list(result.warnings),
        "no_final_state": reached_no_final_state(result),  # the verdict is about nothing (herd: States 0)
    }
    if result.flags:  # a cat model's flags that hold on some allowed execution (herd's Flag lines)
        d["flags"] = list(result.flags)
    if result.stats:
        d["stats"] = {k: v for k, v in result.stats.items() if isinstance(v, (int, float, str, bool, list, dict))}
    if why:
        d["why"] = [
            {
                "events": {e.label: e.short() for e in ex.execution.events if e.label},
                "violations": [
                    {"axiom": v.axiom, "test": v.test,
                     "cycle": [ex.execution.events[i].label for i in v.cycle], "edges": v.edges}
                    for v in ex.violations
                ],
            }
            for ex in result.why
        ]
    return d


def error_dict(err: MmdslError, path: str | None = None) -> dict:
    return {
        "error": err.kind,
        "message": err.message,
        "file": err.pos.file if err.pos else path,
        "line": err.pos.line if err.pos else None,
        "column": err.pos.col if err.pos else None,
        "expected": err.expected,
        "text": str(err),
    }


def model_dict(model: Model) -> dict:
    d = {
        "name": model.name,
        "title": model.title,
        "doc": model.doc,
        "path": model.path,
        "includes": model.includes,
        "classes": {n: render_expr(e) for n, e in model.classes.items()},
        "forwarding": model.forwarding,
        "dependencies": {
            "default": model.dependencies_pos is None,
            "relations": {r.name: [f"{render_expr(a)} * {render_expr(b)}" for a, b in r.pairs]
                          for r in model.dependencies},
        },
        "fences": [
            {"name": f.name, "aliases": f.aliases, "cost": f.cost, "doc": f.doc,
             "orders": [f"{render_expr(a)} * {render_expr(b)}" for a, b in f.orders]}
            for f in model.fences.values()
        ],
        "lets": [{"name": b.name, "expr": render_expr(b.expr), "rec": g.recursive}
                 for g in model.lets for b in g.bindings],
        "axioms": [{"name": a.name, "test": a.test, "negated": a.negated, "expr": render_expr(a.expr),
                    "default": a.default, "doc": a.doc} for a in model.axioms],
    }
    if model.table is not None:
        t = model.table
        d["table"] = {
            "rows": t.rows,
            "columns": t.cols,
            "cells": [[t.cells[(r, c)].value for c in t.cols] for r in t.rows],
            "legend": CELL_MEANING,
        }
    return d


def dumps(obj) -> str:
    return json.dumps(obj, indent=2, default=str)
