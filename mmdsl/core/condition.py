"""Final conditions of litmus tests (herd's exists / ~exists / forall) and final states."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Union

Key = tuple  # ("reg", tid, name), ("mem", location) or ("at", tid): the label thread tid is at


def key_text(key: Key) -> str:
    if key[0] == "at":  # where thread key[1] is: the label of its pc
        return f"{key[1]}:at"
    if key[0] == "reg":
        return f"{key[1]}:{key[2]}"
    return key[1]


def key_sort(key: Key):
    if key[0] == "at":
        return (0, key[1], "")
    return (0, key[1], key[2]) if key[0] == "reg" else (1, 0, key[1])


@dataclass(frozen=True)
class Atom:
    key: Key
    value: object
    negated: bool = False  # `!=`

    def holds(self, state: dict) -> bool:
        v = state.get(self.key, 0)
        return (v != self.value) if self.negated else (v == self.value)

    def keys(self):
        yield self.key


@dataclass(frozen=True)
class And:
    items: tuple

    def holds(self, state: dict) -> bool:
        return all(i.holds(state) for i in self.items)

    def keys(self):
        for i in self.items:
            yield from i.keys()


@dataclass(frozen=True)
class Or:
    items: tuple

    def holds(self, state: dict) -> bool:
        return any(i.holds(state) for i in self.items)

    def keys(self):
        for i in self.items:
            yield from i.keys()


@dataclass(frozen=True)
class Not:
    item: "Prop"

    def holds(self, state: dict) -> bool:
        return not self.item.holds(state)

    def keys(self):
        yield from self.item.keys()


@dataclass(frozen=True)
class Implies:
    left: "Prop"
    right: "Prop"

    def holds(self, state: dict) -> bool:
        return (not self.left.holds(state)) or self.right.holds(state)

    def keys(self):
        yield from self.left.keys()
        yield from self.right.keys()


@dataclass(frozen=True)
class Truth:
    value: bool

    def holds(self, state: dict) -> bool:
        return self.value

    def keys(self):
        return iter(())


Prop = Union[Atom, And, Or, Not, Implies, Truth]


def prop_text(p: Prop, outer: int = 0) -> str:
    """herd's spelling of a proposition."""
    if isinstance(p, Atom):
        op = "!=" if p.negated else "="
        return f"{key_text(p.key)}{op}{p.value}"
    if isinstance(p, Truth):
        return "true" if p.value else "false"
    if isinstance(p, Not):
        return "~" + prop_text(p.item, 4)
    if isinstance(p, Implies):
        text = f"{prop_text(p.left, 1)} => {prop_text(p.right, 1)}"
        return f"({text})" if outer >= 1 else text
    prec, sym = (3, " /\\ ") if isinstance(p, And) else (2, " \\/ ")
    text = sym.join(prop_text(i, prec) for i in p.items)
    return f"({text})" if outer > prec else text


@dataclass(frozen=True)
class Condition:
    quantifier: str  # "exists", "~exists", "forall"
    prop: Prop

    def keys(self) -> list[Key]:
        seen: dict = {}
        for k in self.prop.keys():
            seen[k] = None
        return list(seen)

    @property
    def kind_word(self) -> str:
        """herd's first line: Test NAME Allowed|Forbidden|Required."""
        return {"exists": "Allowed", "~exists": "Forbidden", "forall": "Required"}[self.quantifier]

    def text(self) -> str:
        return f"{self.quantifier} ({prop_text(self.prop)})"

    def validated(self, positive: int, negative: int) -> bool:
        """herd's Ok / No."""
        if self.quantifier == "exists":
            return positive > 0
        if self.quantifier == "~exists":
            return positive == 0
        return negative == 0


class FinalState(tuple):
    """A final state restricted to the observed keys: a sorted tuple of (key, value)."""

    @staticmethod
    def of(values: dict, keys: Iterable[Key]) -> "FinalState":
        return FinalState(sorted(((k, values.get(k, 0)) for k in keys), key=lambda kv: key_sort(kv[0])))

    @staticmethod
    def of_sorted(values: dict, keys: list[Key]) -> "FinalState":
        """``of`` with ``keys`` already in ``key_sort`` order (sorted once for many states)."""
        return FinalState([(k, values.get(k, 0)) for k in keys])

    def as_dict(self) -> dict:
        return dict(self)

    def text(self) -> str:
        return " ".join(f"{key_text(k)}={v};" for k, v in self)


def observation_word(positive: int, negative: int) -> str:
    if positive == 0:
        return "Never"
    if negative == 0:
        return "Always"
    return "Sometimes"
