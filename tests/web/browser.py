"""Shared by the web tests: a test too big to check quickly, the app served on a free loopback
port in a thread, and a headless Chromium (Debian's `chromium` and `chromium-driver`) driven
by selenium, or a skip saying why."""

from __future__ import annotations

import shutil
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path


def big_test(threads: int = 4) -> str:
    """A test whose candidate executions take seconds to enumerate (many writes to one location)."""
    cols = [[f"MOV [x],${t * 10 + k + 1}" for k in range(3)] + ["MOV EAX,[x]", "MOV EBX,[y]", f"MOV [y],${t + 1}"]
            for t in range(threads)]
    rows = [" | ".join(c[i] for c in cols) + " ;" for i in range(len(cols[0]))]
    return ("X86 BIG\n{ }\n " + " | ".join(f"P{t}" for t in range(threads)) + " ;\n" + "\n".join(rows)
            + "\nexists (0:EAX=1)\n")


CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage", "--window-size=1400,1000"]


@contextmanager
def served(timeout: float | None = 10.0):
    """The workbench on 127.0.0.1 at a free port (uvicorn in a thread); yields its URL."""
    import uvicorn

    from mmdsl.web.app import create_app
    from mmdsl.web.server import allowed_hosts, bind, url_of

    sock = bind("127.0.0.1", 0)
    app = create_app(timeout, allowed_hosts=allowed_hosts("127.0.0.1"))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    try:
        yield url_of(sock)
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


def browser_missing() -> str | None:
    """Why no browser test can run here (None: they can)."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    if not (shutil.which("chromium") and shutil.which("chromedriver")):
        return "Debian's chromium and chromium-driver are not installed (./dev.sh setup installs them)"
    return None


@contextmanager
def chromium():
    """A headless Chromium with a fresh profile, driven through /usr/bin/chromedriver."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    with tempfile.TemporaryDirectory(prefix="mmdsl-chromium-") as profile:
        options = webdriver.ChromeOptions()
        options.binary_location = shutil.which("chromium")
        for flag in CHROMIUM_FLAGS + [f"--user-data-dir={Path(profile)}"]:
            options.add_argument(flag)
        driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
        driver.set_page_load_timeout(30)
        try:
            yield driver
        finally:
            driver.quit()
