"""Helpers for the C# tests: skip without mono, compile a C# text, judge it under a model."""

from __future__ import annotations

import pytest

from mmdsl.explorer import explore
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus
from mmdsl.litmus.cil import missing_tools

needs_mono = pytest.mark.skipif(bool(missing_tools()),
                                reason=f"mono's {' and '.join(missing_tools())} not installed "
                                       "(Debian: apt-get install mono-mcs mono-utils; ./dev.sh setup)")

HEADER = "using System.Diagnostics;\nusing System.Threading;\n"


def program(tmp_path, body: str, name: str = "T"):
    path = tmp_path / f"{name}.cs"
    path.write_text(HEADER + body)
    return load_litmus(path)


def verdict(prog, model: str) -> str:
    """Allowed when some assertion can fail under ``model``."""
    return "Allowed" if explore(prog, load_model(model)).positive else "Forbidden"


def two_threads(fields: str, p0: str, p1: str, check: str = "") -> str:
    return f"""class T {{
    {fields}
    static void P0() {{ {p0} }}
    static void P1() {{ {p1} }}
    static void Main() {{
        Thread t0 = new Thread(P0), t1 = new Thread(P1);
        t0.Start(); t1.Start(); t0.Join(); t1.Join();
        {check}
    }}
}}
"""
