model mytso "TSO built from SC, step 4, a wrong turn: MFENCE orders stores only"
"""
Each thread has a FIFO store buffer: a store may be performed after later loads
(W->R relaxed), and a load sees its own thread's buffered store first (forwarding).
MFENCE waits until the buffer is empty; SFENCE and LFENCE order what TSO already
orders, so they cost little and change no verdict.
"""

reorder {          # rows: the earlier access; columns: the later one
         R    W
    R    -    -
    W    Y    -
}
forwarding own-writes

fence mfence aka mb, sync, membar, MemoryBarrier, full orders W * W cost 3
    "MFENCE: waits until the store buffer is empty"
fence sfence aka wmb orders W * W cost 1 "SFENCE (stores are already ordered under TSO)"
fence lfence aka rmb orders R * R cost 1 "LFENCE (loads are already ordered under TSO)"
