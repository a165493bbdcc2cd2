"""Boolean functions as reduced ordered decision diagrams, for checks over every event shape."""

from __future__ import annotations

FALSE = 0
TRUE = 1
_LEAF = 1 << 30  # the "variable" of the two leaves: after every real one


class TooLarge(Exception):
    """The diagrams grew past their node budget."""


class Bdd:
    """A shared store of decision diagrams over variables 0, 1, ... (lower ones tested first).

    A diagram is a node number; equal functions are equal numbers. Every operation is
    iterative (no recursion, however many variables) and memoised, so its cost is
    polynomial in the sizes of the diagrams it combines; ``max_nodes`` bounds the store.
    """

    def __init__(self, max_nodes: int = 200_000):
        self.max_nodes = max_nodes
        self.nodes: list[tuple[int, int, int]] = [(_LEAF, FALSE, FALSE), (_LEAF, TRUE, TRUE)]
        self.unique: dict[tuple[int, int, int], int] = {}
        self.memo: dict[tuple[str, int, int], int] = {}

    def var(self, v: int) -> int:
        """The function that is true when variable ``v`` is."""
        return self._mk(v, FALSE, TRUE)

    def nvar(self, v: int) -> int:
        """The function that is true when variable ``v`` is false."""
        return self._mk(v, TRUE, FALSE)

    def _mk(self, v: int, lo: int, hi: int) -> int:
        if lo == hi:
            return lo
        key = (v, lo, hi)
        node = self.unique.get(key)
        if node is None:
            if len(self.nodes) >= self.max_nodes:
                raise TooLarge()
            node = len(self.nodes)
            self.nodes.append(key)
            self.unique[key] = node
        return node

    def and_(self, a: int, b: int) -> int:
        return self._apply("and", a, b)

    def or_(self, a: int, b: int) -> int:
        return self._apply("or", a, b)

    def not_(self, a: int) -> int:
        return self._apply("xor", a, TRUE)

    def diff(self, a: int, b: int) -> int:
        return self.and_(a, self.not_(b))

    @staticmethod
    def _leaf(op: str, a: int, b: int) -> int | None:
        if op == "and":
            if a == FALSE or b == FALSE:
                return FALSE
            if a == TRUE or a == b:
                return b
            if b == TRUE:
                return a
        elif op == "or":
            if a == TRUE or b == TRUE:
                return TRUE
            if a == FALSE or a == b:
                return b
            if b == FALSE:
                return a
        else:  # xor
            if a == b:
                return FALSE
            if a == FALSE:
                return b
            if b == FALSE:
                return a
            if a <= TRUE and b <= TRUE:
                return a ^ b
        return None

    def _apply(self, op: str, a: int, b: int) -> int:
        memo, nodes = self.memo, self.nodes
        stack = [(a, b, False)]
        while stack:
            x, y, ready = stack.pop()
            key = (op, x, y)
            if key in memo:
                continue
            leaf = self._leaf(op, x, y)
            if leaf is not None:
                memo[key] = leaf
                continue
            (vx, xl, xh), (vy, yl, yh) = nodes[x], nodes[y]
            v = min(vx, vy)
            if vx != v:
                xl = xh = x
            if vy != v:
                yl = yh = y
            if ready:
                memo[key] = self._mk(v, memo[(op, xl, yl)], memo[(op, xh, yh)])
            else:
                stack += [(x, y, True), (xl, yl, False), (xh, yh, False)]
        return memo[(op, a, b)]

    def first_true(self, f: int) -> dict[int, bool] | None:
        """The least assignment (variable 0 most significant, false before true) making ``f``
        true, as {variable: True} for the variables set; None when ``f`` is never true."""
        if f == FALSE:
            return None
        chosen: dict[int, bool] = {}
        while f > TRUE:
            v, lo, hi = self.nodes[f]
            if lo != FALSE:
                f = lo
            else:
                chosen[v] = True
                f = hi
        return chosen
