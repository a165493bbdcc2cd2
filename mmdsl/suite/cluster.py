"""Running a suite's chunks on a Dask distributed cluster (imported only when asked for)."""

from __future__ import annotations

from typing import Callable

from ..core.errors import MmdslError, UnsupportedError
from .work import CRASH, Cell, RunSpec, WorkItem, run_chunk


def run_on_dask(chunks: list[list[WorkItem]], spec: RunSpec, scheduler: str,
                on_cell: Callable[[Cell], None], connect_timeout: float = 20.0) -> int:
    """Submit every chunk to the scheduler at ``scheduler``; report cells as chunks finish.

    The tests travel with the chunks (their text), so workers need mmdsl installed but
    not the suite's files; models are loaded on the workers by bundled name or by path.
    Returns the number of worker threads the cluster had when the run started.
    """
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise UnsupportedError("--executor dask needs the 'distributed' package",
                               hint="pip install 'mmdsl[dask]'") from None
    check_address(scheduler)
    try:
        client = Client(scheduler, timeout=connect_timeout)
    except ValueError as err:  # an address distributed cannot read
        raise _bad_address(scheduler, err) from None
    except (OSError, TimeoutError) as err:
        raise MmdslError(f"cannot reach the Dask scheduler at '{scheduler}': {err}",
                         hint="start one with 'dask scheduler' and workers with 'dask worker ADDRESS'") from None
    with client:
        threads = sum(client.nthreads().values())
        futures = {client.submit(run_chunk, chunk, spec, pure=False): chunk for chunk in chunks}
        for fut in as_completed(futures):
            try:
                cells = fut.result()
            except Exception as err:  # noqa: BLE001 -- a lost worker: the chunk is reported, the rest goes on
                cells = [Cell(item.key, col, CRASH, engine=spec.engine,
                              message=f"the Dask task failed: {type(err).__name__}: {err}")
                         for item in futures[fut]
                         for col in (item.columns or [m.column for m in spec.models])]
            for cell in cells:
                on_cell(cell)
    return threads


def check_address(scheduler: str) -> None:
    """Refuse a scheduler address ``distributed`` cannot read (an unknown scheme such as
    ``garbage://x``, no port), before connecting, with what an address looks like."""
    from distributed.comm import get_address_host_port, parse_address
    from distributed.comm.registry import get_backend

    try:
        scheme, _ = parse_address(scheduler)
        get_backend(scheme)
        if scheme != "inproc":
            get_address_host_port(scheduler)
    except (ValueError, TypeError) as err:
        raise _bad_address(scheduler, err) from None


def _bad_address(scheduler: str, err: Exception) -> MmdslError:
    return MmdslError(f"'{scheduler}' is not a Dask scheduler address: {err}",
                      expected="an address such as tcp://127.0.0.1:8786")
