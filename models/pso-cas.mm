model pso-cas "PSO where a compare-and-swap is no fence (McSPIN's PSO)"
"""
SPARC PSO's table, except that a store may also be performed after a later atomic
read-modify-write or atomic block to other locations: the atomic operation does not wait
for the thread's earlier stores to drain. This is the PSO of McSPIN (Abe, Ugawa, Maeda:
"Reducing State Explosion for Software Model Checking with Relaxed Memory Consistency
Models", 2016, Table 1: "In TSO, a compare-and-swap instruction implies memory fences.
In PSO, it does not."). Loads still keep their order with everything after them, and so
does an atomic operation (it reads); stores to one location stay in program order.
"""

class Ld = R \ RMW   "plain loads"
class St = W \ RMW   "plain stores"
class At = RMW       "the accesses of an atomic read-modify-write or atomic block"

reorder {          # rows: the earlier access; columns: the later one
          Ld   St   At
    Ld    -    -    -
    St    Y    d    d
    At    -    -    -
}
forwarding own-writes

fence membar aka mfence, mb, sync, MemoryBarrier, full orders M * M cost 3
    "membar #LoadLoad|#LoadStore|#StoreLoad|#StoreStore"
fence ll aka rmb orders R * R cost 2 "membar #LoadLoad"
fence ls orders R * W cost 2 "membar #LoadStore"
fence sl orders W * R cost 2 "membar #StoreLoad"
fence ss aka stbar, wmb orders W * W cost 2 "membar #StoreStore"
