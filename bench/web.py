"""Benchmark: `mmdsl serve` -- a page load plus a classic test check, through the HTTP API.

Starts ``mmdsl serve --port 0`` as a process, then, over one keep-alive connection like a
browser's, replays what the page fetches when it opens (the HTML, its CSS and ES modules,
the suite and model lists, classic/SB.litmus and tso, the model check) and what Run
fetches for SB under tso (``/api/run`` and the witness diagram, ``/api/draw``). Prints the
first visit (--settle seconds after the URL is printed) and the median of --repeat warm rounds, in milliseconds,
against the issue's target of 300 ms. Run it from the repository root:
    .venv/bin/python bench/web.py [--repeat 20]
Not a timed test: our machines are shared.
"""

from __future__ import annotations

import argparse
import datetime
import http.client
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare_herd import cpu_name  # noqa: E402  (the bench scripts' one CPU-name reader)
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
TARGET_MS = 300
PAGE = ["/", "/static/style.css", "/static/main.js", "/static/dom.js", "/static/explorer.js", "/static/share.js",
        "/static/suite.js", "/api/tests", "/api/models", "/api/tests?suite=classic", "/api/tests/classic/SB.litmus",
        "/api/models/tso"]


def start_server() -> tuple[subprocess.Popen, str]:
    mmdsl = ROOT / ".venv" / "bin" / "mmdsl"
    cmd = [str(mmdsl)] if mmdsl.exists() else [sys.executable, "-m", "mmdsl"]
    proc = subprocess.Popen(cmd + ["serve", "--port", "0", "--quiet"], stdout=subprocess.PIPE, text=True, cwd=ROOT)
    line = proc.stdout.readline()
    url = next((w for w in line.split() if w.startswith("http://")), None)
    if url is None:
        proc.kill()
        raise SystemExit(f"mmdsl serve did not print its URL: {line!r}")
    return proc, url


def request(conn: http.client.HTTPConnection, method: str, path: str, body: dict | None = None) -> bytes:
    data = json.dumps(body).encode() if body is not None else None
    headers = {"content-type": "application/json"} if data is not None else {}
    conn.request(method, path, body=data, headers=headers)
    resp = conn.getresponse()
    out = resp.read()
    if resp.status != 200:
        raise SystemExit(f"{method} {path}: HTTP {resp.status}: {out[:300]!r}")
    return out


def one_round(conn: http.client.HTTPConnection) -> tuple[float, float]:
    """(page load ms, classic check ms) of one visit."""
    start = time.perf_counter()
    texts = {}
    for path in PAGE:
        out = request(conn, "GET", path)
        if path.startswith("/api/tests/") or path.startswith("/api/models/"):
            texts[path] = json.loads(out)["text"]
    payload = {"test_text": texts["/api/tests/classic/SB.litmus"], "test_name": "classic/SB.litmus",
               "model_text": texts["/api/models/tso"], "model_name": "tso.mm"}
    request(conn, "POST", "/api/check-model", {"model_text": payload["model_text"], "model_name": "tso.mm"})
    loaded = time.perf_counter()
    run = json.loads(request(conn, "POST", "/api/run", dict(payload, engine="axiomatic")))
    assert run["verdict"] == "Allowed", run
    drawn = json.loads(request(conn, "POST", "/api/draw", dict(payload, show="witness")))
    assert drawn["diagrams"][0]["svg"], drawn
    done = time.perf_counter()
    return (loaded - start) * 1000, (done - loaded) * 1000


def machine() -> str:
    cpu = cpu_name()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return f"{platform.node() or 'host'}: {cpu}, {os.cpu_count()} cores, load {load:.2f}, Python {platform.python_version()}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20, help="warm rounds (default 20)")
    parser.add_argument("--settle", type=float, default=2.0,
                        help="seconds between the printed URL and the first visit, as a user takes to open "
                             "it (the server warms its caches meanwhile; default 2, 0 for none)")
    args = parser.parse_args(argv)
    proc, url = start_server()
    try:
        parts = urlsplit(url)
        conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
        time.sleep(max(0.0, args.settle))
        cold = one_round(conn)
        warm = [one_round(conn) for _ in range(max(1, args.repeat))]
    finally:
        proc.terminate()
        proc.wait(10)
    print("# mmdsl serve: page load + classic check (SB under tso: run + witness diagram)")
    print(f"# {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, {machine()}")
    print("| round | page load ms | check ms | total ms |")
    print("|---|---|---|---|")
    print(f"| first, {args.settle:g} s after start | {cold[0]:.0f} | {cold[1]:.0f} | {sum(cold):.0f} |")
    page = statistics.median(w[0] for w in warm)
    check = statistics.median(w[1] for w in warm)
    total = statistics.median(sum(w) for w in warm)
    print(f"| median of {len(warm)} warm | {page:.0f} | {check:.0f} | {total:.0f} |")
    verdict = "met" if total < TARGET_MS else "NOT met"
    print(f"target < {TARGET_MS} ms for a warm page load plus check: {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
