"""Bad herd configuration files (`mmdsl run --conf FILE`): each a located error, never a traceback."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from mmdsl.cli.app import app
from mmdsl.core.errors import MmdslError
from mmdsl.lang.herd_options import read_conf
from refdata import ROOT

SB = str(ROOT / "litmus/classic/SB.litmus")


@pytest.mark.parametrize("text, words, line", [
    (b"model\n", "key 'model' without a value", 1),
    (b"# ok\nthrough sideways\n", "unknown through 'sideways'", 2),
    (b"show bogus\n", "unknown show 'bogus'", 1),
    (b"timeout soon\n", "timeout expects a number", 1),
    (b"\x00\xff\xfe garbage\n", "not UTF-8", 1),
    (b"bell other.bell\nmodel sc\n", "bell 'other.bell' other than the model's own", 1),
    (b"names only-these.txt\n", "herd's configuration key 'names' is not supported", 1),
    (b"graph columns\n" * 5000 + b"nosuchkey 1\n", "unknown key 'nosuchkey'", 5001),
])
def test_bad_configuration_files_are_located_errors(tmp_path, text, words, line):
    conf = tmp_path / "bad.cfg"
    conf.write_bytes(text)
    with pytest.raises(MmdslError) as info:
        read_conf(conf)
    assert words in info.value.message
    assert info.value.pos is not None and info.value.pos.line == line
    r = CliRunner().invoke(app, ["run", SB, "--conf", str(conf)])
    assert r.exit_code == 2 and "Traceback" not in r.output and words in r.output


def test_a_folder_a_missing_file_and_a_cycle_of_configuration_files(tmp_path):
    for target in (tmp_path, tmp_path / "missing.cfg"):
        with pytest.raises(MmdslError):
            read_conf(target)
    (tmp_path / "a.cfg").write_text("local-conf b.cfg\n")
    (tmp_path / "b.cfg").write_text("local-conf a.cfg\n")
    with pytest.raises(MmdslError) as info:
        read_conf(tmp_path / "a.cfg")
    assert "nested more than 8 deep" in info.value.message and info.value.pos.file.endswith(".cfg")
