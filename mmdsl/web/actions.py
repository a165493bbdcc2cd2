"""The web app's operations: each calls the API the CLI calls (check-model, run, draw, fences)
and returns a JSON-ready dict; the app adds the HTTP around them."""

from __future__ import annotations

from ..core.errors import MmdslError
from .inputs import load_inputs, load_request_model

MAX_DRAWN = 10  # executions drawn per request (`mmdsl draw --max`)
MAX_GRAPH_STATES = 300  # the largest explored state graph drawn (`mmdsl draw --state-graph --max-states`)


def check_model(payload: dict) -> dict:
    """``mmdsl check-model`` on a typed model: its summary, or every error with line and column."""
    from ..render.json_out import model_dict
    from ..render.model_text import model_text

    try:
        model = load_request_model(payload)
    except MmdslError as err:
        return {"ok": False, "errors": errors_of(err)}
    return {"ok": True, "name": model.name, "title": model.title, "summary": model_text(model),
            "model": model_dict(model), "errors": []}


def run(payload: dict) -> dict:
    """``mmdsl run --why`` of one test under one model: herd's block, the verdict, the final states,
    and for a forbidden outcome the violated axiom with its cycle."""
    from ..render.herd_text import herd_block, why_text
    from ..render.json_out import result_dict
    from ..suite.runner import check_engine, check_with

    engine = payload.get("engine") or "axiomatic"
    if not isinstance(engine, str):
        raise MmdslError("'engine' must be text")
    check_engine(engine)
    why = engine != "explorer"
    inputs = load_inputs(payload)
    result = check_with(inputs.program, inputs.model, engine, why=why)
    return {"test": result.test, "model": result.model, "verdict": result.verdict,
            "herd": herd_block(result), "why": why_text(result) if why else "",
            "result": result_dict(result, why), "warnings": list(result.warnings)}


def draw(payload: dict) -> dict:
    """``mmdsl draw``: the chosen executions as SVG (and their DOT), in the screen or paper style;
    with ``show="states"`` the explored state graph of a small test (``--state-graph``)."""
    from ..render.drawing import chosen_dots, require_loop_free
    from ..render.execution_choice import chosen_devices
    from ..render.execution_choice import choose_executions, cut_message, none_message
    from ..render.graphviz_out import INSTALL_HINT, render_text
    from ..render.styles import style_named

    show = _word(payload, "show", "witness")
    style = style_named(_word(payload, "style", "screen"))
    max_count = payload.get("max", MAX_DRAWN)
    if not isinstance(max_count, int) or isinstance(max_count, bool) or not 1 <= max_count <= MAX_DRAWN:
        raise MmdslError("'max' must be a whole number", expected=f"1 to {MAX_DRAWN}")
    inputs = load_inputs(payload)
    program, model = inputs.program, inputs.model
    if show == "states":
        return _state_graph(program, model, style, bool(payload.get("fences")))
    require_loop_free(program)
    messages = []
    insertions, dependencies = [], []
    if payload.get("fences"):
        insertions, dependencies, line = chosen_devices(program, model)
        messages.append(line)
    choice = choose_executions(program, model, show, max_count)
    if not choice.chosen:
        messages.append(none_message(program, model, show, choice))
    elif choice.cut:
        messages.append(cut_message(choice, max_count))
    diagrams = []
    dots = chosen_dots(program, model, choice.chosen, style, init=bool(payload.get("init")), insertions=insertions,
                       dependencies=dependencies)
    for c, (stem, dot) in zip(choice.chosen, dots):
        svg = render_text(dot, "svg")
        if svg is None:
            messages.append(INSTALL_HINT)
        diagrams.append({"stem": stem, "status": c.status, "dot": dot,
                         "svg": svg.decode("utf-8", "replace") if svg is not None else None})
    return {"test": program.name, "model": model.name, "show": show, "diagrams": diagrams, "messages": messages}


def _state_graph(program, model, style, fences: bool) -> dict:
    from ..core.outfiles import safe_stem
    from ..render.graphviz_out import INSTALL_HINT, render_text
    from ..render.state_graph_drawing import state_graph_source

    source, messages = state_graph_source(program, model, style, max_states=MAX_GRAPH_STATES, fences=fences)
    diagrams = []
    if source is not None:
        svg = render_text(source, "svg")
        if svg is None:
            messages.append(INSTALL_HINT)
        diagrams.append({"stem": f"{safe_stem(program.name)}-states", "status": "state graph", "dot": source,
                         "svg": svg.decode("utf-8", "replace") if svg is not None else None})
    return {"test": program.name, "model": model.name, "show": "states", "diagrams": diagrams,
            "messages": [m.replace("--max-states N", "mmdsl draw --state-graph --max-states N") for m in messages]}


def draw_pdf(payload: dict) -> tuple[bytes, str]:
    """One drawn execution (``index``) as PDF bytes, and its file stem."""
    from ..render.graphviz_out import render_text

    index = payload.get("index", 0)
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < MAX_DRAWN:
        raise MmdslError("'index' must be a whole number", expected=f"0 to {MAX_DRAWN - 1}")
    drawn = draw(dict(payload, max=index + 1))["diagrams"]
    if index >= len(drawn):
        raise MmdslError(f"there is no diagram {index + 1}: {len(drawn)} drawn")
    pdf = render_text(drawn[index]["dot"], "pdf")
    if pdf is None:
        raise MmdslError("Graphviz's `dot` is not installed: no PDF")
    return pdf, drawn[index]["stem"]


def fences(payload: dict, time_limit: float | None = None) -> dict:
    """``mmdsl fences``: the cheapest fences forbidding the outcome, and the test text with them."""
    from ..fences import FenceOptions, select_fences
    from ..fences.solver import FEASIBLE, OPTIMAL
    from ..fences.writer import fenced_source
    from ..lang.fence_use import fence_warnings
    from ..render.fences_text import selection_dict, selection_text

    target = _word(payload, "target", "outcome")
    inputs = load_inputs(payload)
    program, model = inputs.program, inputs.model
    sel = select_fences(program, model, FenceOptions(target=target, time_limit=time_limit))
    solved = sel.status in (OPTIMAL, FEASIBLE)
    out = {"test": program.name, "model": model.name, "text": selection_text(sel, show_time=False),
           "selection": selection_dict(sel), "warnings": fence_warnings(program, model),
           "solved": solved, "fenced_test": None}
    if solved and sel.fences:
        try:
            out["fenced_test"] = fenced_source(program, sel.fences)
        except MmdslError as err:
            out["warnings"].append(str(err))
    return out


def errors_of(err: MmdslError) -> list[dict]:
    """Every error an exception carries (a model's ModelErrors holds several), as JSON."""
    from ..render.json_out import error_dict

    return [error_dict(e) for e in getattr(err, "errors", None) or [err]]


def _word(payload: dict, key: str, default: str) -> str:
    v = payload.get(key, default)
    if not isinstance(v, str) or len(v) > 40:
        raise MmdslError(f"'{key}' must be a short word")
    return v
