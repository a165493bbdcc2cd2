model rmo "Relaxed Memory Order (SPARC RMO)"
"""
Any two accesses to different locations may be performed out of program order,
except that an access which depends on an earlier load (address, data or control
dependency) waits for it. Same-location pairs keep their order, and a load may read
its own thread's pending store. Still multi-copy atomic: one shared memory.
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

fence membar aka mfence, mb, sync, MemoryBarrier, full orders M * M cost 3
    "membar #LoadLoad|#LoadStore|#StoreLoad|#StoreStore"
fence ll aka rmb orders R * R cost 2 "membar #LoadLoad"
fence ls orders R * W cost 2 "membar #LoadStore"
fence sl orders W * R cost 2 "membar #StoreLoad"
fence ss aka stbar, wmb orders W * W cost 2 "membar #StoreStore"
