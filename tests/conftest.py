"""Shared fixtures (the reference data, --bless for golden files) and the order test files run in (--cpu-log measures it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from refdata import REFERENCE


def pytest_addoption(parser):
    parser.addoption("--bless", action="store_true", default=False,
                     help="rewrite golden files with the current output instead of comparing")
    parser.addoption("--cpu-log", default=None, metavar="FILE",
                     help="append each test's CPU seconds (process and children) and id to FILE "
                          "(summed per file they make tests/file_cpu.tsv)")


FILE_CPU = Path(__file__).parent / "file_cpu.tsv"  # measured CPU seconds per test file


def _file_cpu() -> dict[str, float]:
    """The CPU seconds each test file took in the last measured run (``tests/file_cpu.tsv``)."""
    out = {}
    if FILE_CPU.is_file():
        for line in FILE_CPU.read_text().splitlines():
            if line and not line.startswith("#"):
                cpu, path = line.split("\t")
                out[path] = float(cpu)
    return out


def pytest_collection_modifyitems(config, items):
    """Heaviest files first (longest-processing-time order): the test runner's workers take one
    file at a time in this order (``--dist loadfile --no-loadscope-reorder``), so the
    whole-corpus files start at once and the many short files fill in around them, instead of
    one long file running alone at the end. A file not measured yet counts as light."""
    cpu = _file_cpu()
    root = config.rootpath
    weight: dict[Path, float] = {}
    for item in items:
        if item.path not in weight:
            name = item.path.relative_to(root).as_posix() if item.path.is_relative_to(root) else str(item.path)
            weight[item.path] = cpu.get(name, 0.0)
    items.sort(key=lambda item: -weight[item.path])  # stable: each file keeps its own order


_cpu_log: dict = {"file": None, "started": {}}  # --cpu-log: the file, each running test's CPU at its start


def _cpu_now() -> float:
    import resource

    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def pytest_configure(config):
    _cpu_log["file"] = config.getoption("--cpu-log")


def pytest_runtest_protocol(item, nextitem):
    if _cpu_log["file"]:
        _cpu_log["started"][item.nodeid] = _cpu_now()


def pytest_runtest_logfinish(nodeid, location):
    start = _cpu_log["started"].pop(nodeid, None)
    if start is not None:
        with open(_cpu_log["file"], "a") as log:
            log.write(f"{_cpu_now() - start:.2f}\t{nodeid}\n")


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
