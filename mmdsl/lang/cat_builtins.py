"""herd's predefined names in cat models, as the core IR names them (and those mmdsl lacks)."""

from __future__ import annotations

from .ir import SET

# herd's event sets -> the IR set each one is
SETS = {
    "R": "R",
    "W": "W",
    "M": "M",
    "F": "F",
    "IW": "IW",
    # herd: events of atomic (locked) instructions; mmdsl's read-modify-write events
    "X": "RMW",
}

# herd's fence sets: the set name -> the fence tag a test's fence event carries
FENCE_SETS = {
    "MFENCE": "mfence",
    "LFENCE": "lfence",
    "SFENCE": "sfence",
}

# herd's relations -> (IR name, type); the IR evaluator knows each one
RELATIONS = {
    "po": "po",
    "loc": "loc",
    "id": "id",
    "int": "int",
    "ext": "ext",
    "addr": "addr",
    "data": "data",
    "ctrl": "ctrl",
    "rmw": "rmw",
    "sm": "sm",  # events of the same instruction (reflexive)
    "po-loc": "po-loc",
    "rf": "rf",
    "co": "co",
    "fr": "fr",
    "rfe": "rfe",
    "rfi": "rfi",
    "coe": "coe",
    "coi": "coi",
    "fre": "fre",
    "fri": "fri",
}

# the one-argument functions herd predefines that mmdsl evaluates: name -> (IR op, result type)
FUNCTIONS = {
    "domain": ("domain", SET),
    "range": ("range", SET),
}

# names herd predefines (for some architecture or in general) that mmdsl does not provide;
# a model that uses one is refused naming it (a `try ... with` still falls back)
UNSUPPORTED = {
    "FW": "the final writes of a candidate",
    "classes-loc": "the partition of events by location",
    "classes": "the equivalence classes of a relation",
    "inv-domain": "herd's obsolete inverse domain",
    "tag2events": "events by tag",
    "tag2scope": "scope relations by tag",
    "linearisations": "the linear extensions of a relation",
    "generate_orders": "candidate orders built by the model",
    "generate_cos": "coherence orders built from another base than co0",
    "partition": "the partition of events by location",
    "same-instr": "events of one instruction instance",
    "iico_data": "intra-instruction data dependencies",
    "iico_ctrl": "intra-instruction control dependencies",
    "rf-reg": "register reads-from",
    "Exp": "explicit accesses",
    "pco": "herd's precomputed coherence observations (variant cos-opt)",
    "LKW": "lock writes (Linux kernel)",
    "narrower": "mixed-size containment",
    "wider": "mixed-size containment",
    "NDATA": "herd's obsolete data set",
    "ADDR": "herd's obsolete address set",
    "B": "branch events",
}

