"""Writes litmus/c11/tests/variants: the classic C shapes (litmus/classic/c) with C11 atomics.

Each shape's READ_ONCE / WRITE_ONCE / smp_mb becomes atomic_load_explicit /
atomic_store_explicit / atomic_thread_fence with a memory order per variant:

  rlx   every access relaxed             ra   stores release, loads acquire
  sc    every access seq_cst             na   plain (non-atomic) accesses: racy, herd flags Undef
  rlx+scf / rlx+arf  (shapes with fences) relaxed accesses, seq_cst / acq_rel fences
  xchg-rlx / xchg-sc (a few shapes)      every store an atomic_exchange_explicit

Run from the repository root: ``python bench/make_c11_variants.py``; then compute herd's
verdicts with ``bench/herd_c11_verdicts.py`` (needs herd7).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "litmus" / "classic" / "c"
OUT = ROOT / "litmus" / "c11" / "tests" / "variants"

PLAIN = ["2+2W", "IRIW", "ISA2", "LB", "MP", "R", "RWC", "S", "SB", "W+RWC", "WRC", "WWC"]
COHERENCE = ["CoRR", "CoRW1", "CoRW2", "CoWR", "CoWR0", "CoWW"]
XCHG = ["2+2W", "LB", "MP", "R", "S", "SB", "CoWW"]
MO = {"rlx": "memory_order_relaxed", "acq": "memory_order_acquire", "rel": "memory_order_release",
      "sc": "memory_order_seq_cst", "ar": "memory_order_acq_rel"}


def rewrite(text: str, name: str, load: str | None, store: str | None, fence: str | None,
            xchg: bool = False) -> str:
    """The shape's text with its accesses as C11 atomics (or plain accesses when load is None)."""
    text = re.sub(r"^C \S+", f"C {name}", text, count=1)
    text = re.sub(r'^".*"\n', "", text, flags=re.M)  # diy's cycle line names the old shape
    counter = iter(range(8, 100))

    def store_call(m: re.Match) -> str:
        loc, val = m.group(1), m.group(2)
        if store is None:
            return f"*{loc} = {val}"
        if xchg:
            return f"int r{next(counter)} = atomic_exchange_explicit({loc}, {val}, {MO[store]})"
        return f"atomic_store_explicit({loc}, {val}, {MO[store]})"

    text = re.sub(r"WRITE_ONCE\(\*(\w+), (\w+)\)", store_call, text)
    text = re.sub(r"READ_ONCE\(\*(\w+)\)",
                  lambda m: f"*{m.group(1)}" if load is None else f"atomic_load_explicit({m.group(1)}, {MO[load]})",
                  text)
    if fence is not None:
        text = text.replace("smp_mb()", f"atomic_thread_fence({MO[fence]})")
    if load is not None:
        text = re.sub(r"\bint \*(\w+)", r"atomic_int *\1", text)
    return text


def variants() -> dict[str, str]:
    out = {}
    for shape in PLAIN:
        text = (SRC / f"{shape}.litmus").read_text()
        out[f"{shape}+rlx"] = rewrite(text, f"{shape}+rlx", "rlx", "rlx", None)
        out[f"{shape}+ra"] = rewrite(text, f"{shape}+ra", "acq", "rel", None)
        out[f"{shape}+sc"] = rewrite(text, f"{shape}+sc", "sc", "sc", None)
        out[f"{shape}+na"] = rewrite(text, f"{shape}+na", None, None, None)
        ftext = (SRC / f"{shape}+fences.litmus").read_text()
        out[f"{shape}+rlx+scf"] = rewrite(ftext, f"{shape}+rlx+scf", "rlx", "rlx", "sc")
        out[f"{shape}+rlx+arf"] = rewrite(ftext, f"{shape}+rlx+arf", "rlx", "rlx", "ar")
    for shape in COHERENCE:
        text = (SRC / f"{shape}.litmus").read_text()
        out[f"{shape}+rlx"] = rewrite(text, f"{shape}+rlx", "rlx", "rlx", None)
        out[f"{shape}+sc"] = rewrite(text, f"{shape}+sc", "sc", "sc", None)
    for shape in XCHG:
        text = (SRC / f"{shape}.litmus").read_text()
        for mo in ("rlx", "sc"):
            out[f"{shape}+xchg-{mo}"] = rewrite(text, f"{shape}+xchg-{mo}", mo, mo, None, xchg=True)
    return out


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, text in variants().items():
        (OUT / f"{name}.litmus").write_text(text)
    print(f"{len(variants())} tests in {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
