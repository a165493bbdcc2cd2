model pso "Partial Store Order (SPARC PSO)"
"""
TSO with one store buffer per location: a store may be performed after later loads
and after later stores to other locations. Loads keep their order with everything
after them. SPARC's membar variants order the pairs they name.
"""

class Ld = R \ RMW   "plain loads"
class St = W \ RMW   "plain stores"
class At = RMW       "both halves of an atomic read-modify-write"

reorder {          # rows: the earlier access; columns: the later one
          Ld   St   At
    Ld    -    -    -
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
