model rmo "Relaxed Memory Order (SPARC RMO)"
"""
Any two accesses to different locations may be performed out of program order,
except for SPARC V9's dependence order (Appendix D): an access whose address, or a
store whose value, is computed from an earlier load waits for it, and so does a store
after a branch on a loaded value; a load after such a branch may be performed
speculatively, before the load the branch depends on. Same-location pairs keep their
order, and a load may read its own thread's pending store. Still multi-copy atomic:
one shared memory.
"""

class Ld = R \ RMW   "plain loads"
class St = W \ RMW   "plain stores"
class At = RMW       "both halves of an atomic read-modify-write"

reorder {          # rows: the earlier access; columns: the later one
          Ld   St   At
    Ld    di   di   -
    St    Y    d    -
    At    -    -    -
}
forwarding own-writes

dependencies {     # SPARC V9 dependence order: register dependencies, control only to stores
    addr : R * M   "the address of the later access comes from the load"
    data : R * W   "the value the later store writes comes from the load"
    ctrl : R * W   "a store is not performed before the branch it follows is resolved"
}

fence membar aka mfence, mb, sync, MemoryBarrier, full orders M * M cost 3
    "membar #LoadLoad|#LoadStore|#StoreLoad|#StoreStore"
fence ll aka rmb orders R * R cost 2 "membar #LoadLoad"
fence ls orders R * W cost 2 "membar #LoadStore"
fence sl orders W * R cost 2 "membar #StoreLoad"
fence ss aka stbar, wmb orders W * W cost 2 "membar #StoreStore"
