model tso "Total Store Order (SPARC TSO, x86-TSO)"
"""
Each thread has a FIFO store buffer: a store may be performed after later loads of
other locations, and a thread's loads see its own buffered stores (forwarding).
Everything else keeps program order. Locked read-modify-writes (XCHG, LOCK-prefixed
instructions) and MFENCE drain the buffer. Same verdicts as herd's x86tso.cat.
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
