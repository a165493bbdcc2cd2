"""X86_64 register parts (%eax, %ax, %al, %ah of rax), shifts, NOP forms and ret, as herd and Intel define them.

The expected values are worked out by hand from Intel's manual (vol. 1, 3.4.1.1: a 32-bit
write zero-extends, an 8- or 16-bit write leaves the other bits; vol. 2, SAL/SAR/SHL/SHR:
the count is masked to 5 bits, 6 for 64-bit operands), which herd's X86_64Sem follows.
"""

from __future__ import annotations

import pytest

from mmdsl.axiomatic import check
from mmdsl.core.errors import LitmusError
from mmdsl.explorer import explore
from mmdsl.lang import load_model
from mmdsl.litmus import parse_litmus


def final(text: str, model: str = "sc") -> dict:
    """The one final state of a test (keys as '0:rax' / 'x'); both engines must agree."""
    p = parse_litmus(text, "t.litmus")
    m = load_model(model)
    axiomatic = check(p, m, collect="none").state_set()
    assert axiomatic == explore(p, m).result.state_set()
    assert len(axiomatic) == 1, axiomatic
    (state,) = axiomatic
    return {(f"{k[1]}:{k[2]}" if k[0] == "reg" else k[1]): v for k, v in state}


def one_thread(lines: list[str], observe: str, init: str = "") -> dict:
    """The final values of the ``observe`` keys after one thread runs ``lines``."""
    body = "\n".join(f" {line} ;" for line in lines)
    got = final(f"X86_64 t\n{{ {init} }}\n P0 ;\n{body}\nlocations [{observe}]\nexists (0:rax=0)\n")
    keys = [k.strip() for k in observe.split(";") if k.strip()]
    return {k: got[k] for k in keys}


def test_32_bit_writes_zero_extend_into_the_64_bit_register():
    got = one_thread(["movq $-1,%rax", "movl $1,%eax", "movq $-1,%r9", "movl $0,%r9d"], "0:rax; 0:r9;")
    assert got == {"0:rax": 1, "0:r9": 0}


def test_a_negative_32_bit_immediate_is_its_32_bit_pattern():
    assert one_thread(["movl $-1,%eax"], "0:rax;") == {"0:rax": 4294967295}


def test_8_and_16_bit_writes_change_only_their_bits():
    got = one_thread(["movq $-1,%rax", "movb $0,%al", "movq $-1,%rbx", "movw $0,%bx",
                      "movq $-1,%rsi", "movw $7,%si", "movb $5,%ch"], "0:rax; 0:rbx; 0:rsi; 0:rcx;")
    assert got == {"0:rax": -256, "0:rbx": -65536, "0:rsi": -65529, "0:rcx": 5 << 8}


def test_reading_a_part_reads_its_bits():
    got = one_thread(["movb %bl,(x)", "movw %bx,(y)", "movl %ebx,(z)", "movb %bh,(w)"],
                     "x; y; z; w;", init="0:rbx=0x123456789abc;")
    assert got == {"x": 0xBC, "y": 0x9ABC, "z": 0x56789ABC, "w": 0x9A}


def test_a_sized_load_takes_the_low_bits_of_memory():
    got = one_thread(["movl (x),%eax", "movb (x),%bl", "movq (x),%rcx"], "0:rax; 0:rbx; 0:rcx;", init="x=-1;")
    assert got == {"0:rax": 0xFFFFFFFF, "0:rbx": 0xFF, "0:rcx": -1}


def test_32_bit_arithmetic_wraps_and_sets_the_zero_flag():
    got = one_thread(["movl $-1,%eax", "addl $1,%eax", "je L", "movq $9,%rdx", "L: movq $1,%rcx"],
                     "0:rax; 0:rdx; 0:rcx;")
    assert got == {"0:rax": 0, "0:rdx": 0, "0:rcx": 1}


@pytest.mark.parametrize("lines, value", [
    (["movl $1,%eax", "shll $4,%eax"], 16),
    (["movl $1,%eax", "sall $4,%eax"], 16),
    (["movl $1,%eax", "shl 2,%eax"], 4),              # herd's A007: a bare immediate
    (["movl $1,%eax", "shll %eax"], 2),               # one operand: shift by one
    (["movl $1,%eax", "movb $33,%cl", "shll %cl,%eax"], 2),   # 32-bit count masked to 5 bits
    (["movq $1,%rax", "shlq $65,%rax"], 2),            # 64-bit count masked to 6 bits
    (["movq $1,%rax", "shlq $63,%rax"], -(1 << 63)),
    (["movl $0x80000001,%eax", "shll $1,%eax"], 2),   # bits shifted out of 32 are lost
    (["movq $-8,%rax", "sarl $1,%eax"], 0xFFFFFFFC),
    (["movq $-8,%rax", "shrl $1,%eax"], 0x7FFFFFFC),
    (["movq $-1,%rax", "shrq $1,%rax"], (1 << 63) - 1),
    (["movq $-4,%rax", "sarq $1,%rax"], -2),
    (["movq $-1,%rax", "shrb $4,%al"], -1 - 0xF0),    # only al changes: 0xff -> 0x0f
])
def test_shifts(lines, value):
    assert one_thread(lines, "0:rax;")["0:rax"] == value


