"""The CIL reader and lowering on committed monodis listings: runs without mono installed."""

from __future__ import annotations

from pathlib import Path

import pytest

from mmdsl.core.program import Branch, Load, Rmw, Store
from mmdsl.explorer import explore
from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus
from mmdsl.litmus.cil.reader import field_ref, method_ref, read_il

DATA = Path(__file__).parent / "data"


def test_reader_sees_classes_fields_methods_and_handlers():
    asm = read_il((DATA / "Rw.il").read_text(), "Rw.il")
    assert asm.classes == ["Rw"]
    assert {n for (_, n) in asm.fields} >= {"l", "readers", "d1", "d2", "<>f__mg$cache0"}  # and the delegate caches
    assert asm.entry.name == "Main"
    reader = asm.methods[("Rw", "Reader")]
    assert [h.kind for h in reader.handlers] == ["finally"]  # lock (l) { ... }
    assert reader.locals and all(o.label.startswith("IL_") for o in reader.ops)
    assert asm.methods[("Rw", ".cctor")].ops[0].opcode == "newobj"


def test_operand_parsing():
    assert field_ref("int32 modreq ([mscorlib]System.Runtime.CompilerServices.IsVolatile) P::flag0") == ("P", "flag0")
    ref = method_ref("int32 class [mscorlib]System.Threading.Interlocked::CompareExchange([out] int32&, int32, int32)")
    assert (ref.cls, ref.name, len(ref.params), ref.returns) == ("System.Threading.Interlocked", "CompareExchange",
                                                                3, "int32")
    assert method_ref("instance void class [mscorlib]System.Threading.Thread::Start()").instance


def test_volatile_prefix_annotates_the_access():
    prog = load_litmus(DATA / "PetersonVolatile.il")
    assert [t.name for t in prog.threads] == ["P0", "P1"]
    accesses = [i for i in prog.threads[0].instrs if isinstance(i, (Load, Store))]
    assert accesses and all("volatile" in i.annots for i in accesses)
    assert any(isinstance(i, Branch) and i.target < k for k, i in enumerate(prog.threads[0].instrs))  # the loop
    assert prog.condition.text() == "exists (counter!=2)"
    assert prog.init["counter"] == 0


def test_lock_becomes_lock_and_unlock():
    prog = load_litmus(DATA / "Rw.il")
    assert len(prog.threads) == 3
    reader = prog.threads[0].instrs
    locks = [i for i in reader if isinstance(i, Rmw)]
    unlocks = [i for i in reader if isinstance(i, Store) and "unlock" in i.annots]
    assert [i.annots for i in locks] == [frozenset({"lock"})] and locks[0].blocking
    assert len(unlocks) == 1 and locks[0].addr == unlocks[0].addr
    # the static object `l` made by the static constructor: node 1, its monitor a location
    assert prog.init["obj1.$lock"] == 0 and prog.init["l"] == 1


@pytest.mark.parametrize("name, model, verdict", [
    ("PetersonVolatile", "sc", "Forbidden"), ("PetersonVolatile", "dotnet", "Allowed"),
    ("Rw", "sc", "Forbidden"), ("Rw", "dotnet", "Forbidden"), ("Rw", "pso", "Allowed"),
])
def test_listing_verdicts_match_the_c_dialect_versions(name, model, verdict):
    """litmus/programs/manifest.yaml's expectations for peterson-volatile and rw."""
    prog = load_litmus(DATA / f"{name}.il")
    space = explore(prog, load_model(model))
    assert ("Allowed" if space.positive else "Forbidden") == verdict


def test_errors_point_at_the_listing_line():
    from mmdsl.core.errors import MmdslError
    lines = (DATA / "Rw.il").read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if line.strip().startswith("IL_0000:"))
    text = "\n".join(lines[:at + 1] + ["\tgarbage here"] + lines[at + 1:])
    with pytest.raises(MmdslError) as info:
        from mmdsl.litmus.cil import parse_il
        parse_il(text, "bad.il")
    assert info.value.pos is not None and (info.value.pos.file, info.value.pos.line) == ("bad.il", at + 2)
    assert "garbage here" in str(info.value)
