"""Generating tests: cycles from edge sets or from two models, checked, named and written as a suite."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..axiomatic import check
from ..core.errors import MmdslError, writing
from ..core.events import EventShape
from ..core.limits import TimeLimitError, seconds_text
from ..core.outfiles import inside, safe_stem
from ..lang.ir import Model
from ..lang.table import compiled_table
from ..litmus import parse_litmus
from .cycles import Bounds, canonical, enumerate_cycles, thread_count
from .edges import Edge, cycle_text, parse_edges
from .names import family_name, name_and_shape
from .writers import write_test

_SHAPE = {"R": EventShape("R"), "W": EventShape("W")}
COMMUNICATION = [Edge("rf", "W", "R", True, True), Edge("fr", "R", "W", True, True),
                 Edge("co", "W", "W", True, True)]


@dataclass
class Generated:
    """One generated test: its cycle, name, source, and verdicts by model name."""

    cycle: tuple
    name: str
    source: str
    verdicts: dict[str, str] = field(default_factory=dict)

    @property
    def size(self) -> int:
        return len(self.cycle)

    @property
    def threads(self) -> int:
        return thread_count(self.cycle)


# the fence kinds of the RISC-V dialect that order memory accesses (as models/riscv.mm names them)
RISCV_FENCES = ("fence-rw-rw", "fence-rw-r", "fence-rw-w", "fence-r-rw", "fence-w-rw",
                "fence-r-r", "fence-r-w", "fence-w-r", "fence-w-w", "fence-tso")


def arch_fences(arch: str) -> dict[str, str]:
    """The fence words edges may name when writing ``arch`` tests (lower-case word -> spelling)."""
    from ..litmus import dialect_for

    if arch.upper() in ("RISCV", "RISC-V"):  # riscv.mm's fence kinds, in diy's words (Fence.rw.rw)
        return {k.replace("-", "."): k for k in RISCV_FENCES}
    words = {"X86": ["mfence", "sfence", "lfence"], "C": ["mb", "rmb", "wmb"]}.get(arch.upper())
    if words is None:
        return {}  # LISA: the model's fences (model_fences)
    dialect_for(arch)
    return {w: w for w in words}


def model_fences(model: Model) -> dict[str, str]:
    """Every spelling of every fence of ``model`` (lower-case -> the spelling; ``fence-rw-rw``
    is also named as diy writes it in edges, ``fence.rw.rw``)."""
    spellings = [s for f in model.fences.values() for s in f.spellings]
    return {**{s.lower().replace("-", "."): s for s in spellings}, **{s.lower(): s for s in spellings}}


def po_edges() -> list[Edge]:
    return [Edge("po", s, d, False) for s in "WR" for d in "WR"]


def model_keeps(model: Model, edge: Edge) -> bool | None:
    """Does ``model`` keep the order an edge's program-order part describes?

    A plain po edge: the table's cell (at the same or different locations); a fence edge:
    the fence orders the pair, or the table does; communication edges are always kept,
    except ``Rfi`` under a model that forwards (a read may take its own write early).
    ``None`` when the model cannot say: a model of axioms alone has no table to read a po
    or fence edge from (the checker then decides, test by test).
    """
    if edge.is_com:
        return not (edge.kind == "rf" and not edge.external and model.forwarding)
    if model.table is None:
        return None
    table = compiled_table(model)
    a, b = _SHAPE[edge.src], _SHAPE[edge.dst]
    kept = table.kept_at_same_location(a, b, False) if edge.same_loc else table.keeps(a, b, False, False)
    if edge.kind == "fence":
        from ..lang.table import compiled_fences

        kept = kept or compiled_fences(model).orders_pair(edge.fence, a, b)
    elif edge.kind == "dep":
        from ..lang.table import compiled_dependencies

        kept = kept or compiled_dependencies(model).keeps(edge.dep.lower(), a, b)
    return kept


def relaxed_by(a: Model, b: Model, edges: list[Edge]) -> list[Edge]:
    """The edges ``a`` may relax and ``b`` may keep: an edge a model of axioms alone cannot
    judge (``model_keeps`` is None) counts both ways, so its cycles are generated and the
    verdicts of both models, checked on each test, decide which tests differ."""
    return [e for e in edges if model_keeps(a, e) is not True and model_keeps(b, e) is not False]


def default_pool(a: Model, b: Model | None = None) -> list[Edge]:
    """Edges to build cycles from when comparing models: po at different locations, Rfe,
    Fre, Coe, and Rfi when a model forwards or may (a model of axioms alone)."""
    pool = po_edges() + COMMUNICATION
    if any(m is not None and (m.forwarding or m.table is None) for m in (a, b)):
        pool.append(Edge("rf", "W", "R", True, False))
    return pool


def generated_tests(cycles, arch: str, numeric: bool = False, style: str = "7.55") -> list[Generated]:
    """Name and write each cycle's test, numbered as diy7 numbers them in the order given
    (diy's search order, see ``enumerate_cycles``): a second test of one name gets ``001``,
    a third ``002``; with ``numeric`` (diy7's ``-num true``), every test is its family and a
    number, ``SB000``, ``SB001``, ...; ``style``: diy7 7.55's names or 7.58's. Smallest first."""
    from .names import NAME_STYLES

    if style not in NAME_STYLES:
        raise MmdslError(f"unknown name style '{style}'", expected=", ".join(NAME_STYLES))
    out: list[Generated] = []
    used: dict[str, int] = {}
    for c in cycles:
        name, shape = name_and_shape(c, style)
        base = family_name(shape.cycle) if numeric else name
        count = used.get(base, 0)
        used[base] = count + 1
        if numeric or count:
            name = f"{base}{count:03d}"
        out.append(Generated(tuple(shape.cycle), name, write_test(shape, name, arch)))
    return sorted(out, key=lambda t: (t.size, t.threads, cycle_text(canonical(t.cycle))))


ENGINES = ("axiomatic", "explorer", "both")


def check_all(tests: list[Generated], models: dict[str, Model], timeout: float | None,
              engine: str = "axiomatic") -> None:
    """Each test's verdict under each model, within ``timeout`` seconds in all. ``engine``:
    the axiomatic checker, the explorer, or both (a disagreement between them is an error)."""
    if engine not in ENGINES:
        raise MmdslError(f"unknown engine '{engine}'", expected=", ".join(ENGINES))
    deadline = time.monotonic() + timeout if timeout else None
    for t in tests:
        program = parse_litmus(t.source, f"{t.name}.litmus")
        for col, model in models.items():
            if deadline is not None and time.monotonic() > deadline:
                raise TimeLimitError(f"checking the generated tests ran past {seconds_text(timeout)} s")
            verdicts = []
            if engine in ("axiomatic", "both"):
                verdicts.append(check(program, model, collect="none").verdict)
            if engine in ("explorer", "both"):
                from ..explorer.explore import explore

                verdicts.append(explore(program, model).verdict)
            if len(set(verdicts)) > 1:
                raise MmdslError(f"the engines disagree on generated test {t.name} under {col}: "
                                 f"axiomatic {verdicts[0]}, explorer {verdicts[1]}",
                                 hint=f"its cycle: {cycle_text(t.cycle)}")
            t.verdicts[col] = verdicts[0]


def generate_cycles(relax: list[Edge], safe: list[Edge], bounds: Bounds, arch: str,
                    numeric: bool = False, style: str = "7.55") -> list[Generated]:
    """diy7's: the tests of every cycle of ``relax`` and ``safe`` edges in ``bounds.mode``."""
    return generated_tests(enumerate_cycles(relax, safe, bounds), arch, numeric, style)


def distinguishing(a: tuple[str, Model], b: tuple[str, Model], bounds: Bounds, arch: str,
                   one_way: bool = False, extra: list[Edge] | None = None,
                   engine: str = "axiomatic") -> list[Generated]:
    """The tests whose verdicts differ under models ``a`` and ``b``, smallest first.

    Cycles use at least one edge that one model relaxes and the other keeps (only ``a``
    relaxing when ``one_way``: what ``a`` allows and ``b`` forbids).
    """
    (na, ma), (nb, mb) = a, b
    pool = list(dict.fromkeys(default_pool(ma, mb) + list(extra or [])))
    relax = relaxed_by(ma, mb, pool) + ([] if one_way else relaxed_by(mb, ma, pool))
    if not relax:
        return []
    start = time.monotonic()
    tests = generated_tests(enumerate_cycles(relax, pool, replace(bounds, mix=True)), arch)
    left = None if not bounds.timeout else max(0.001, bounds.timeout - (time.monotonic() - start))
    check_all(tests, {na: ma, nb: mb}, left, engine)
    keep = [t for t in tests if t.verdicts[na] != t.verdicts[nb]]
    if one_way:
        keep = [t for t in keep if t.verdicts[na] == "Allowed"]
    return sorted(keep, key=lambda t: (t.size, t.threads, t.name))


def model_spec(column: str, spec: str, folder: Path) -> str:
    """How the manifest in ``folder`` names a model: ``COLUMN=NAME`` for a bundled one,
    ``COLUMN=PATH`` with the path relative to ``folder`` for a model file."""
    if spec.endswith(".mm") or "/" in spec or "\\" in spec:
        spec = os.path.relpath(Path(spec).resolve(), folder.resolve())
    return f"{column}={spec}"


def write_suite(tests: list[Generated], folder: str | Path, name: str,
                columns: list[tuple[str, str]] | None = None, description: str = "") -> Path:
    """Write each test as ``NAME.litmus`` and a ``manifest.yaml`` whose expectations are the
    verdicts found, into ``folder``; ``columns`` holds (column, model as the user named it)."""
    out = Path(folder)
    with writing(f"the generated suite in {out}"):
        out.mkdir(parents=True, exist_ok=True)
        lines = [f"# Generated by mmdsl generate: {len(tests)} test(s).", f"name: {_yaml(name)}"]
        if description:
            lines.append(f"description: {_yaml(description)}")
        if columns:
            lines.append("models: [" + ", ".join(_yaml(model_spec(c, spec, out)) for c, spec in columns) + "]")
        lines.append('tests: ["*.litmus"]')
        if columns and tests:
            lines.append("expect:")
        for t in tests:
            stem = safe_stem(t.name)
            inside(out, stem + ".litmus").write_text(t.source)
            if columns:
                cells = ", ".join(f"{_yaml(c)}: {t.verdicts[c]}" for c, _ in columns if c in t.verdicts)
                lines.append(f"  {_yaml(t.name)}: {{{cells}, reason: {_yaml('cycle ' + cycle_text(t.cycle))}}}")
        inside(out, "manifest.yaml").write_text("\n".join(lines) + "\n")
    return out


def _yaml(text: str) -> str:
    """A YAML double-quoted scalar."""
    return '"' + str(text).replace("\\", "\\\\").replace('"', '\\"') + '"'


def edges_from_words(words: list[str], fences: dict[str, str], any_fence: bool = False) -> list[Edge]:
    """The edges of a list of words, each once (``any_fence``: a fence may have any name)."""
    out: list[Edge] = []
    for w in words:
        for e in parse_edges(w, fences, any_fence):
            if e not in out:
                out.append(e)
    return out


def check_arch(arch: str) -> str:
    from .writers import WRITABLE

    if arch.upper() == "RISC-V":
        arch = "RISCV"
    if arch.upper() not in WRITABLE:
        raise MmdslError(f"mmdsl generate cannot write {arch} tests", hint="architectures: " + ", ".join(WRITABLE))
    return arch.upper()


def _words(text: str) -> list[str]:
    return text.replace(",", " ").split()


def generate_from_words(relax: str, safe: str, bounds: Bounds, arch: str, numeric: bool = False,
                        style: str = "7.55") -> list[Generated]:
    """``mmdsl generate --relax R --safe S``: edge lists as the user wrote them."""
    arch = check_arch(arch)
    fences, lisa = arch_fences(arch), arch == "LISA"
    return generate_cycles(edges_from_words(_words(relax), fences, lisa),
                           edges_from_words(_words(safe), fences, lisa), bounds, arch, numeric, style)


def generate_from_models(spec_a: str, spec_b: str, bounds: Bounds, arch: str, *, safe: str = "",
                         one_way: bool = True, engine: str = "axiomatic"
                         ) -> tuple[list[Generated], list[tuple[str, str]]]:
    """The tests model ``spec_a`` allows and ``spec_b`` forbids (both ways unless ``one_way``),
    with the suite columns: (column, model as named); two models of one name get ``.1``, ``.2``."""
    from ..lang import load_model

    arch = check_arch(arch)
    ma, mb = load_model(spec_a), load_model(spec_b)
    a, b = ma.name, mb.name
    if a == b:
        a, b = f"{a}.1", f"{b}.2"
    fences = {**arch_fences(arch), **model_fences(ma)} if arch == "LISA" else arch_fences(arch)
    extra = edges_from_words(_words(safe), fences, arch == "LISA")
    tests = distinguishing((a, ma), (b, mb), bounds, arch, one_way=one_way, extra=extra, engine=engine)
    return tests, [(a, spec_a), (b, spec_b)]
