"""The repository's copies of the reference data (tests/reference/) equal the shared originals."""

from __future__ import annotations

import filecmp

import pytest
from refdata import REFERENCE, SHARED_REFERENCE

# every copied file (the folder's own README.md is ours, not a copy)
COPIED = [p.relative_to(REFERENCE) for p in sorted(REFERENCE.rglob("*"))
          if p.is_file() and p != REFERENCE / "README.md"]


def test_every_copied_folder_says_where_it_came_from():
    readme = (REFERENCE / "README.md").read_text()
    for entry in sorted(REFERENCE.iterdir()):
        if entry.name != "README.md":
            assert f"`{entry.name}" in readme, f"tests/reference/README.md does not describe {entry.name}"
    assert (REFERENCE / "x86-corpus" / "LICENCE").is_file()
    assert "CeCILL-B" in readme


def test_copies_equal_the_shared_originals():
    if not SHARED_REFERENCE.is_dir():
        pytest.skip(f"no ../shared/reference beside the repository ({SHARED_REFERENCE}): the copies are used as they are")
    gone = [str(rel) for rel in COPIED if not (SHARED_REFERENCE / rel).is_file()]
    differ = [str(rel) for rel in COPIED if (SHARED_REFERENCE / rel).is_file()
              and not filecmp.cmp(REFERENCE / rel, SHARED_REFERENCE / rel, shallow=False)]
    assert not gone, f"no longer in ../shared/reference: {gone[:10]}"
    assert not differ, f"tests/reference differs from ../shared/reference (copy the new versions in): {differ[:10]}"
    assert len(COPIED) > 200


def test_the_shared_classic_folder_has_nothing_we_lack():
    if not SHARED_REFERENCE.is_dir():
        pytest.skip(f"no ../shared/reference beside the repository ({SHARED_REFERENCE})")
    theirs = {p.relative_to(SHARED_REFERENCE) for p in (SHARED_REFERENCE / "classic").rglob("*") if p.is_file()}
    ours = {p.relative_to(REFERENCE) for p in (REFERENCE / "classic").rglob("*") if p.is_file()}
    assert theirs <= ours, sorted(theirs - ours)[:10]
