"""`mmdsl run -o DIR -show MODE`: herd's output of one .dot file per test with the executions -show selects.

herd7 writes ``DIR/TEST.dot`` for each test, holding one graph per execution its
``-show`` mode selects among the executions the model lets through (allowed ones; every
candidate under ``-through all``), in herd's order of modes:

* ``prop``: those whose final state satisfies the condition's proposition;
* ``neg``: those whose final state does not;
* ``cond``: as prop for ``exists`` and ``forall``, as neg for ``~exists``;
* ``wit``: as prop for ``exists`` and ``~exists``, as neg for ``forall``;
* ``all``: every one; ``none`` (herd's default): none, and no file is written.

A test with no execution to show gets no file (as herd). With several models
(``-m A -m B``) the files go into ``DIR/MODEL/``. The graphs are mmdsl's drawings
(``render.dot_execution``), one ``digraph`` each, in the checker's order.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ..core.errors import MmdslError
from ..core.outfiles import safe_stem
from ..lang.herd_options import SHOW_MODES
from .styles import SCREEN


def check_show(mode: str) -> str:
    if mode not in SHOW_MODES:
        raise MmdslError(f"unknown -show '{mode}'", expected=", ".join(SHOW_MODES))
    return mode


def shown(mode: str, quantifier: str, holds: bool) -> bool:
    """Whether an allowed execution is shown: herd's top_herd ``show_exec``, ``holds`` its ``ok``."""
    if mode == "prop":
        return holds
    if mode == "neg":
        return not holds
    if mode == "cond":
        return holds if quantifier in ("exists", "forall") else not holds
    if mode == "wit":
        return holds if quantifier in ("exists", "~exists") else not holds
    return mode == "all"


class HerdDotOutput:
    """Writes ``DIR/TEST.dot`` (``DIR/MODEL/TEST.dot`` with several models) per run item."""

    def __init__(self, outdir: str | Path, show: str, models: list[str]):
        self.outdir = Path(outdir)
        self.show = check_show(show)
        self.per_model = len(models) > 1
        self.written = 0

    def add(self, item) -> None:
        if item.result is None or self.show == "none":
            return
        from ..axiomatic import check
        from ..lang import load_model
        from ..litmus import load_litmus
        from .drawing import chosen_dots, require_loop_free
        from .execution_choice import Chosen

        program = load_litmus(item.path)
        model = load_model(item.model)
        require_loop_free(program)
        store = check(program, model, collect="allowed").stats["collected"]
        cond = program.condition
        chosen = []
        for x in store.allowed:
            holds = cond.prop.holds(x.final)
            if shown(self.show, cond.quantifier, holds):
                chosen.append(Chosen(program.name, x, "witness" if holds else "allowed"))
        if not chosen:
            return
        dots = chosen_dots(program, model, chosen, SCREEN)
        folder = self.outdir / safe_stem(model.name) if self.per_model else self.outdir
        try:
            folder.mkdir(parents=True, exist_ok=True)
            text = "".join(source if source.endswith("\n") else source + "\n" for _, source in dots)
            (folder / f"{safe_stem(program.name)}.dot").write_text(text, encoding="utf-8", errors="replace")
        except OSError as err:
            raise MmdslError(f"cannot write the .dot files into {folder}: {err.strerror or err}") from None
        self.written += 1

    def finish(self) -> None:
        if self.show == "none":
            print(f"-show none (herd's default): no .dot file written into {self.outdir}; "
                  "use -show prop (or neg, cond, wit, all)", file=sys.stderr)
            return
        print(f"wrote {self.written} .dot file(s) into {self.outdir}", file=sys.stderr)
