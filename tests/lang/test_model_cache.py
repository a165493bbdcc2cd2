"""The disk cache of lowered bundled models (lang/model_cache.py): used when fresh, ignored
when stale, corrupt, not ours or unwritable -- always the same model, never an error, and
nothing written outside the cache folder."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mmdsl.lang import library, model_cache
from mmdsl.lang.ir import render_expr
from mmdsl.lang.lower import lower_model_file

ROOT = Path(__file__).resolve().parents[2]


def _shape(model) -> list[str]:
    """What a model says, as text: its lets and axioms."""
    lets = [f"{b.name} = {render_expr(b.expr)}" for g in model.lets for b in g.bindings]
    return lets + [f"{ax.name}: {ax.text()}" for ax in model.axioms] + [model.name, str(model.path)]


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv(model_cache.NO_CACHE_ENV, raising=False)
    library._CACHE.clear()
    yield tmp_path / "cache" / "mmdsl" / "models"
    library._CACHE.clear()


@pytest.fixture
def model_file(tmp_path):
    path = tmp_path / "models" / "mine.mm"
    path.parent.mkdir()
    path.write_text((ROOT / "models" / "tso.mm").read_text())
    return path


class Lowering:
    """lower_model_file, counting its calls."""

    def __init__(self):
        self.calls = 0

    def __call__(self, path):
        self.calls += 1
        return lower_model_file(path, [library.models_dir()])


def test_a_bundled_model_is_lowered_once_then_read_from_the_cache(cache, monkeypatch):
    first = library.load_model("power")
    entries = list(cache.iterdir())
    assert len(entries) == 1 and entries[0].name.startswith("power-")
    library._CACHE.clear()

    def no_lowering(*args, **kwargs):
        raise AssertionError("lowered again")

    monkeypatch.setattr(library, "lower_model_file", no_lowering)
    again = library.load_model("power")
    assert _shape(again) == _shape(first)
    assert repr(again) == repr(first)  # every field, positions included


def test_the_cached_model_gives_the_same_results(cache):
    from mmdsl.axiomatic import check
    from mmdsl.litmus import load_litmus
    from mmdsl.render.herd_text import herd_block

    tests = [load_litmus(ROOT / "litmus/classic" / f"{n}.litmus") for n in ("SB", "MP", "IRIW", "WRC")]

    def blocks():
        model = library.load_model("tso")
        return [[line for line in herd_block(check(t, model)).splitlines() if not line.startswith("Time ")]
                for t in tests]

    fresh = blocks()
    library._CACHE.clear()
    assert blocks() == fresh
    assert len(list(cache.iterdir())) == 1


def test_a_changed_model_file_makes_its_entry_stale(cache, model_file):
    lower = Lowering()
    first = model_cache.load_cached(model_file, lower)
    model_cache.load_cached(model_file, lower)
    assert lower.calls == 1
    model_file.write_text(model_file.read_text() + "\n# changed\n")
    second = model_cache.load_cached(model_file, lower)
    assert lower.calls == 2
    assert _shape(second) == _shape(first)  # a comment: the same model, from its new text
    assert len(list(cache.iterdir())) == 2


def test_a_changed_include_makes_the_entry_stale(cache, model_file, monkeypatch):
    lower = Lowering()
    model = model_cache.load_cached(model_file, lower)
    included = model_file.parent / "part.mm"
    included.write_text("a")
    monkeypatch.setattr(model, "includes", [str(included)])
    entry = next(cache.iterdir())
    entry.unlink()
    model_cache._write(entry, cache, model)  # an entry that records an included file
    assert model_cache.load_cached(model_file, lower) is not None and lower.calls == 1
    included.write_text("b")
    model_cache.load_cached(model_file, lower)
    assert lower.calls == 2


@pytest.mark.parametrize("content", [b"", b"not a pickle", b"\x80\x05K\x01.", None])
def test_a_corrupt_entry_is_ignored_and_replaced(cache, model_file, content):
    lower = Lowering()
    first = model_cache.load_cached(model_file, lower)
    entry = next(cache.iterdir())
    if content is None:  # a pickle of something else
        import pickle

        content = pickle.dumps((model_cache.FORMAT, [], {"not": "a model"}))
    entry.write_bytes(content)
    second = model_cache.load_cached(model_file, lower)
    assert lower.calls == 2 and _shape(second) == _shape(first)
    third = model_cache.load_cached(model_file, lower)  # the entry was written again
    assert lower.calls == 2 and _shape(third) == _shape(first)


def test_an_entry_others_may_write_is_not_read(cache, model_file):
    lower = Lowering()
    model_cache.load_cached(model_file, lower)
    entry = next(cache.iterdir())
    entry.chmod(0o666)
    model_cache.load_cached(model_file, lower)
    assert lower.calls == 2


@pytest.mark.parametrize("where", ["a-file", "under-a-file"])
def test_an_unwritable_cache_folder_changes_nothing(tmp_path, monkeypatch, model_file, where):
    blocker = tmp_path / "blocker"
    blocker.write_text("x")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker if where == "a-file" else blocker / "deeper"))
    before = _tree(tmp_path)
    lower = Lowering()
    first = model_cache.load_cached(model_file, lower)
    second = model_cache.load_cached(model_file, lower)
    assert lower.calls == 2 and _shape(first) == _shape(second)
    assert _tree(tmp_path) == before  # nothing written anywhere


def test_nothing_is_written_outside_the_cache_folder(cache, tmp_path, model_file):
    before = _tree(tmp_path)
    model_cache.load_cached(model_file, Lowering())
    after = _tree(tmp_path)
    new = sorted(set(after) - set(before))
    assert len(new) == 1 and new[0].startswith("cache/mmdsl/models/mine-") and new[0].endswith(".pickle")
    assert {k: v for k, v in after.items() if k in before} == before


def test_the_cache_can_be_turned_off_and_a_relative_xdg_path_is_not_used(cache, tmp_path, model_file, monkeypatch):
    monkeypatch.setenv(model_cache.NO_CACHE_ENV, "1")
    lower = Lowering()
    model_cache.load_cached(model_file, lower)
    model_cache.load_cached(model_file, lower)
    assert lower.calls == 2 and not cache.exists()
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert model_cache.cache_dir() == tmp_path / "home" / ".cache" / "mmdsl" / "models"


def test_a_run_with_a_corrupt_or_unwritable_cache_prints_the_same(tmp_path):
    """The command line with a good cache, a corrupt one and an unwritable one: the same
    output, exit code 0, no traceback."""
    args = [sys.executable, "-m", "mmdsl", "run", "litmus/classic/SB.litmus", "litmus/classic/MP.litmus",
            "-m", "tso", "-m", "power"]
    blocker = tmp_path / "blocker"
    blocker.write_text("x")
    outputs = []
    for step in ("empty", "written", "corrupt", "unwritable"):
        if step == "corrupt":
            for entry in (tmp_path / "cache" / "mmdsl" / "models").iterdir():
                entry.write_bytes(b"\x80\x05garbage")
        cache_home = blocker if step == "unwritable" else tmp_path / "cache"
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "XDG_CACHE_HOME": str(cache_home)}
        out = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=120, env=env)
        assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr
        outputs.append(json.dumps([line for line in out.stdout.splitlines() if not line.startswith("Time ")]))
    assert len(set(outputs)) == 1
    assert sorted(p.name.split("-")[0] for p in (tmp_path / "cache" / "mmdsl" / "models").iterdir()) == ["power", "tso"]


def test_no_home_folder_changes_nothing(monkeypatch, model_file):
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)

    def no_home():
        raise RuntimeError("Could not determine home directory.")

    monkeypatch.setattr(Path, "home", staticmethod(no_home))
    lower = Lowering()
    fresh = lower_model_file(model_file, [library.models_dir()])
    assert _shape(model_cache.load_cached(model_file, lower)) == _shape(fresh)
    assert lower.calls == 1
