"""`mmdsl serve`: prints its URL, serves the page on loopback, refuses a port it cannot bind."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MMDSL = [sys.executable, "-m", "mmdsl"]


def test_serve_on_a_free_port_prints_its_url_and_answers():
    proc = subprocess.Popen(MMDSL + ["serve", "--port", "0", "-q"], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert line.startswith("mmdsl workbench: http://127.0.0.1:"), line
        url = line.split()[2]
        with urllib.request.urlopen(url, timeout=30) as page:
            assert "mmdsl workbench" in page.read().decode()
        req = urllib.request.Request(url + "api/run", method="POST", headers={"content-type": "application/json"},
                                     data=json.dumps({"test_name": "classic/MP.litmus", "model_name": "sc"}).encode())
        with urllib.request.urlopen(req, timeout=30) as res:
            assert json.load(res)["verdict"] == "Forbidden"
    finally:
        proc.terminate()
        proc.wait(20)


def test_serve_refuses_a_port_in_use_with_a_clear_error():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        out = subprocess.run(MMDSL + ["serve", "--port", str(port)], cwd=ROOT, capture_output=True, text=True,
                             timeout=60)
    assert out.returncode == 2
    assert "Address already in use" in out.stderr and "Traceback" not in out.stderr


def test_serve_refuses_a_port_out_of_range():
    out = subprocess.run(MMDSL + ["serve", "--port", "70000"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "is not a port" in out.stderr
