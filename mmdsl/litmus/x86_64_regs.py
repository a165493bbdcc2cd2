"""X86_64 registers as herd7 reads them: %eax, %ax, %al, %ah are parts of the one register rax."""

from __future__ import annotations

from ..core.program import BinOp, Const, Expr, Reg

# the sixteen general-purpose registers, by their 64-bit name, and their parts:
# (32-bit, 16-bit, low byte, high byte or None)
_FAMILIES = {
    "rax": ("eax", "ax", "al", "ah"),
    "rbx": ("ebx", "bx", "bl", "bh"),
    "rcx": ("ecx", "cx", "cl", "ch"),
    "rdx": ("edx", "dx", "dl", "dh"),
    "rsi": ("esi", "si", "sil", None),
    "rdi": ("edi", "di", "dil", None),
    "rbp": ("ebp", "bp", "bpl", None),
    "rsp": ("esp", "sp", "spl", None),
    **{f"r{n}": (f"r{n}d", f"r{n}w", f"r{n}b", None) for n in range(8, 16)},
}
# registers herd knows that have no parts (the instruction pointer, the code segment)
_WHOLE = ("rip", "cs")

# a part: (its 64-bit register, the lowest bit it covers, its width in bits)
PARTS: dict[str, tuple[str, int, int]] = {}
for _full, (_l, _w, _b, _h) in _FAMILIES.items():
    PARTS[_full] = (_full, 0, 64)
    PARTS[_l] = (_full, 0, 32)
    PARTS[_w] = (_full, 0, 16)
    PARTS[_b] = (_full, 0, 8)
    if _h:
        PARTS[_h] = (_full, 8, 8)
for _name in _WHOLE:
    PARTS[_name] = (_name, 0, 64)

WIDTHS = {"b": 8, "w": 16, "l": 32, "q": 64}  # AT&T size suffixes
ACCUMULATOR = {8: "al", 16: "ax", 32: "eax", 64: "rax"}


def ones(width: int) -> int:
    return (1 << width) - 1


def truncate(e: Expr, width: int | None) -> Expr:
    """``e`` cut to its low ``width`` bits (unchanged at 64 bits or with no width)."""
    if width is None or width >= 64:
        return e
    if isinstance(e, Const) and isinstance(e.value, int):
        return Const(e.value & ones(width))
    if (isinstance(e, BinOp) and e.op == "and" and isinstance(e.right, Const)
            and isinstance(e.right.value, int) and 0 <= e.right.value <= ones(width)):
        return e  # already as narrow
    return BinOp("and", e, Const(ones(width)))


def signed64(e: Expr) -> Expr:
    """``e`` wrapped to a signed 64-bit value, as herd prints them."""
    return BinOp("sub", BinOp("and", BinOp("add", e, Const(1 << 63)), Const(ones(64))), Const(1 << 63))


def signed(e: Expr, width: int) -> Expr:
    """The ``width``-bit value ``e`` (in 0 .. 2^width-1) read as a signed number."""
    half = 1 << (width - 1)
    return BinOp("sub", BinOp("and", BinOp("add", e, Const(half)), Const(ones(width))), Const(half))


class X86_64Registers:
    """How X86_64 register operands read and write the core's registers.

    The core keeps one register per family, named by its 64-bit name (``rax``). As in
    herd and Intel's manual, reading a part reads its bits of that register; writing a
    32-bit part zero-extends into the whole register, writing an 8- or 16-bit part
    changes only its bits. A name that is no x86 register (``%r1``) is a register of its
    own, as herd's symbolic registers.
    """

    sized = True  # operations have widths (suffixes, register parts)

    def name(self, text: str) -> str:
        """An operand's register as written, without ``%``, lower case if it is an x86 register."""
        bare = text[1:] if text.startswith("%") else text
        return bare.lower() if bare.lower() in PARTS else bare

    def part(self, name: str) -> tuple[str, int, int]:
        return PARTS.get(name, (name, 0, 64))

    def width(self, name: str) -> int:
        return self.part(name)[2]

    def is_whole(self, name: str) -> bool:
        return self.width(name) == 64

    def family(self, name: str) -> str:
        return self.part(name)[0]

    def read(self, name: str) -> Expr:
        full, low, width = self.part(name)
        if width == 64:
            return Reg(full)
        value = Reg(full) if not low else BinOp("shr", Reg(full), Const(low))
        return BinOp("and", value, Const(ones(width)))

    def write(self, name: str, value: Expr) -> tuple[str, Expr]:
        """(the 64-bit register, its new value) when ``value`` is written to ``name``."""
        full, low, width = self.part(name)
        if width == 64:
            return full, value
        if width == 32:
            return full, truncate(value, 32)
        kept = BinOp("and", Reg(full), Const(~(ones(width) << low)))
        new = truncate(value, width)
        if low:
            new = BinOp("shl", new, Const(low))
        return full, BinOp("or", kept, new)

    def accumulator(self, width: int, operand: str) -> str:
        """The accumulator CMPXCHG compares with, at the operation's width."""
        return ACCUMULATOR[width]


class PlainRegisters(X86_64Registers):
    """The X86 (Intel syntax) dialect's registers: every name is a register of its own."""

    sized = False

    def name(self, text: str) -> str:
        return text

    def part(self, name: str) -> tuple[str, int, int]:
        return (name, 0, 64)

    def accumulator(self, width: int, operand: str) -> str:
        return "EAX" if operand.isupper() else "rax"


def condition_register(name: str) -> tuple[str, str | None]:
    """A register named in an init or a condition: (the name the core uses, a complaint).

    herd reads only the 64-bit names there (and ``rip``, ``cs``), in either case; a part
    such as ``eax`` is refused, as herd does ("eax is not a register").
    """
    bare = name[1:] if name.startswith("%") else name
    low = bare.lower()
    if low in PARTS:
        full, _, width = PARTS[low]
        if width == 64:
            return full, None
        return bare, (f"'{bare}' is the {width}-bit part of register {full}; as in herd, an init or a "
                      f"condition names whole registers only")
    return bare, None
