"""The C dialect's data-type constructs: structs, a node pool, malloc, inlined functions, cas, unrolled loops."""

from __future__ import annotations

import pytest

from mmdsl.core.errors import LitmusError, UnsupportedError
from mmdsl.core.program import Assign, Branch, Load, Rmw, Store, cell_location
from mmdsl.litmus import parse_litmus

STACK = """\
struct node { int value; struct node *next; };
struct node pool[2];
struct node *top;

void push(int v)
{
    struct node *n = malloc(sizeof(struct node));
    n->value = v;
    n->next = top;
    top = n;
}

int pop()
{
    struct node *t = top;
    if (t == NULL) return -1;
    top = t->next;
    return t->value;
}

P0() { push(1); push(2); }
P1() { int r0 = pop(); }
"""


def c_test(body: str, header: str = "", init: str = "", final: str = "locations [1:r0;]") -> str:
    return f"C t\n{header}{{ {init} }}\n{body}\n{final}\n"


def test_each_field_of_each_node_is_a_location_starting_at_zero():
    p = parse_litmus(c_test(STACK), "t.litmus")
    # node 0 is null: its fields catch null dereferences (and %err says so)
    assert p.init == {"pool0.value": 0, "pool0.next": 0, "pool1.value": 0, "pool1.next": 0,
                      "pool2.value": 0, "pool2.next": 0, "top": 0}
    assert cell_location("pool", 2, "next") == "pool2.next"


def test_malloc_takes_the_next_node_at_each_call_site_and_pointers_are_node_indices():
    p = parse_litmus(c_test(STACK), "t.litmus")
    t0 = p.threads[0].instrs
    # push(1) gets node 1, push(2) node 2: the local 'n' of each inlined copy is assigned the index
    mallocs = [i.expr.value for i in t0 if isinstance(i, Assign) and i.dst.endswith(".n")]
    assert mallocs == [1, 2]
    stores = [str(i.addr) for i in t0 if isinstance(i, Store)]
    assert stores == ["&pool[%push1.n].value", "&pool[%push1.n].next", "top",
                      "&pool[%push2.n].value", "&pool[%push2.n].next", "top"]


def test_inlined_calls_are_the_operations_of_the_thread():
    p = parse_litmus(c_test(STACK), "t.litmus")
    ops0 = p.threads[0].operations
    assert [name for _, _, name in ops0] == ["push", "push"]
    assert ops0[0][1] == ops0[1][0]  # back to back
    (start, end, name), = p.threads[1].operations
    assert name == "pop" and start == 0
    # the result reaches the thread's local after the operation
    assert isinstance(p.threads[1].instrs[end], Assign) and p.threads[1].instrs[end].dst == "r0"


def test_a_dereferenced_pointer_sets_err_as_data_once_not_by_a_branch():
    p = parse_litmus(c_test(STACK), "t.litmus")
    t1 = p.threads[1].instrs
    checks = [i for i in t1 if isinstance(i, Assign) and i.dst == "%err"]
    # 't->next' then 't->value': the second is known checked; no branch, so no control dependency
    assert [str(i.expr) for i in checks] == ["(%err | (%pop1.t == 0))"]
    assert not any(isinstance(i, Branch) and "%pop1.t == 0" in str(i.cond) for i in t1)
    assert ("reg", 1, "%err") in p.observed and ("reg", 0, "%err") not in p.observed


def test_struct_variables_have_dotted_field_locations_and_cas_is_an_rmw_returning_success():
    body = """\
struct node { int v; struct node *next; };
struct queue { struct node *head; int count; };
struct node pool[1];
struct queue Q;
P0() { int r0 = cas(&Q.count, 0, 5); int r1 = Q.count; }
"""
    p = parse_litmus(c_test(body, final="locations [0:r0; 0:r1;]"), "t.litmus")
    assert {"Q.head", "Q.count"} <= set(p.init)
    rmw = next(i for i in p.threads[0].instrs if isinstance(i, Rmw))
    assert str(rmw.addr) == "Q.count" and str(rmw.cond) == "(%old == 0)" and rmw.annots == frozenset()
    load = next(i for i in p.threads[0].instrs if isinstance(i, Load))
    assert str(load.addr) == "Q.count"


