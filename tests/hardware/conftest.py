"""What the hardware tests need: an x86-64 host with a C compiler (they skip, saying so, without)."""

from __future__ import annotations

import platform
import shutil

import pytest

HAVE_CC = shutil.which("gcc") is not None
X86_HOST = platform.machine().lower() in ("x86_64", "amd64")
needs_cc = pytest.mark.skipif(not HAVE_CC, reason="no gcc on PATH (./dev.sh setup installs Debian's gcc)")
needs_x86 = pytest.mark.skipif(not (HAVE_CC and X86_HOST),
                               reason="needs an x86-64 host with gcc (X86 tests run as inline assembly)")
