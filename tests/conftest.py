"""Shared fixtures: the repository's reference data, and the --bless option for golden files."""

from __future__ import annotations

from pathlib import Path

import pytest

from refdata import REFERENCE


def pytest_addoption(parser):
    parser.addoption("--bless", action="store_true", default=False,
                     help="rewrite golden files with the current output instead of comparing")


def _weight(item) -> int:
    """A test's scheduling weight: the CPU seconds its ``slow`` mark states (``cpu=``), 1 for
    an unstated slow test, 0 otherwise."""
    mark = item.get_closest_marker("slow")
    return 0 if mark is None else int(mark.kwargs.get("cpu", 1))


def pytest_collection_modifyitems(config, items):
    """Heaviest files first (longest-processing-time order): the test runner's workers take one
    file at a time in this order, so the whole-corpus files start at once and the many short
    files fill in around them, instead of one long file running alone at the end."""
    weight: dict[str, int] = {}
    for item in items:
        weight[item.fspath] = weight.get(item.fspath, 0) + _weight(item)
    items.sort(key=lambda item: -weight[item.fspath])  # stable: each file keeps its own order


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