def test_a_shift_sets_the_zero_flag_unless_its_count_is_zero():
    got = one_thread(["movl $0x80000000,%eax", "shll $1,%eax", "jne L", "movq $1,%rdx",
                      "L: cmpl $1,%ebx", "movb $0,%cl", "shll %cl,%ebx", "je M", "movq $1,%rsi", "M: nop"],
                     "0:rdx; 0:rsi;")
    assert got == {"0:rdx": 1, "0:rsi": 1}


def test_shift_of_memory():
    assert one_thread(["shlq $3,(x)", "sarl $1,(y)"], "x; y;", init="x=1; y=-4;") == {"x": 8, "y": 0xFFFFFFFE}


def test_nop_forms_and_endbr64_do_nothing():
    got = one_thread(["NOP", "nop", "nopl 0(%rax,%eax,0)", "nopw 0(%rax,%eax,0)", "NOPL %cs:0(%rax,%eax,0)",
                      "nopw %cs:0x0(%rax,%rax,1)", "endbr64", "movq $1,%rbx"], "0:rbx;")
    assert got == {"0:rbx": 1}


def test_ret_ends_the_thread():
    assert one_thread(["movq $1,%rbx", "ret", "movq $2,%rbx"], "0:rbx;") == {"0:rbx": 1}


def test_scaled_index_addressing():
    got = one_thread(["movq $0,%rbx", "movq (%rax,%rbx,8),%rcx"], "0:rcx;", init="0:rax=x; x=5;")
    assert got == {"0:rcx": 5}


def test_narrow_xchg_and_cmpxchg():
    got = one_thread(["movq $-1,%rax", "movl $2,%eax", "xchgl (x),%eax",
                      "movq $0x100000005,%rdx", "movq %rdx,%rax", "movl $7,%ebx", "lock cmpxchgl %ebx,(y)",
                      "movq %rax,%rsi", "movl $6,%eax", "cmpxchgl %ebx,(z)"],
                     "0:rax; 0:rsi; x; y; z;", init="x=1; y=5; z=4;")
    # success leaves rax alone; failure loads the value read, zero-extended
    assert got == {"0:rax": 4, "0:rsi": 0x100000005, "x": 2, "y": 7, "z": 4}


def test_parts_of_registers_in_a_race_agree_between_engines():
    text = """X86_64 race
{ }
 P0              | P1               | P2             ;
 movl $2,%eax    | lock addl $1,(x) | movl (x),%ebx  ;
 xchgl (x),%eax  | movw (y),%cx     | movl $1,(y)    ;
 movl (y),%edx   | shll $4,%ecx     | shrl $1,%ebx   ;
exists (0:rax=1 /\\ x=2 /\\ 1:rcx=16 /\\ 2:rbx=1)
"""
    p = parse_litmus(text, "race.litmus")
    for model in ("sc", "tso"):
        m = load_model(model)
        result = check(p, m)
        assert result.state_set() == explore(p, m).result.state_set()
        assert result.observation == "Sometimes"


@pytest.mark.parametrize("where, text", [
    ("condition", "X86_64 t\n{ }\n P0 ;\n movl (x),%eax ;\nexists (0:eax=0)\n"),
    ("condition", "X86_64 t\n{ }\n P0 ;\n movl (x),%eax ;\nexists (0:AL=0)\n"),
    ("init", "X86_64 t\n{ 0:r8d=1; }\n P0 ;\n movl (x),%eax ;\nexists (0:rax=0)\n"),
    ("locations", "X86_64 t\n{ }\n P0 ;\n movl (x),%eax ;\nlocations [0:ax;]\nexists (0:rax=0)\n"),
])
def test_init_and_condition_name_whole_registers_as_in_herd(where, text):
    with pytest.raises(LitmusError, match=r"part of register r(ax|8)") as err:
        parse_litmus(text, "t.litmus")
    assert err.value.pos is not None and err.value.pos.line in (2, 5, 6)


def test_register_names_are_read_in_any_case_and_printed_in_lower_case():
    p = parse_litmus("X86_64 t\n{ 0:RBX=3; }\n P0 ;\n MOVQ %RBX,%RAX ;\nforall (0:RAX=3)\n", "t.litmus")
    result = check(p, load_model("sc"))
    assert result.observation == "Always"
    assert [k for k, _ in next(iter(result.states))] == [("reg", 0, "rax")]


def test_unsupported_x86_64_instruction_is_refused_by_name():
    with pytest.raises(LitmusError, match="unsupported x86 instruction 'movsbl'"):
        parse_litmus("X86_64 t\n{ }\n P0 ;\n movsbl (x),%eax ;\nexists (0:rax=0)\n", "t.litmus")
    with pytest.raises(LitmusError, match="count of shll"):
        parse_litmus("X86_64 t\n{ }\n P0 ;\n shll (x),%eax ;\nexists (0:rax=0)\n", "t.litmus")


def test_the_x86_intel_dialect_is_unchanged():
    """X86 has no register parts here, and no shifts or NOPs (herd's X86 has none)."""
    with pytest.raises(LitmusError, match="unsupported x86 instruction 'SHL'"):
        parse_litmus("X86 t\n{ }\n P0 ;\n SHL EAX,$1 ;\nexists (0:EAX=0)\n", "t.litmus")
    p = parse_litmus("X86 t\n{ }\n P0 ;\n MOV EAX,$-1 ;\nexists (0:EAX=-1)\n", "t.litmus")
    assert check(p, load_model("sc")).observation == "Always"
