"""The CLI's collector tuning (common.collect_seldom / startup_done) stays inside the mmdsl process."""

from __future__ import annotations

import gc

from typer.testing import CliRunner

from mmdsl.cli import common
from mmdsl.cli.app import app


def test_importing_the_app_keeps_the_collector_thresholds():
    assert gc.get_threshold() != common.STARTUP_GC_THRESHOLD


def test_run_in_a_test_process_freezes_nothing():
    before = gc.get_freeze_count()
    thresholds = gc.get_threshold()
    result = CliRunner().invoke(app, ["run", "litmus/classic/SB.litmus", "-m", "tso", "-q"])
    assert result.exit_code == 0, result.output
    assert gc.get_freeze_count() == before
    assert gc.get_threshold() == thresholds


def test_startup_done_restores_the_thresholds_and_freezes():
    thresholds = gc.get_threshold()
    try:
        common.collect_seldom()
        assert gc.get_threshold() == common.STARTUP_GC_THRESHOLD
        common.startup_done()
        assert gc.get_threshold() == thresholds
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)
