model mytso "TSO built from SC, step 5: locked instructions"
"""
Each thread has a FIFO store buffer: a store may be performed after later loads
(W->R relaxed), and a load sees its own thread's buffered store first (forwarding).
MFENCE waits until the buffer is empty; SFENCE and LFENCE order what TSO already
orders, so they cost little and change no verdict. Locked read-modify-writes (XCHG,
LOCK-prefixed instructions) keep every order, like MFENCE.
"""

class Ld = R \ RMW   "plain loads"
class St = W \ RMW   "plain stores"
class At = RMW       "both halves of a locked read-modify-write"

reorder {          # rows: the earlier access; columns: the later one
          Ld   St   At
    Ld    -    -    -
    St    Y    -    -
    At    -    -    -
}
forwarding own-writes

fence mfence aka mb, sync, membar, MemoryBarrier, full orders M * M cost 3
    "MFENCE: waits until the store buffer is empty"
fence sfence aka wmb orders W * W cost 1 "SFENCE (stores are already ordered under TSO)"
fence lfence aka rmb orders R * R cost 1 "LFENCE (loads are already ordered under TSO)"
