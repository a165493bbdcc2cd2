model checkfence "CheckFence's Relaxed, as its paper defines it (dependent accesses reorder too)"
"""
The Relaxed model of Burckhardt, Alur and Martin's CheckFence (PLDI 2007, section 2.3),
axiom for axiom: the only program-order pairs it keeps are those to one location whose
later access is a store (its axiom 1); every other pair may be performed out of order,
two loads of one location included (its item 4), and so are control- and data-dependent
accesses (its item 5, as on the Alpha: a load through a pointer may be performed before
the load of the pointer, on a speculated value confirmed later). A load may take the value
of its own thread's earlier store before that store is performed (forwarding, its S(l)).
Four fences, as CheckFence's (the SPARC RMO membar kinds), order the four kinds of pairs.
The bundled `relaxed` is this model with dependencies honoured.
"""

reorder {          # rows: the earlier access; columns: the later one
         R    W
    R    Y    d
    W    Y    d
}
dependencies { }  # none: its item 5 (control- and data-dependent accesses reorder too)

forwarding own-writes

fence ll aka rmb orders R * R cost 2 "load-load fence"
fence ls orders R * W cost 2 "load-store fence"
fence sl orders W * R cost 2 "store-load fence"
fence ss aka wmb orders W * W cost 2 "store-store fence"
fence full aka mfence, mb, sync, membar, MemoryBarrier orders M * M cost 3
    "all four at once"
