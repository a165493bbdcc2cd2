"""Every console example in README.md and docs/ is run, and its output must match exactly.

A ```console block holds commands (lines starting with `$ `) each followed by its expected
output. Lines starting with `Time ` (herd's timing) are not compared. Examples run from
the repository root with `mmdsl` meaning `python -m mmdsl`.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
BLOCK = re.compile(r"```console\n(.*?)```", re.S)


def examples():
    for doc in DOCS:
        text = doc.read_text()
        for block in BLOCK.finditer(text):
            line_no = text.count("\n", 0, block.start()) + 2
            cmd, expected = None, []
            for line in block.group(1).splitlines():
                if line.startswith("$ "):
                    if cmd is not None:
                        yield doc, line_no, cmd, expected
                    cmd, expected = line[2:], []
                elif cmd is not None:
                    expected.append(line)
            if cmd is not None:
                yield doc, line_no, cmd, expected


CASES = list(examples())


def _clean(lines):
    out = [ln.rstrip() for ln in lines if not ln.startswith("Time ")]
    while out and not out[-1]:
        out.pop()
    return out


@pytest.mark.parametrize("doc, line, cmd, expected", CASES,
                         ids=[f"{c[0].relative_to(ROOT)}:{c[1]}" for c in CASES])
def test_console_example(doc, line, cmd, expected):
    argv = shlex.split(cmd)
    if any(a.endswith(".cs") or a == "litmus/csharp" for a in argv):
        from mmdsl.litmus.cil import missing_tools

        if missing_tools():
            pytest.skip(f"a C# example: mono's {' and '.join(missing_tools())} not installed")
    if argv[0] == "mmdsl":
        argv = [sys.executable, "-m", "mmdsl", *argv[1:]]
    env = dict(os.environ, COLUMNS="100", NO_COLOR="1", TERM="dumb", PYTHONPATH=str(ROOT))
    proc = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, env=env, timeout=600)
    got = _clean((proc.stdout + proc.stderr).splitlines())
    assert got == _clean(expected), f"{doc.name}:{line}: `{cmd}` printed:\n" + "\n".join(got)


def test_there_are_examples():
    assert len(CASES) >= 5
