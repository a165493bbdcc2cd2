"""Distributed runs: a real Dask LocalCluster on loopback gives the same matrix as a local run."""

from __future__ import annotations

import time

import pytest
from suitefiles import CLASSIC, make_suite, matrix, mmdsl

from mmdsl.suite import work
from mmdsl.suite.manifest import load_suite
from mmdsl.suite.run import model_columns, run_suite

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def cluster():
    """Two worker processes on 127.0.0.1, as `dask scheduler` / `dask worker` would give."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=":0") as c:
        yield c


@pytest.fixture
def thread_cluster():
    """Workers as threads of this process (so a monkeypatched checker reaches them)."""
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=":0") as c:
        yield c


def test_dask_gives_the_local_matrix(cluster):
    suite = load_suite("litmus/classic")
    columns = model_columns(suite, [])
    local = run_suite(suite, columns, jobs=2)
    remote = run_suite(suite, columns, executor="dask", scheduler=cluster.scheduler_address, jobs=2)
    assert matrix(remote) == matrix(local)
    assert remote.exit_code() == 0 and remote.jobs == 2  # the cluster's worker threads


def test_cli_runs_on_the_cluster(cluster):
    proc = mmdsl("suite", "litmus/classic", "-m", "sc", "-m", "tso", "--executor", "dask",
                 "--scheduler", cluster.scheduler_address)
    assert proc.returncode == 0, proc.stderr
    assert f"ok: every expectation held ({2 * len(load_suite('litmus/classic').tests)} cells)" in proc.stdout
    assert "(dask, 2 jobs," in proc.stdout


def test_a_slow_test_times_out_on_a_dask_worker_thread(tmp_path, monkeypatch, thread_cluster):
    real = work.check_with

    def slow(program, model, engine, **kw):
        if program.name == "SLOW":  # busy in Python, as a slow check is: the asynchronous
            end = time.monotonic() + 120  # TestTimeout lands between two bytecodes
            while time.monotonic() < end:
                pass
        return real(program, model, engine, **kw)

    monkeypatch.setattr(work, "check_with", slow)
    folder = make_suite(tmp_path, None, tests=("SB",))
    (folder / "SLOW.litmus").write_text((CLASSIC / "MP.litmus").read_text().replace("X86 MP", "X86 SLOW", 1))
    suite = load_suite(folder)
    start = time.monotonic()
    run = run_suite(suite, model_columns(suite, ["tso"]), executor="dask",
                    scheduler=thread_cluster.scheduler_address, timeout=1)
    assert time.monotonic() - start < 60  # wall-clock: the 120 s busy loop was cut (limit 1 s)
    assert matrix(run) == {("SB", "tso"): "Allowed", ("SLOW", "tso"): "timed out"}, run.cells[("SLOW", "tso")].message


def test_unreachable_scheduler_is_a_clear_error():
    from mmdsl.core.errors import MmdslError
    from mmdsl.suite.cluster import run_on_dask
    from mmdsl.suite.work import RunSpec

    suite = load_suite("litmus/classic")
    with pytest.raises(MmdslError, match=r"cannot reach the Dask scheduler at 'tcp://127\.0\.0\.1:9'"):
        run_on_dask([[]], RunSpec(tuple(model_columns(suite, ["sc"]))), "tcp://127.0.0.1:9", print,
                    connect_timeout=1)


@pytest.mark.parametrize("address", ["garbage://x", "nonsense", "tcp://host:notaport"])
def test_a_scheduler_address_dask_cannot_read_is_a_clear_error(tmp_path, address):
    """`--scheduler garbage://x` was a ValueError traceback from distributed."""
    from mmdsl.core.errors import MmdslError

    suite = load_suite(make_suite(tmp_path, None, tests=("SB",)))
    with pytest.raises(MmdslError, match=f"'{address}' is not a Dask scheduler address"):
        run_suite(suite, model_columns(suite, ["sc"]), executor="dask", scheduler=address)
    proc = mmdsl("suite", str(tmp_path), "-m", "sc", "--executor", "dask", "--scheduler", address)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.startswith(f"error: '{address}' is not a Dask scheduler address")
