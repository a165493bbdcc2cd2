model relaxed "Relaxed (CheckFence's model, dependencies honoured)"
"""
The weak model of Burckhardt, Alur and Martin's CheckFence: accesses to different
locations may be performed in any order; on one location only the pairs whose later
access is a store keep their order, so two loads of one location may be performed
out of order; a load may read its own thread's earlier store early (forwarding).
Dependent accesses wait for the load they depend on: a strengthening of the paper's
Relaxed, whose item 5 lets dependent accesses reorder too (that one is `checkfence`).
Four fences order the four kinds of pairs.
"""

reorder {          # rows: the earlier access; columns: the later one
         R    W
    R    i    di
    W    Y    d
}
forwarding own-writes

fence ll aka rmb orders R * R cost 2 "load-load fence"
fence ls orders R * W cost 2 "load-store fence"
fence sl orders W * R cost 2 "store-load fence"
fence ss aka wmb orders W * W cost 2 "store-store fence"
fence full aka mfence, mb, sync, membar, MemoryBarrier orders M * M cost 3
    "all four at once"
