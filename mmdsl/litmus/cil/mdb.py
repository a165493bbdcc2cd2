"""Source lines of IL offsets from a Mono symbol file (`.mdb`, version 50, written by `mcs -debug`).

The layout is Mono's (Mono.CompilerServices.SymbolWriter, MonoSymbolTable.cs): a header
(magic, version, GUID), an offset table of int32s, a method table of (token, data
offset, line-number-table offset) entries, and per method a DWARF-like line program.
Anything unexpected gives no lines (the caller then names places by IL offset).
"""

from __future__ import annotations

import struct

MAGIC = 0x45E82623FD7FA614
VERSION = 50
_HEADER = 8 + 4 + 4 + 16  # magic, major, minor, GUID
_OFFSETS = 20  # int32 fields of the offset table
_LNS_COPY, _LNS_ADVANCE_PC, _LNS_ADVANCE_LINE, _LNS_SET_FILE, _LNS_CONST_ADD_PC = 1, 2, 3, 4, 8
_LNE_END_SEQUENCE, _LNE_NEGATE_IS_HIDDEN = 1, 64


def method_lines(data: bytes) -> dict[int, list[tuple[int, int]]]:
    """For each method token, its (IL offset, source line) entries in offset order; {} when
    ``data`` is not a symbol file this reader knows."""
    try:
        return _read(data)
    except (struct.error, IndexError, ValueError):
        return {}


def line_at(entries: list[tuple[int, int]], offset: int) -> int | None:
    """The source line of the statement an IL offset belongs to (the last entry at or before it)."""
    line = None
    for at, row in entries:
        if at > offset:
            break
        line = row
    return line


def _read(data: bytes) -> dict[int, list[tuple[int, int]]]:
    magic, major = struct.unpack_from("<qi", data, 0)
    if magic != MAGIC or major != VERSION:
        return {}
    t = struct.unpack_from(f"<{_OFFSETS}i", data, _HEADER)
    method_count, method_table = t[9], t[10]
    line_base, line_range, opcode_base = t[16], t[17], t[18]
    if line_range <= 0 or not 0 < opcode_base < 256:
        return {}
    out = {}
    for i in range(method_count):
        token, _, lnt = struct.unpack_from("<3i", data, method_table + 12 * i)
        if lnt:
            out[token] = _line_program(data, lnt, line_base, line_range, opcode_base)
    return out


def _leb128(data: bytes, pos: int) -> tuple[int, int]:
    """An int32 written by .NET's Write7BitEncodedInt (negative numbers as their uint32)."""
    value, shift = 0, 0
    while True:
        b = data[pos]
        pos += 1
        value |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            break
        if shift > 35:
            raise ValueError("leb128 too long")
    value &= 0xFFFFFFFF
    return (value - (1 << 32) if value & 0x80000000 else value), pos


def _line_program(data: bytes, pos: int, line_base: int, line_range: int, opcode_base: int) -> list[tuple[int, int]]:
    max_address_increment = (255 - opcode_base) // line_range
    lines: list[tuple[int, int]] = []
    hidden, line, offset = False, 1, 0
    for _ in range(1 << 20):
        op = data[pos]
        pos += 1
        if op == 0:  # an extended opcode: its size, then the opcode
            size = data[pos]
            end = pos + 1 + size
            ext = data[pos + 1]
            if ext == _LNE_END_SEQUENCE:
                break
            if ext == _LNE_NEGATE_IS_HIDDEN:
                hidden = not hidden
            pos = end
        elif op < opcode_base:
            if op == _LNS_COPY:
                if not hidden:
                    lines.append((offset, line))
            elif op == _LNS_ADVANCE_PC:
                inc, pos = _leb128(data, pos)
                offset += inc
            elif op == _LNS_ADVANCE_LINE:
                inc, pos = _leb128(data, pos)
                line += inc
            elif op == _LNS_SET_FILE:
                _, pos = _leb128(data, pos)
            elif op == _LNS_CONST_ADD_PC:
                offset += max_address_increment
            else:
                raise ValueError(f"line-program opcode {op}")
        else:
            op -= opcode_base
            offset += op // line_range
            line += line_base + op % line_range
            if not hidden:
                lines.append((offset, line))
    return lines
