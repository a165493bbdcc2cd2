"""Writing fences and inserted dependencies (addr, data, ctrl, ctrl+FENCE) into PPC, ARM, AArch64 and LISA tests, in diy's idioms.

A dependency from a load to a later access of its thread is written as diy7 writes them:

* ``addr``: ``xor T,S,S`` (``EOR T,S,S``), then the access adds T to its address
  (``lwz r3,0(r4)`` becomes ``lwzx r3,T,r4``, ``LDR R1,[%x1]`` becomes ``LDR R1,[T,%x1]``,
  AArch64's ``LDR W3,[X4]`` becomes ``LDR W3,[X4,W9,SXTW]``);
* ``data``: ``xor T,S,S`` and ``add T,T,V``, then the store writes T instead of V;
* ``ctrl``: ``cmpw S,S`` / ``beq LCnn`` / ``LCnn:`` (``CMP`` / ``BNE``; AArch64 ``CBNZ S,LCnn``) before the access;
* LISA: ``mov T (xor S S)``, ``r[] R x+T``, ``mov T (add T V)``, ``b[] S LCnn``;
* ``ctrl+FENCE``: the same, then the fence (``isync``, ``ISB``).

(AArch64 spells S and T as W registers, as diy7 does, and T as an X register where it
replaces the value of a 64-bit store.)

S is the load's destination register, T a register the thread does not use, LCnn a
label the test does not use. Several sources of one kind into one access are combined
with ``add`` (each xor is zero, so every value stays the same). Targets are rewritten
first (the cell keeps one instruction, so instruction indices do not move), then the
inserted lines and fences go in new rows above their access (``write_table_with_fences``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..core.errors import UnsupportedError
from ..core.program import Load, Program, Store
from .layout import split_layout
from .threadtable import _blocks, write_table_with_fences


@dataclass(frozen=True)
class DependencyInsertion:
    """A dependency of ``kind`` from the load at IR index ``source`` to the access at ``target``."""

    tid: int
    source: int
    target: int
    kind: str  # addr | data | ctrl | ctrl+FENCE (FENCE a fence kind of the dialect)


@dataclass(frozen=True)
class AsmSyntax:
    """How one assembly dialect spells the idioms (PPC and ARM below)."""

    register: str  # regex of a general register in the dialect's text
    scratch: tuple[str, ...]  # registers T may be, in order of preference
    xor: str  # "xor {d},{a},{b}"
    add: str
    compare: str  # "cmpw {a},{a}"
    branch: str  # "beq {label}"
    load: re.Pattern  # a plain load / store: groups mnemonic, value register, address
    store: re.Pattern

    def with_address(self, text: str, reg: str) -> str | None:
        raise NotImplementedError

    def key(self, reg: str) -> str:
        """What names one register however it is spelled (AArch64's W5 and X5 are one)."""
        return reg.upper()

    def source(self, reg: str) -> str:
        """How the xor and the branch spell the load's destination register (its IR name)."""
        return reg

    def sized(self, tmp: str, value: str) -> str:
        """The scratch register spelled as wide as the stored value it replaces."""
        return tmp

    def with_value(self, text: str, reg: str) -> str | None:
        m = self.store.fullmatch(text.strip())
        if m is None:
            return None
        return text.strip()[:m.start("value")] + reg + text.strip()[m.end("value"):]


class _PpcSyntax(AsmSyntax):
    _INDEXED = {"lwz": "lwzx", "ld": "ldx", "lbz": "lbzx", "lhz": "lhzx",
                "stw": "stwx", "std": "stdx", "stb": "stbx", "sth": "sthx"}

    def with_address(self, text: str, reg: str) -> str | None:
        t = text.strip()
        m = self.load.fullmatch(t) or self.store.fullmatch(t)
        if m is None or m.group("mnemonic") not in self._INDEXED or int(m.group("offset"), 0) != 0:
            return None
        return f"{self._INDEXED[m.group('mnemonic')]} {m.group('value')},{reg},{m.group('base')}"


class _ArmSyntax(AsmSyntax):
    def with_address(self, text: str, reg: str) -> str | None:
        t = text.strip()
        m = self.load.fullmatch(t) or self.store.fullmatch(t)
        if m is None:
            return None
        return f"{m.group('mnemonic')} {m.group('value')},[{reg},{m.group('base')}]"


class _LisaSyntax(AsmSyntax):
    def with_address(self, text: str, reg: str) -> str | None:
        t = text.strip()
        m = self.load.fullmatch(t) or self.store.fullmatch(t)
        if m is None:
            return None
        return t[:m.end("base")] + "+" + reg + t[m.end("base"):]


_LISA_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
LISA = _LisaSyntax(
    register=r"\br[0-9]+\b",
    scratch=tuple(f"r{n}" for n in range(10, 32)),
    xor="mov {d} (xor {a} {b})", add="mov {d} (add {a} {b})", compare="", branch="b[] {a} {label}",
    load=re.compile(r"(?P<mnemonic>r)\[[^\]]*\]\s+(?P<value>r[0-9]+)\s+(?P<base>" + _LISA_NAME + ")"),
    store=re.compile(r"(?P<mnemonic>w)\[[^\]]*\]\s+(?P<base>" + _LISA_NAME + r")\s+(?P<value>r[0-9]+|-?[0-9]+)"),
)


class _AArch64Syntax(AsmSyntax):
    """diy7's AArch64 idioms: EOR W9,W1,W1 then LDR W3,[X4,W9,SXTW] (addr); ADD W9,W9,W2 then
    STR W9,[X3] (data, X-wide when the store is); CBNZ W1,LC90 (ctrl), then ISB (ctrl+isb)."""

    def with_address(self, text: str, reg: str) -> str | None:
        t = text.strip()
        m = self.load.fullmatch(t) or self.store.fullmatch(t)
        if m is None or m.group("mnemonic").upper() not in ("LDR", "STR"):
            return None  # LDAR, LDAPR, STLR take no index register
        return f"{m.group('mnemonic')} {m.group('value')},[{m.group('base')},{reg},SXTW]"

    def key(self, reg: str) -> str:
        up = reg.upper()
        return "X" + up[1:] if up[:1] in ("W", "X") and up[1:].isdigit() else up

    def source(self, reg: str) -> str:
        return "W" + reg[1:] if reg[:1] in ("W", "X") and reg[1:].isdigit() else reg

    def sized(self, tmp: str, value: str) -> str:
        return ("X" if value.strip().upper().startswith("X") else "W") + tmp[1:]


_A64_REG = r"[WXwx](?:[12]?[0-9]|30)|[WXwx][Zz][Rr]"
_A64_ACCESS = r"(?P<mnemonic>{m})\s+(?P<value>" + _A64_REG + r")\s*,\s*\[\s*(?P<base>[Xx](?:[12]?[0-9]|30))\s*\]"
AARCH64 = _AArch64Syntax(
    register=r"\b[WXwx](?:[12]?[0-9]|30)\b",
    scratch=tuple(f"W{n}" for n in (*range(9, 29), *range(5, 9))),
    xor="EOR {d},{a},{b}", add="ADD {d},{a},{b}", compare="", branch="CBNZ {a},{label}",
    load=re.compile(_A64_ACCESS.format(m="LDR|LDAR|LDAPR|ldr|ldar|ldapr")),
    store=re.compile(_A64_ACCESS.format(m="STR|STLR|str|stlr")),
)

_PPC_REG = r"r(?:[12][0-9]|3[01]|[0-9])|%[A-Za-z_][A-Za-z0-9_]*"
_PPC_ACCESS = r"(?P<mnemonic>{m})\s+(?P<value>" + _PPC_REG + r")\s*,\s*(?P<offset>-?(?:0x[0-9a-fA-F]+|[0-9]+))" \
              r"\s*\(\s*(?P<base>" + _PPC_REG + r")\s*\)"
PPC = _PpcSyntax(
    register=r"\br(?:[12][0-9]|3[01]|[0-9])\b",
    scratch=tuple(f"r{n}" for n in (*range(10, 32), *range(5, 10))),  # never r0 (0 in an address)
    xor="xor {d},{a},{b}", add="add {d},{a},{b}", compare="cmpw {a},{a}", branch="beq {label}",
    load=re.compile(_PPC_ACCESS.format(m="lwz|ld|lbz|lhz")),
    store=re.compile(_PPC_ACCESS.format(m="stw|std|stb|sth")),
)

_ARM_REG = r"[Rr](?:1[0-2]|[0-9])|%[A-Za-z_][A-Za-z0-9_]*"
_ARM_ACCESS = r"(?P<mnemonic>{m})\s+(?P<value>" + _ARM_REG + r")\s*,\s*\[\s*(?P<base>" + _ARM_REG + r")\s*\]"
ARM = _ArmSyntax(
    register=r"\b[Rr](?:1[0-2]|[0-9])\b",
    scratch=tuple(f"R{n}" for n in range(2, 13)),
    xor="EOR {d},{a},{b}", add="ADD {d},{a},{b}", compare="CMP {a},{a}", branch="BNE {label}",
    load=re.compile(_ARM_ACCESS.format(m="LDR|ldr")),
    store=re.compile(_ARM_ACCESS.format(m="STR|str")),
)


def _column_text(program: Program, tid: int) -> str:
    _, rows = program.layout
    return "\n".join(row[tid].text for row in rows)


def can_write(syntax: AsmSyntax, program: Program, dep: DependencyInsertion) -> bool:
    """Can ``write_with_devices`` write this dependency (the access's form, the source register)?"""
    if program.layout is None or not program.source:
        return False
    instrs = program.threads[dep.tid].instrs
    src, tgt = instrs[dep.source], instrs[dep.target]
    if not isinstance(src, Load) or not isinstance(tgt, (Load, Store)) or not (src.dst or "").strip("%").strip():
        return False  # (a load into AArch64's zero register keeps no value to depend on)
    if any(getattr(i, "dst", None) == src.dst for i in instrs[dep.source + 1:dep.target]):
        return False  # the register no longer holds the value read
    if dep.kind in ("addr", "data") and not _free_registers(syntax, program, dep.tid):
        return False  # no register left for the xor
    if dep.kind == "addr":
        return syntax.with_address(tgt.text or "", "T") is not None
    if dep.kind == "data":
        return isinstance(tgt, Store) and syntax.with_value(tgt.text or "", "T") is not None
    return dep.kind == "ctrl" or dep.kind.startswith("ctrl+")


def write_with_devices(dialect, syntax: AsmSyntax, program: Program, fences: list[tuple[int, int, str]],
                       deps: list[DependencyInsertion]) -> str:
    """The test's source with the fences (thread, before index, fence kind) and dependencies written in."""
    if not deps:
        return write_table_with_fences(dialect, program, fences)
    if program.layout is None or not program.source:
        raise UnsupportedError(f"{program.name} was not read from a {dialect.name} file; cannot write it back")
    for d in deps:
        if not can_write(syntax, program, d):
            ins = program.threads[d.tid].instrs[d.target]
            raise UnsupportedError(f"cannot write a {d.kind} dependency into '{ins.text}'", ins.pos)
    labels = _fresh_labels(program.source)
    by_target: dict[tuple[int, int], list[DependencyInsertion]] = {}
    for d in sorted(deps, key=lambda d: (d.tid, d.target, d.kind, d.source)):
        by_target.setdefault((d.tid, d.target), []).append(d)
    lines: list[tuple[int, int, str]] = []
    edits: list[tuple[int, int, str]] = []  # (offset, length, new text) of rewritten accesses
    scratch: dict[int, list[str]] = {}
    for (tid, target), group in by_target.items():
        instrs = program.threads[tid].instrs
        free = scratch.setdefault(tid, _free_registers(syntax, program, tid))
        text = (instrs[target].text or "").strip()
        new = text
        for kind in ("data", "addr"):  # data first: the address rewrite keeps the value register
            srcs = [syntax.source(instrs[d.source].dst) for d in group if d.kind == kind]
            if not srcs:
                continue
            tmp = _combine(syntax, srcs, free, tid, target, lines)
            if kind == "data":
                m = syntax.store.fullmatch(new)
                wide = syntax.sized(tmp, m.group("value"))
                lines.append((tid, target, syntax.add.format(d=wide, a=wide, b=m.group("value"))))
                new = syntax.with_value(new, wide)
            else:
                new = syntax.with_address(new, tmp)
        for d in group:
            if d.kind == "ctrl" or d.kind.startswith("ctrl+"):
                label = next(labels)
                reg = syntax.source(instrs[d.source].dst)
                if syntax.compare:
                    lines.append((tid, target, syntax.compare.format(a=reg)))
                lines += [(tid, target, syntax.branch.format(a=reg, label=label)), (tid, target, f"{label}:")]
                if d.kind.startswith("ctrl+"):
                    lines.append((tid, target, dialect.fence_text(d.kind[5:])))
        if new != text:
            edits.append(_cell_edit(dialect, program, tid, target, text, new))
    source = program.source
    for at, length, new in sorted(edits, reverse=True):
        source = source[:at] + new + source[at + length:]
    rewritten = dialect.lower(split_layout(source, program.path or program.name))  # read back, checked
    spelled = [(tid, index, dialect.fence_text(kind)) for tid, index, kind in fences]
    return write_table_with_fences(dialect, rewritten, spelled + lines, text_of=lambda text: text)


def _combine(syntax: AsmSyntax, srcs: list[str], free: list[str], tid: int, target: int, lines: list) -> str:
    """A fresh register holding 0 computed from every source (xor each with itself, add them up)."""
    if not free:
        raise UnsupportedError("no free register left to write a dependency with")
    tmp = free.pop(0)
    lines.append((tid, target, syntax.xor.format(d=tmp, a=srcs[0], b=srcs[0])))
    for s in srcs[1:]:
        if not free:
            raise UnsupportedError("no free register left to write a dependency with")
        other = free.pop(0)
        lines.append((tid, target, syntax.xor.format(d=other, a=s, b=s)))
        lines.append((tid, target, syntax.add.format(d=tmp, a=tmp, b=other)))
    return tmp


def _free_registers(syntax: AsmSyntax, program: Program, tid: int) -> list[str]:
    used = {syntax.key(r) for r in re.findall(syntax.register, _column_text(program, tid))}
    for reg in program.threads[tid].reg_init:
        used.add(syntax.key(reg))
    return [r for r in syntax.scratch if syntax.key(r) not in used]


def _fresh_labels(source: str):
    n = 90
    while True:
        label = f"LC{n:02d}"
        if label not in source:
            yield label
        n += 1


def _cell_edit(dialect, program: Program, tid: int, index: int, old: str, new: str) -> tuple[int, int, str]:
    _, rows = program.layout
    block = next(b for b in _blocks(dialect, rows, tid) if b.first <= index < b.first + b.count)
    cell = rows[block.row][tid]
    at = cell.text.find(old)
    if at < 0:
        raise UnsupportedError(f"cannot find '{old}' in its cell to write a dependency into it")
    return cell.offset + at, len(old), new
