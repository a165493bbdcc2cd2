"""Hostile requests to `mmdsl serve`: oversized bodies, markup in names, runaway checks, path
traversal in bundled names, malformed JSON, unknown sessions -- each a clean JSON error."""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import pytest

pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx (pip install -e '.[test]')")

with warnings.catch_warnings():  # Starlette 1.x prefers httpx2 and warns about httpx
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from mmdsl.web.app import create_app
from web.browser import big_test
from mmdsl.web.inputs import MAX_BODY_BYTES
from mmdsl.web.stepping import Sessions

REPO = Path(__file__).resolve().parents[2]
SB = {"test_name": "classic/SB.litmus", "model_name": "tso"}
EVIL = '<script>alert("x")</script>'


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(timeout=30)) as c:
        yield c


def test_an_oversized_body_is_refused_unread(client):
    res = client.post("/api/run", content=b"x" * (MAX_BODY_BYTES + 1), headers={"content-type": "application/json"})
    assert res.status_code == 413
    assert res.json()["errors"][0]["error"] == "too large"


def test_an_oversized_chunked_body_is_cut_off(client):
    def chunks():
        for _ in range(MAX_BODY_BYTES // 4096 + 2):
            yield b" " * 4096

    res = client.post("/api/check-model", content=chunks(), headers={"content-type": "application/json"})
    assert res.status_code == 413


@pytest.mark.parametrize("body", [b"not json", b"[1, 2]", b"\xff\xfe", b"[" * 100000])
def test_a_body_that_is_not_a_json_object(client, body):
    res = client.post("/api/run", content=body, headers={"content-type": "application/json"})
    assert res.status_code == 422
    assert "JSON" in res.json()["errors"][0]["message"]


@pytest.mark.parametrize("kind", [None, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data"])
def test_a_post_not_declared_json_is_refused(client, kind):
    """What a cross-site form or a "simple" fetch can send without a CORS preflight."""
    headers = {"content-type": kind} if kind else {}
    res = client.post("/api/run", content=b'{"test_name": "classic/SB.litmus", "model_name": "tso"}', headers=headers)
    assert res.status_code == 415


def test_a_host_header_of_another_name_is_refused():
    """A site whose name was rebound to 127.0.0.1 (DNS rebinding) is not served."""
    from mmdsl.web.server import allowed_hosts

    with TestClient(create_app(allowed_hosts=allowed_hosts("127.0.0.1")), base_url="http://127.0.0.1:8000") as c:
        assert c.get("/api/models").status_code == 200
        assert c.get("/api/models", headers={"host": "localhost:8000"}).status_code == 200
        assert c.get("/api/models", headers={"host": "evil.example:8000"}).status_code == 400
        assert c.post("/api/run", json=SB, headers={"host": "evil.example"}).status_code == 400


@pytest.mark.parametrize("payload", [{"test_text": 3, "model_name": "tso"}, {"test_name": ["x"], "model_name": "tso"},
                                     {"test_name": "classic/SB.litmus", "model_name": {"a": 1}},
                                     {**SB, "engine": "rm -rf"}, {**SB, "show": 7}, {**SB, "max": 10 ** 9}])
def test_wrong_types_are_errors(client, payload):
    path = "/api/draw" if "show" in payload or "max" in payload else "/api/run"
    res = client.post(path, json=payload)
    assert res.status_code == 422, res.text
    assert res.json()["errors"]


@pytest.mark.parametrize("name", ["../pyproject.toml", "classic/../../pyproject.toml", "%2e%2e/pyproject.toml",
                                  "classic/%2e%2e/%2e%2e/README.md", "..%2F..%2Fetc%2Fpasswd", "/etc/passwd",
                                  "classic/ORIGIN.md", "classic", "classic/SB.litmus%00.md"])
def test_only_bundled_tests_are_served(client, name):
    res = client.get(f"/api/tests/{name}")
    assert res.status_code == 404
    assert "root:" not in res.text and "[project]" not in res.text


@pytest.mark.parametrize("path", ["/static/../app.py", "/static/%2e%2e/app.py", "/static/..%2Fapp.py",
                                  "/static/%2e%2e/%2e%2e/%2e%2e/pyproject.toml", "/static//etc/passwd"])
def test_static_files_stay_in_their_folder(client, path):
    res = client.get(path)
    assert res.status_code == 404 and "import" not in res.text and "root:" not in res.text


@pytest.mark.parametrize("name", ["../pyproject", "..%2Fpyproject.toml", "%2Fetc%2Fpasswd", "tso.mm%00"])
def test_only_bundled_models_are_served(client, name):
    assert client.get(f"/api/models/{name}").status_code == 404


@pytest.mark.parametrize("payload", [
    {"test_name": "../pyproject.toml", "model_name": "tso"},
    {"test_name": "/etc/passwd", "model_name": "tso"},
    {"test_name": str(REPO / "litmus" / "classic" / "SB.litmus"), "model_name": "tso"},
    {"test_name": "classic/SB.litmus", "model_name": "/etc/passwd"},
    {"test_name": "classic/SB.litmus", "model_name": "../models/tso"},
    {"test_name": "classic/SB.litmus", "model_name": str(REPO / "models" / "tso.mm")},
])
def test_names_in_requests_reach_bundled_files_only(client, payload):
    res = client.post("/api/run", json=payload)
    assert res.status_code == 404
    assert "root:" not in res.text


@pytest.mark.parametrize("suite", ["..", "../models", ".", "classic/..", "/etc"])
def test_suite_names_are_bundled_folders_only(client, suite):
    assert client.get("/api/suite", params={"suite": suite}).status_code == 404
    assert client.get("/api/tests", params={"suite": suite}).status_code == 404


def test_a_typed_model_cannot_include_a_file_by_path(client):
    for target in ("/etc/passwd", "../../etc/passwd", str(REPO / "models" / "tso.mm"), "../models/tso"):
        body = client.post("/api/check-model", json={"model_text": f'model x\ninclude "{target}"\n'}).json()
        assert not body["ok"]
        assert body["errors"][0]["line"] == 2 and "not found" in body["errors"][0]["message"]
        assert "root:" not in str(body)
    ok = client.post("/api/check-model", json={"model_text": 'model x\ninclude "tso"\n'}).json()
    assert ok["ok"], ok


def test_markup_in_test_and_model_names_stays_text(client):
    title = EVIL.replace('"', "'")  # a test name has no double quote, a model title is a double-quoted string
    test = client.get("/api/tests/classic/SB.litmus").json()["text"].replace("X86 SB", f"X86 SB{title}", 1)
    model = client.get("/api/models/tso").json()["text"].replace('"Total Store Order', f'"{title} Total', 1)
    payload = {"test_text": test, "test_name": f'{EVIL}".litmus', "model_text": model, "model_name": f"{EVIL}.mm"}
    res = client.post("/api/run", json=payload)
    assert res.status_code == 200, res.text
    assert res.headers["content-type"].startswith("application/json")
    assert res.json()["test"] == f"SB{title}"  # data in JSON; the page shows it with textContent
    drawn = client.post("/api/draw", json=payload).json()
    assert drawn["diagrams"] and re.fullmatch(r"[A-Za-z0-9_.+-]+", drawn["diagrams"][0]["stem"])  # a safe file stem
    for d in drawn["diagrams"]:
        assert "<script" not in d["svg"] and "&lt;script&gt;" in d["svg"]  # graphviz escapes it
    checked = client.post("/api/check-model", json={"model_text": model, "model_name": f"{EVIL}.mm"}).json()
    assert checked["ok"] and title in checked["title"]


def test_a_runaway_check_is_cut_by_the_time_limit_and_the_server_goes_on():
    with TestClient(create_app(timeout=0.5)) as slow:
        res = slow.post("/api/run", json={"test_text": big_test(), "model_name": "tso"})
        assert res.status_code == 503
        assert "timed out after 0.5 s" in res.json()["errors"][0]["message"]
        assert slow.post("/api/run", json=SB).json()["verdict"] == "Allowed"


def test_a_deeply_nested_model_is_a_located_error(client):
    text = "model deep\nlet r = " + "(" * 20000 + "po" + ")" * 20000 + "\n"
    body = client.post("/api/check-model", json={"model_text": text}).json()
    assert not body["ok"] and body["errors"][0]["line"]


def test_unknown_sessions_and_moves(client):
    assert client.post("/api/explore/nope/step", json={"index": 0}).status_code == 404
    assert client.post("/api/explore/..%2F..%2Fetc/view", json={}).status_code == 404
    sid = client.post("/api/explore", json=SB).json()["session"]
    assert client.post(f"/api/explore/{sid}/jump", json={}).status_code == 404
    for index in (-1, 99, "0", None, True):
        assert client.post(f"/api/explore/{sid}/step", json={"index": index}).status_code == 422


def test_sessions_are_bounded_in_number_and_age():
    sessions = Sessions(max_sessions=3, max_age=1000)
    ids = [sessions.add(object()) for _ in range(5)]
    assert len(sessions) == 3
    with pytest.raises(Exception):
        sessions.get(ids[0])
    sessions.get(ids[4])
    old = Sessions(max_sessions=3, max_age=0)
    sid = old.add(object())
    with pytest.raises(Exception):
        old.get(sid)


def test_cancel_stops_the_work_under_way_and_the_server_goes_on():
    import threading
    import time

    with TestClient(create_app(timeout=60)) as c:
        assert c.post("/api/cancel", json={}).json() == {"cancelled": False}  # nothing under way
        answer = {}

        def long_run():
            answer["res"] = c.post("/api/run", json={"test_text": big_test(), "model_name": "tso"})

        worker = threading.Thread(target=long_run)
        started = time.monotonic()
        worker.start()
        for _ in range(100):  # until the check is under way
            time.sleep(0.1)
            if c.post("/api/cancel", json={}).json()["cancelled"]:
                break
        worker.join(120)
        assert time.monotonic() - started < 100  # wall-clock: cancelled, not run to its end
        res = answer["res"]
        assert res.status_code == 409
        assert res.json()["errors"][0]["error"] == "cancelled"
        assert c.post("/api/run", json=SB).json()["verdict"] == "Allowed"