def test_a_top_level_malloc_takes_a_node_before_the_threads_and_the_init_block_may_set_fields():
    body = """\
struct node { int v; struct node *next; };
struct node pool[2];
struct node *dummy = malloc(sizeof(struct node));
P0() { struct node *n = malloc(sizeof(struct node)); n->v = 1; }
"""
    p = parse_litmus(c_test(body, init="pool1.v = 7;", final="locations [pool1.v;]"), "t.litmus")
    assert p.init["dummy"] == 1 and p.init["pool1.v"] == 7
    assert next(i for i in p.threads[0].instrs if isinstance(i, Assign)).expr.value == 2


def test_unroll_copies_the_loop_and_one_more_iteration_sets_bit_2_of_err():
    body = """\
int x;
P0() { int r0 = 0; while (x == 0) { r0 = r0 + 1; } }
"""
    p = parse_litmus(c_test(body, header="unroll=3\n", final="locations [0:r0;]"), "t.litmus")
    t = p.threads[0]
    assert not t.has_loops()
    assert sum(1 for i in t.instrs if isinstance(i, Load)) == 4  # three tests in the loop, one past it
    assert any(isinstance(i, Assign) and i.dst == "%err" and str(i.expr) == "(%err | 2)" for i in t.instrs)
    loopy = parse_litmus(c_test(body, final="locations [0:r0;]"), "t.litmus")
    assert loopy.threads[0].has_loops()  # without unroll=N a loop stays a loop (the explorer runs it)


# (body, header, error class, line, column, words); the body starts on line 3 (4 with a header)
REFUSALS = [
    ("int f(int n) { return f(n); }\nP0() { int r0 = f(1); }", "", UnsupportedError, 3, 23,
     "recursive call to 'f' (f -> f)"),
    ("int g(int n);\nP0() { }", "", LitmusError, 3, 6, "malformed C code"),
    ("int a(int n) { return b(n); }\nint b(int n) { return a(n); }\nP0() { int r0 = a(1); }", "",
     UnsupportedError, 4, 23, "recursive call to 'a' (a -> b -> a)"),
    ("struct node { int v; };\nstruct node pool[1];\nP0() { struct node *p = malloc(sizeof(struct node)); "
     "struct node *q = malloc(sizeof(struct node)); }", "", UnsupportedError, 5, 71, "beyond the 1 node(s)"),
    ("struct node { int v; };\nstruct node pool[2];\nP0() { while (1) { struct node *p = "
     "malloc(sizeof(struct node)); } }", "", UnsupportedError, 5, 37, "malloc inside a loop"),
    ("struct node { int v; };\nstruct node pool[2];\nP0() { struct node *p = malloc(sizeof(struct node)); "
     "int r0 = p->w; }", "", LitmusError, 5, 63, "struct 'node' has no field 'w'"),
    ("P0() { return; }", "", UnsupportedError, 3, 8, "'return' in a thread function"),
    ("struct node { int v; };\nstruct node pool[100];\nP0() { }", "", UnsupportedError, 4, 18, "100 nodes"),
    ("struct node { int v; };\nP0() { struct node *p = malloc(sizeof(struct node)); }", "", LitmusError, 4, 25,
     "no pool of it"),
    ("struct node { int v; };\nstruct node pool[1];\nP0() { struct node *p = 0; int r0 = p->v; int r1 = *p; }", "",
     UnsupportedError, 5, 53, "dereferencing struct pointer 'p' as a whole"),
    ("P0() { while (1) { } }", "unroll=100000\n", LitmusError, 2, 1, "from 1 to 1000"),
    ("struct s { int a; };\nP0() { struct s { int b; }; }", "", UnsupportedError, 4, 8,
     "a struct definition inside a function"),
]


@pytest.mark.parametrize("body, header, cls, line, col, words", REFUSALS)
def test_unsupported_and_malformed_constructs_are_refused_by_name_at_their_place(body, header, cls, line, col, words):
    with pytest.raises(cls) as info:
        parse_litmus(c_test(body, header=header, final=""), "bad.litmus")
    err = info.value
    assert type(err) is cls
    assert (err.pos.line, err.pos.col) == (line, col), str(err)
    assert words in str(err)
