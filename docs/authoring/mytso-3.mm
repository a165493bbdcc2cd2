model mytso "TSO built from SC, step 3: loads see their own buffered stores"
"""
Every thread performs its memory accesses in program order, one at a time, on a
single shared memory: an execution is an interleaving of the threads. The yardstick
every other model is measured against.
"""

reorder {          # rows: the earlier access; columns: the later one
         R    W
    R    -    -
    W    Y    -
}
forwarding own-writes

fence mfence aka mb, sync, membar, MemoryBarrier, full orders M * M cost 3
    "a full fence (it changes nothing under SC; accepted so fenced tests run)"
fence light aka rmb, wmb, lfence, sfence, lwsync orders M * M cost 2
    "a lightweight fence of another model (a no-op under SC too)"
