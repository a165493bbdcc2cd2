"""Shared fixtures: the repository's reference data, and the --bless option for golden files."""

from __future__ import annotations

from pathlib import Path

import pytest

from refdata import REFERENCE


def pytest_addoption(parser):
    parser.addoption("--bless", action="store_true", default=False,
                     help="rewrite golden files with the current output instead of comparing")


@pytest.fixture
def bless(request) -> bool:
    return request.config.getoption("--bless")


@pytest.fixture(scope="session")
def reference() -> Path:
    return REFERENCE


def golden(path: Path, text: str, bless: bool) -> None:
    """Compare ``text`` with the golden file at ``path`` (or rewrite it under --bless)."""
    if bless or not path.exists():
        if not bless:
            pytest.fail(f"golden file {path} does not exist; run pytest --bless to create it")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        return
    assert text == path.read_text(), f"output differs from {path}; if intended, re-run with --bless"
