"""The regex fast paths of the init block and the final condition give what the grammar gives."""

from __future__ import annotations

import pytest

from mmdsl.core.errors import MmdslError
from mmdsl.litmus import fastpath, finals
from mmdsl.litmus.loader import parse_litmus

TEMPLATE = "X86_64 t\n{{ {init} }}\n P0 | P1 ;\n movq (x),%rax | movq $1,(x) ;\n{final}\n"

INITS = ["", "uint64_t x; uint64_t 0:rax;", "x=1; 0:rax=x;", "0:rax=&x; y = -3 ;", "x=0x10;",
         "int x;", "int64_t 1 : rbx = 2;", "intx = 1;", "int x = 1; int y = 2;;", "const x = 1;",
         "volatile int x;", "int *x;", "int x[2];", "x = {1,2};", "int=1;", "x=18446744073709551615;",
         "x=18446744073709551616;", "x=-9223372036854775809;", "x=00000000000000000000001;", ";",
         "x=1 y=2;", "unsigned long x;"]
FINALS = ["exists (x=1)", "exists (0:rax=1 /\\ x=2)", "~exists (0:rax=0 /\\ [x]=1)", "~ exists(x=1)",
          "forall (x=1 /\\ 1:rbx=y)", "exists (x=1 \\/ x=2)", "exists x=1", "exists (x!=1)", "exists (x==1)",
          "exists ((x=1))", "exists (not=1)", "exists (true)", "exists (x=1) locations [y;]",
          "exists (x=0x1f /\\ x=-1)", "exists (x=1a)", "exists (x=&y)", "filter (x=1) exists (x=1)",
          "exists (x=99999999999999999999999)", "exists (EAX=1)", "exists (0:EAX=1)", "", "exists (x.y=1)"]


def _both(text: str):
    """(result, error text) with the fast paths, then without them."""
    out = []
    for fast in (True, False):
        finals._INIT_CACHE.clear()
        finals._FINAL_CACHE.clear()
        saved = finals.fast_init, finals.fast_final
        if not fast:
            finals.fast_init = finals.fast_final = lambda *a: None
        try:
            p = parse_litmus(text, "t.litmus")
            out.append((p.init, p.threads[0].reg_init, p.threads[1].reg_init, p.condition, p.observed, p.filter))
        except MmdslError as err:
            out.append(("error", type(err).__name__, str(err)))
        finally:
            finals.fast_init, finals.fast_final = saved
    return out


@pytest.mark.parametrize("init", INITS)
@pytest.mark.parametrize("final", FINALS[:6])
def test_fast_init_is_the_grammar(init, final):
    fast, slow = _both(TEMPLATE.format(init=init, final=final))
    assert fast == slow


@pytest.mark.parametrize("final", FINALS)
def test_fast_final_is_the_grammar(final):
    fast, slow = _both(TEMPLATE.format(init="x=0;", final=final))
    assert fast == slow


def test_the_fast_paths_take_the_common_shapes():
    assert fastpath.fast_init(" uint64_t x; 0:rax=x;\n", str.lower) == ({"x": 0}, {(0, "rax"): "x"}, {})
    cond = fastpath.fast_final("exists (0:rax=1 /\\ x=2)\n", str.lower)[0]
    assert cond.text() == "exists (0:rax=1 /\\ x=2)"
    assert fastpath.fast_final("exists (x=1 \\/ x=2)", str.lower) is None
