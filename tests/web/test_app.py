"""The workbench app through Starlette's TestClient: each endpoint answers what the CLI prints."""

from __future__ import annotations

import json
import warnings

import pytest

pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx (pip install -e '.[test]')")

with warnings.catch_warnings():  # Starlette 1.x prefers httpx2 and warns about httpx
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from mmdsl.web.app import create_app  # noqa: E402

SB = {"test_name": "classic/SB.litmus", "model_name": "tso"}


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(timeout=30)) as c:
        yield c


def test_lists_the_bundled_suites_tests_and_models(client):
    suites = {s["suite"]: s["count"] for s in client.get("/api/tests").json()["suites"]}
    assert suites["classic"] > 20 and "x86" in suites
    tests = client.get("/api/tests", params={"suite": "classic"}).json()["tests"]
    assert "classic/SB.litmus" in tests and all(t.startswith("classic/") for t in tests)
    models = {m["name"] for m in client.get("/api/models").json()["models"]}
    assert {"sc", "tso", "pso", "rmo"} <= models


def test_serves_bundled_texts(client):
    assert client.get("/api/tests/classic/SB.litmus").json()["text"].startswith("X86 SB")
    assert client.get("/api/models/tso").json()["text"].startswith("model tso")


def test_run_allowed_is_herds_block(client):
    res = client.post("/api/run", json=SB).json()
    assert res["verdict"] == "Allowed"
    assert "Observation SB Sometimes 1 3" in res["herd"]
    assert len(res["result"]["states"]) == 4


def test_run_forbidden_names_the_axiom_and_its_cycle(client):
    res = client.post("/api/run", json=dict(SB, model_name="sc")).json()
    assert res["verdict"] == "Forbidden"
    violation = res["result"]["why"][0]["violations"][0]
    assert violation["axiom"] == "sc" and len(violation["cycle"]) == 4
    assert "cycle a:Wx=1" in res["why"]


def test_run_typed_texts_and_the_explorer_engine(client):
    test = client.get("/api/tests/classic/MP.litmus").json()["text"]
    model = client.get("/api/models/pso").json()["text"]
    for engine in ("axiomatic", "explorer", "both"):
        res = client.post("/api/run", json={"test_text": test, "model_text": model, "engine": engine})
        assert res.status_code == 200, res.text
        assert res.json()["verdict"] == "Allowed"


def test_check_model_reports_each_error_at_line_and_column(client):
    res = client.post("/api/check-model", json={"model_text": "model x\nreorder {\n  R W\n R - -\n W Y oops\n}\n"})
    assert res.status_code == 200
    body = res.json()
    assert body["ok"] is False
    assert [(e["line"], e["column"]) for e in body["errors"]] == [(5, 6)]
    ok = client.post("/api/check-model", json={"model_name": "tso"}).json()
    assert ok["ok"] and ok["name"] == "tso" and "Ld" in ok["summary"]


def test_check_model_syntax_error_is_located(client):
    text = client.get("/api/models/sc").json()["text"].splitlines()
    text.append("axiom broken : acyclic (po | ")
    text.append("")
    body = client.post("/api/check-model", json={"model_text": "\n".join(text)}).json()
    assert not body["ok"] and body["errors"][0]["line"] in (len(text) - 1, len(text))
    assert "syntax error" in body["errors"][0]["message"]


def test_draw_gives_the_svg_of_draw(client):
    res = client.post("/api/draw", json=SB).json()
    [d] = res["diagrams"]
    assert d["status"] == "witness" and d["stem"] == "SB"
    assert d["svg"].count('class="node event') == 4
    assert d["dot"].startswith("digraph")
    paper = client.post("/api/draw", json=dict(SB, style="paper")).json()["diagrams"][0]["dot"]
    assert paper != d["dot"]
    forbidden = client.post("/api/draw", json=dict(SB, model_name="sc", show="forbidden")).json()
    assert forbidden["diagrams"][0]["status"] == "forbidden"
    none = client.post("/api/draw", json=dict(SB, model_name="sc")).json()
    assert none["diagrams"] == [] and "no allowed execution" in none["messages"][0]


def test_draw_the_state_graph_of_a_small_test(client):
    res = client.post("/api/draw", json=dict(SB, show="states")).json()
    [d] = res["diagrams"]
    assert d["stem"] == "SB-states" and d["svg"].startswith("<?xml")
    big = client.post("/api/draw", json={"test_name": "programs/peterson.litmus", "model_name": "tso", "show": "states"})
    assert big.json()["diagrams"] == [] and "too many to draw" in big.json()["messages"][0]


def test_draw_pdf(client):
    res = client.post("/api/draw?format=pdf", json=SB)
    assert res.status_code == 200 and res.content.startswith(b"%PDF")


