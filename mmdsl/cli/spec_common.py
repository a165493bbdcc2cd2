"""``--spec serial`` for ``run`` and ``explore``: check each test under each model, print, set the exit code."""

from __future__ import annotations

import sys
from contextlib import nullcontext

import typer

from .common import EXIT_ERROR, EXIT_MISMATCH, EXIT_TIMEOUT


def run_spec(tests: list[str], models: list[str], spec: str, engine: str, as_json: bool, trace: bool,
             explorer_options: dict, timeout: float | None = None) -> None:
    """Print a block per (test, model); exit 1 when one is not serial, 2 on an error."""
    from ..core.errors import MmdslError
    from ..core.limits import within
    from ..explorer.spec import PASS, check_spec
    from ..lang import load_model
    from ..litmus import load_litmus
    from ..render.spec_text import spec_dict, spec_text

    results, errors = [], []
    loaded = {m: load_model(m) for m in models}
    for test in tests:
        for name, model in loaded.items():
            try:
                limit = within(timeout, f"checking {test} under {name} against --spec {spec}") if timeout \
                    else nullcontext()  # explore: the command's own --timeout holds the whole run
                with limit:
                    program = load_litmus(test)
                    opts = explorer_options if engine == "explorer" else {}
                    res = check_spec(program, model, spec, engine, **opts)
            except MmdslError as err:
                errors.append((test, name, err))
                if not as_json:
                    print(str(err), file=sys.stderr)
                continue
            results.append(res)
            if not as_json:
                if len(models) > 1:
                    print(f"Model {name}")
                print(spec_text(res, trace))
    if not as_json and len(results) + len(errors) > 1:
        verdicts = [r.verdict for r in results]
        print(f"{len(tests)} test(s) x {len(models)} model(s): " + ", ".join(
            f"{verdicts.count(v)} {v.lower()}" for v in ("Pass", "Fail", "Bound")) + f", {len(errors)} error(s)")
    if as_json:
        from ..render.json_out import dumps, error_dict

        print(dumps({"results": [spec_dict(r) for r in results],
                     "errors": [dict(error_dict(e, t), model=m) for t, m, e in errors]}))
    from ..core.limits import TimeLimitError

    if any(not isinstance(e, TimeLimitError) for _, _, e in errors):
        raise typer.Exit(EXIT_ERROR)
    if errors:
        raise typer.Exit(EXIT_TIMEOUT)
    if any(r.verdict != PASS for r in results):
        raise typer.Exit(EXIT_MISMATCH)
