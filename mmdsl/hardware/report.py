"""The HTML report of hardware runs: per test, observed counts beside each model, forbidden ones flagged."""

from __future__ import annotations

from html import escape

from .compare import HwResult, harness_notes, summary_lines

_CSS = """
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.1em; margin: 1.4em 0 .3em; font-family: monospace; }
table { border-collapse: collapse; margin: .3em 0; }
th, td { border: 1px solid #ccc; padding: 2px 8px; text-align: right; }
td.state { text-align: left; font-family: monospace; }
td.allowed { color: #176b1c; } td.unseen { color: #888; }
td.forbidden { background: #ffd6e8; font-weight: bold; color: #7a0040; }
tr.witness td.state { font-weight: bold; }
.meta { color: #555; } .note { color: #8a5a00; }
pre.summary { background: #f8f8f8; padding: .6em; border-left: 3px solid #aaa; }
"""


def hw_html(results: list[HwResult], models: list[str]) -> str:
    """One self-contained page: a summary, then a table per test (observed states and never-observed
    allowed ones, a column per model: allowed, or FORBIDDEN when observed)."""
    body = [f"<h1>Litmus tests on this CPU: {len(results)} test(s), models {escape(', '.join(models) or 'none')}</h1>",
            '<pre class="summary">' + escape("\n".join(summary_lines(results, models))) + "</pre>"]
    for r in results:
        h, p = r.hist, r.program
        body.append(f"<h2>{escape(p.name)}</h2>")
        body.append(f'<p class="meta">{escape(p.condition.text())}: Observation {escape(r.observation)} '
                    f"{r.positive} {r.negative}; {h.iterations} iterations, {h.threads} threads on {h.cpus} "
                    f"core(s), {h.time:.2f} s</p>")
        body += [f'<p class="note">{escape(n)}</p>' for n in harness_notes(h)]
        head = "".join(f"<th>{escape(c.model)}</th>" for c in r.checks)
        rows = []
        states = sorted(set(h.states) | {s for c in r.checks for s in c.allowed})
        for s in states:
            count = h.states.get(s, 0)
            cls = ' class="witness"' if p.condition.prop.holds(s.as_dict()) else ""
            cells = []
            for c in r.checks:
                if s not in c.allowed:
                    cells.append('<td class="forbidden">FORBIDDEN</td>' if count else '<td>forbidden</td>')
                else:
                    cells.append('<td class="allowed">allowed</td>' if count else '<td class="unseen">allowed, unseen</td>')
            rows.append(f'<tr{cls}><td class="state">{escape(s.text())}</td><td>{count}</td>{"".join(cells)}</tr>')
        body.append(f"<table><thead><tr><th>final state</th><th>observed</th>{head}</tr></thead>"
                    f"<tbody>{''.join(rows)}</tbody></table>")
    return ("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>mmdsl hw</title>"
            f"<style>{_CSS}</style></head><body>{''.join(body)}</body></html>\n")
