"""Writing a generated test as litmus source: X86 (Intel syntax), LISA, C and RISC-V."""

from __future__ import annotations

from ..core.errors import UnsupportedError
from ..core.program import Load, Store
from ..litmus import dialect_for, parse_litmus
from .shape import Shape

X86_REGS = ("EAX", "EBX", "ECX", "EDX", "ESI", "EDI")
WRITABLE = ("X86", "LISA", "C", "RISCV")
RISCV_FIRST_REG, RISCV_LAST_REG = 5, 31  # x5..x31: diy's registers (x0 is zero, x1-x4 are special)


def _columns(arch: str, cells: list[list[str]]) -> list[str]:
    """herd's table of thread columns: ``P0 | P1 ;`` then one row per instruction."""
    width = [max([len(f"P{t}")] + [len(c) for c in col]) for t, col in enumerate(cells)]
    rows = max(len(col) for col in cells)
    out = [" " + " | ".join(f"P{t}".ljust(width[t]) for t in range(len(cells))) + " ;"]
    for r in range(rows):
        out.append(" " + " | ".join((col[r] if r < len(col) else "").ljust(width[t])
                                    for t, col in enumerate(cells)) + " ;")
    return out


def _head(arch: str, name: str, shape: Shape, init: str = "{\n}") -> list[str]:
    return [f"{arch} {name}", f'"{shape.text}"', f"Cycle={shape.text}",
            "Generator=mmdsl generate", init]


def _condition(shape: Shape, reg, mem) -> str:
    parts = [f"{t}:{reg(t, a.reg)}={a.value}" for t, th in enumerate(shape.threads) for a in th
             if a.dir == "R" and a.pinned]
    parts += [f"{mem(loc)}={shape.finals[loc]}" for loc in shape.locations if loc in shape.finals]
    joined = " /\\ ".join(parts) if parts else "true"
    return f"exists ({joined})"


def _no_deps(shape: Shape, arch: str) -> None:
    for th in shape.threads:
        for a in th:
            if a.before is not None and a.before.kind == "dep":
                raise UnsupportedError(f"the {arch} writer cannot write dependency edge {a.before.name}",
                                       hint="write dependency tests in LISA or RISC-V (--arch LISA, --arch RISCV)")


def write_x86(shape: Shape, name: str) -> str:
    _no_deps(shape, "X86")
    if max(sum(a.dir == "R" for a in th) for th in shape.threads) > len(X86_REGS):
        raise UnsupportedError("too many reads on one thread for the X86 writer's registers")
    cells = []
    for th in shape.threads:
        col = []
        for a in th:
            col.append(f"MOV {X86_REGS[a.reg]},[{a.loc}]" if a.dir == "R" else f"MOV [{a.loc}],${a.value}")
        cells.append(col)
    lines = _head("X86", name, shape) + _columns("X86", cells)
    lines.append(_condition(shape, lambda t, r: X86_REGS[r], lambda loc: f"[{loc}]"))
    return "\n".join(lines) + "\n"


def write_lisa(shape: Shape, name: str) -> str:
    cells = []
    for th in shape.threads:
        col: list[str] = []
        temp = 100
        last_read = None
        labels = 0
        for a in th:
            addr, value = a.loc, str(a.value)
            e = a.before
            if e is not None and e.kind == "dep":
                src = f"r{last_read}"
                if e.dep == "Addr":
                    col.append(f"mov r{temp} (xor {src} {src})")
                    addr = f"{a.loc}+r{temp}"
                    temp += 1
                elif e.dep == "Data":
                    col.append(f"mov r{temp} (xor {src} {src})")
                    col.append(f"mov r{temp + 1} (add r{temp} {a.value})")
                    value = f"r{temp + 1}"
                    temp += 2
                else:  # Ctrl: a branch on the read value to the very next instruction
                    label = f"LC{len(cells)}{labels}"
                    labels += 1
                    col.append(f"b[] {src} {label}")
                    col.append(f"{label}:")
            if a.dir == "R":
                col.append(f"r[] r{a.reg} {addr}")
                last_read = a.reg
            else:
                col.append(f"w[] {addr} {value}")
        cells.append(col)
    lines = _head("LISA", name, shape) + _columns("LISA", cells)
    lines.append(_condition(shape, lambda t, r: f"r{r}", lambda loc: loc))
    return "\n".join(lines) + "\n"