def test_fences_and_the_fenced_test(client):
    res = client.post("/api/fences", json=SB).json()
    assert res["solved"] and "Total 2 fence(s), cost 6" in res["text"]
    assert res["fenced_test"].count("MFENCE") == 2


def test_explorer_steps_back_forward_and_runs_to_the_outcome(client):
    view = client.post("/api/explore", json=SB).json()
    sid = view["session"]
    assert [t["label"] for t in view["transitions"]] == ["P0: issue x = 1", "P1: issue y = 1"]
    assert view["transitions"][0]["enabled_by"] == ["program order: the thread's next instruction"]
    view = client.post(f"/api/explore/{sid}/step", json={"index": 0}).json()
    assert view["state"]["threads"][0]["pending"] == ["W x=1"] and view["position"] == 1
    view = client.post(f"/api/explore/{sid}/step", json={"index": 0}).json()  # P0 issues the read of y
    read = next(t for t in view["transitions"] if t["label"].startswith("P0: perform R y"))
    assert read["out_of_order"]
    assert any("table cell St -> Ld is 'Y'" in w for w in read["enabled_by"])
    back = client.post(f"/api/explore/{sid}/back", json={}).json()
    assert back["position"] == 1
    assert client.post(f"/api/explore/{sid}/forward", json={}).json()["position"] == 2
    done = client.post(f"/api/explore/{sid}/outcome", json={}).json()
    assert done["status"] == "final" and done["final"]["satisfies"]
    assert done["final"]["state"] == "0:EAX=0; 1:EAX=0;"
    assert "shortest trace" in done["note"] and len(done["history"]) == done["position"]


def test_explorer_outcome_unreachable_says_so(client):
    sid = client.post("/api/explore", json=dict(SB, model_name="sc")).json()["session"]
    view = client.post(f"/api/explore/{sid}/outcome", json={}).json()
    assert "no reachable state reaches the outcome" in view["note"]


def _events(res) -> list[tuple[str, dict]]:
    out, kind = [], None
    for line in res.iter_lines():
        if line.startswith("event: "):
            kind = line[7:]
        elif line.startswith("data: "):
            out.append((kind, json.loads(line[6:])))
    return out


def test_suite_streams_each_cell_then_the_outcomes_and_reports(client):
    params = [("suite", "classic"), ("model", "sc"), ("model", "tso")]
    with client.stream("GET", "/api/suite", params=params) as res:
        assert res.headers["content-type"].startswith("text/event-stream")
        events = _events(res)
    kinds = [k for k, _ in events]
    start, done = events[0][1], events[-1][1]
    assert kinds[0] == "start" and kinds[-1] == "done"
    assert start["models"] == ["sc", "tso"]
    assert {"key": "SB", "name": "classic/SB.litmus"} in start["tests"]
    assert kinds.count("cell") == 2 * len(start["tests"])
    cells = {(d["test"], d["model"]): d["text"] for k, d in events if k == "cell"}
    assert cells[("SB", "sc")] == "Forbidden" and cells[("SB", "tso")] == "Allowed"
    assert done["counts"] == {"held": 2 * len(start["tests"])}  # the manifest's expected verdicts
    csv = client.get(f"/api/suite/{done['run']}/report", params={"format": "csv"})
    assert csv.status_code == 200 and "SB" in csv.text
    assert csv.headers["content-disposition"].startswith("attachment")
    html = client.get(f"/api/suite/{done['run']}/report", params={"format": "html"})
    assert html.status_code == 200 and "<table" in html.text
    assert client.get("/api/suite/nope/report").status_code == 404


def test_suite_without_models_runs_the_suites_own(client):
    with client.stream("GET", "/api/suite", params={"suite": "fences"}) as res:
        events = _events(res)
    assert events[-1][0] == "done", events[-1]
    assert events[0][1]["models"]


def test_security_headers_and_the_page(client):
    res = client.get("/")
    assert res.status_code == 200 and 'src="/static/main.js"' in res.text
    assert "script-src 'self'" in res.headers["content-security-policy"]
    assert client.get("/static/main.js").headers["content-type"].startswith(("text/javascript",
                                                                              "application/javascript"))


def test_explorer_says_a_forwarded_read_is_enabled_by_forwarding(client):
    test = "X86 FWD\n{ }\n P0          ;\n MOV [x],$1  ;\n MOV EAX,[x] ;\nexists (0:EAX=1)\n"
    view = client.post("/api/explore", json={"test_text": test, "model_name": "tso"}).json()
    sid = view["session"]
    for label in ("P0: issue x = 1", "P0: issue EAX = x"):
        index = next(t["index"] for t in view["transitions"] if t["label"] == label)
        view = client.post(f"/api/explore/{sid}/step", json={"index": index}).json()
    read = next(t for t in view["transitions"] if t["label"].startswith("P0: perform R x=1"))
    assert read["enabled_by"] == ["forwarding: takes its value from its own pending W x=1"]
