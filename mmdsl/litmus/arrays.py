"""herd's array locations in the init block and the final condition, as one scalar location per cell.

herd declares an array in the init block (``int x[2] = {1,-1};``, ``int x[2];`` for
zeros; ``x = {1,-1}`` is read as the same array, its size taken from the initialiser)
and names its cells ``x[0]``, ``x[1]`` ... in conditions and ``locations``; a condition
may also compare the whole array (``x={1,-1}``).

mmdsl's core has scalar locations only, so each cell is one location: cell 0 is the
location ``x`` itself (what an access to address ``x`` reaches, as in herd, where an
array's address is that of its first cell), cell i > 0 is the location ``x[i]``. An
instruction can reach no other cell: that would take arithmetic on the address of ``x``
(``x+4``, ``x+r1`` with r1 not 0), which the core refuses by name. A whole-array atom is
the conjunction of its cells' atoms. Final states print cell 0 as ``x`` and the others
as ``x[i]``.
"""

from __future__ import annotations

from ..core.condition import And, Atom, Not, Prop
from ..core.errors import LitmusError, SourcePos, UnsupportedError

MAX_CELLS = 256  # herd's tests use a handful (16 at most); each cell is a location of every execution


def cell_name(array: str, index: int) -> str:
    """The location of cell ``index`` of ``array``: ``x`` for cell 0, ``x[1]`` ..."""
    return array if index == 0 else f"{array}[{index}]"


def array_cells(name: str, size: int | None, values: list | None, pos: SourcePos) -> dict[str, object]:
    """The initial value of every cell of an array declared in the init block.

    ``size`` is the declared size (None for ``x = {...}``), ``values`` the initialiser
    (None for ``int x[2];``: all zero). herd requires both to agree.
    """
    if size is None and values is None:
        raise LitmusError(f"array '{name}' has neither a size nor an initialiser", pos,
                          expected=f"'{name}[2]' or '{name}[2] = {{1,2}}'")
    if size is not None and values is not None and size != len(values):
        raise LitmusError(f"array '{name}' is declared with {size} cells and initialised with {len(values)}",
                          pos, expected=f"{size} values between braces")
    if values is not None and not values:
        raise LitmusError(f"array '{name}' is initialised with no value", pos, expected="'{1,2}'")
    if size is not None and size < 1:
        raise LitmusError(f"array '{name}' has {size} cells", pos, expected="a size of 1 or more")
    cells = size if size is not None else len(values)
    if cells > MAX_CELLS:
        raise UnsupportedError(f"array '{name}' has {cells} cells; at most {MAX_CELLS} are supported", pos)
    values = values if values is not None else [0] * size
    return {cell_name(name, i): v for i, v in enumerate(values)}


def cell_key(name: str, index: int, arrays: dict[str, int], pos: SourcePos) -> tuple:
    """The key of ``name[index]`` in a condition or ``locations``."""
    size = arrays.get(name)
    if size is None:
        raise LitmusError(f"'{name}[{index}]' names a cell of '{name}', which the init block does not "
                          f"declare as an array", pos, expected=f"an init item such as 'int {name}[2];'")
    if index >= size:
        raise LitmusError(f"'{name}[{index}]' is past the end of array '{name}' ({size} cells)", pos,
                          expected=f"an index below {size}")
    return ("mem", cell_name(name, index))


def whole_array_atom(name: str, values: list, negated: bool, arrays: dict[str, int], pos: SourcePos) -> Prop:
    """``x={1,-1}`` (or ``x!={1,-1}``) as the conjunction of its cells' atoms."""
    size = arrays.get(name)
    if size is None:
        raise LitmusError(f"'{name}' is compared with an array value, and the init block does not declare "
                          f"it as an array", pos, expected=f"an init item such as 'int {name}[{len(values)}];'")
    if len(values) != size:
        raise LitmusError(f"'{name}' has {size} cells and is compared with {len(values)} values", pos,
                          expected=f"{size} values between braces")
    cells = tuple(Atom(("mem", cell_name(name, i)), v) for i, v in enumerate(values))
    prop: Prop = cells[0] if len(cells) == 1 else And(cells)
    return Not(prop) if negated else prop


def check_scalar_use(key: tuple, arrays: dict[str, int], pos: SourcePos) -> None:
    """Refuse ``x=1`` on an array of several cells: herd compares a whole array with an array value."""
    if key[0] == "mem" and arrays.get(key[1], 1) > 1:
        name, size = key[1], arrays[key[1]]
        raise LitmusError(f"'{name}' is an array of {size} cells, compared here with one value", pos,
                          expected=f"a cell ('{name}[0]=...') or the whole array ('{name}={{...}}')")


def observed_cells(name: str, arrays: dict[str, int]) -> list[tuple]:
    """The keys ``locations [x;]`` shows: every cell of an array, else the location itself."""
    return [("mem", cell_name(name, i)) for i in range(arrays.get(name, 1))]