def write_c(shape: Shape, name: str) -> str:
    _no_deps(shape, "C")
    lines = [f"C {name}", f'"{shape.text}"', f"Cycle={shape.text}", "Generator=mmdsl generate", "{}", ""]
    params = ", ".join(f"int *{loc}" for loc in shape.locations)
    for t, th in enumerate(shape.threads):
        lines.append(f"P{t}({params})")
        lines.append("{")
        reads = sorted({a.reg for a in th if a.dir == "R"})
        if reads:
            lines.append("    int " + ", ".join(f"r{r}" for r in reads) + ";")
            lines.append("")
        for a in th:
            if a.dir == "R":
                lines.append(f"    r{a.reg} = READ_ONCE(*{a.loc});")
            else:
                lines.append(f"    WRITE_ONCE(*{a.loc}, {a.value});")
        lines.append("}")
        lines.append("")
    lines.append(_condition(shape, lambda t, r: f"r{r}", lambda loc: loc))
    return "\n".join(lines) + "\n"


def _riscv_thread(t: int, th, inits: list[str], read_regs: dict) -> list[str]:
    """One thread in diy's RISC-V layout: a fresh register per value and per location
    address (set in the init), ``ori``+``sw`` stores, ``lw`` loads, and dependencies as
    diy writes them (addr: ``xor``+``add``; data: ``xor``+``ori``; ctrl: ``bne`` to a label)."""
    free = iter(range(RISCV_FIRST_REG, RISCV_LAST_REG + 1))

    def fresh() -> str:
        n = next(free, None)
        if n is None:
            raise UnsupportedError(f"thread P{t} needs more registers than RISC-V's x5..x31")
        return f"x{n}"

    col: list[str] = []
    addr: dict[str, str] = {}
    last_read = ""
    labels = 0
    for a in th:
        e = a.before
        dep = e.dep if e is not None and e.kind == "dep" else ""
        value = fresh() if not (a.dir == "W" and dep == "Data") else ""
        if a.loc not in addr:
            addr[a.loc] = fresh()
            inits.append(f"{t}:{addr[a.loc]}={a.loc};")
        base = addr[a.loc]
        if dep == "Addr":
            zero, moved = fresh(), fresh()
            col += [f"xor {zero},{last_read},{last_read}", f"add {moved},{base},{zero}"]
            base = moved
        elif dep == "Data":
            value = fresh()
            col += [f"xor {value},{last_read},{last_read}", f"ori {value},{value},{a.value}"]
        elif dep == "Ctrl":
            label = f"LC{t}{labels}"
            labels += 1
            col += [f"bne {last_read},x0,{label}", f"{label}:"]
        if a.dir == "R":
            col.append(f"lw {value},0({base})")
            read_regs[(t, a.reg)] = last_read = value
        else:
            if dep != "Data":
                col.append(f"ori {value},x0,{a.value}")
            col.append(f"sw {value},0({base})")
    return col


def write_riscv(shape: Shape, name: str) -> str:
    cells, init_rows, read_regs = [], [], {}
    for t, th in enumerate(shape.threads):
        inits: list[str] = []
        cells.append(_riscv_thread(t, th, inits, read_regs))
        init_rows.append(" ".join(inits))
    init = "{\n" + "\n".join(init_rows) + "\n}"
    lines = _head("RISCV", name, shape, init) + _columns("RISCV", cells)
    lines.append(_condition(shape, lambda t, r: read_regs[(t, r)], lambda loc: loc))
    return "\n".join(lines) + "\n"


def write_test(shape: Shape, name: str, arch: str) -> str:
    """The litmus source of ``shape`` in ``arch`` (X86, LISA, C or RISCV).

    The accesses are written first; the fences of fence edges are then put in by the
    dialect's own ``write_with_fences`` (the writer of ``mmdsl fences -o``), before the
    access each fence edge ends on (before the instructions that prepare that access, such
    as RISC-V's ``ori`` of a stored value, right after the previous access).
    """
    writer = {"X86": write_x86, "LISA": write_lisa, "C": write_c, "RISCV": write_riscv}.get(arch.upper())
    if writer is None:
        raise UnsupportedError(f"mmdsl generate cannot write {arch} tests",
                               hint="architectures: " + ", ".join(WRITABLE))
    text = writer(shape, name)
    fenced = [(tid, k, a.before.fence) for tid, th in enumerate(shape.threads) for k, a in enumerate(th)
              if a.before is not None and a.before.kind == "fence"]
    if not fenced:
        return text
    program = parse_litmus(text, f"{name}.litmus")
    dialect = dialect_for(program.arch)
    insertions = []
    for tid, k, fence in fenced:
        accesses = [i for i, ins in enumerate(program.threads[tid].instrs) if isinstance(ins, (Load, Store))]
        insertions.append((tid, accesses[k - 1] + 1 if k else accesses[k], fence))
    return dialect.write_with_fences(program, insertions)
