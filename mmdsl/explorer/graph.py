"""The explored state graph, for diagrams: nodes are states, edges issue/perform transitions."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class StateNode:
    id: int
    short: str  # one line: memory, then each thread's pc and pending list
    detail: str  # several lines: memory, and per thread pc, registers, pending list
    initial: bool
    final: bool  # every thread finished, nothing pending
    violating: bool  # a final state reaching the condition's outcome (or failing a forall)


@dataclass
class StateEdge:
    src: int
    dst: int
    thread: int
    label: str  # "P0: perform W x=1", "P1: issue r0 = x"
    out_of_order: bool  # performed while an earlier operation of its thread is pending
    instr: int | None  # index of the instruction in its thread


@dataclass
class StateGraph:
    nodes: list[StateNode]
    edges: list[StateEdge]
    truncated: bool  # the search stopped at max_states: some states and edges are missing


def build_graph(describer, states: list, edges: list, finals: set[int], violating: set[int],
                truncated: bool) -> StateGraph:
    """The graph of the states a search visited; ``edges`` are (src, dst, transition) triples."""
    nodes = [StateNode(i, describer.state_short(s), describer.state_detail(s), i == 0, i in finals,
                       i in violating) for i, s in enumerate(states)]
    out = []
    for src, dst, tr in edges:
        step = describer.step(states[src], tr)
        out.append(StateEdge(src, dst, step.tid, step.label, step.out_of_order, step.instr))
    return StateGraph(nodes, out, truncated)
