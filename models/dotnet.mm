model dotnet "The .NET memory model (Huynh and Roychoudhury, Table 1)"
"""
The CLI memory model as the paper *Memory Model Sensitive Bytecode Verification*
states it: plain accesses reorder freely; a volatile read acts as an acquire and a
volatile write as a release; locks and unlocks never reorder with each other; a
volatile write may be overtaken by a later volatile read. Dependences keep order: a
pair on one location with a write in it, and an access that uses a loaded value.
There is one shared memory and no forwarding; MemoryBarrier waits for every earlier
operation.
"""

class Read     = R \ (volatile | lock | unlock)   "plain field read"
class Write    = W \ (volatile | lock | unlock)   "plain field write"
class VolRead  = (R & volatile) \ (lock | unlock) "volatile read (acquire)"
class VolWrite = (W & volatile) \ (lock | unlock) "volatile write (release)"
class Lock     = lock \ unlock                    "Monitor.Enter (an atomic test-and-set)"
class Unlock   = unlock                           "Monitor.Exit"

reorder {   # may the later (column) be performed before the earlier (row)?
              Read  Write  VolRead  VolWrite  Lock  Unlock
    Read      i     di     i        -         di    -
    Write     d     d      d        -         d     -
    VolRead   -     -      -        -         -     -
    VolWrite  d     d      d        -         d     -
    Lock      -     -      -        -         -     -
    Unlock    d     d      d        -         -     -
}
forwarding none

fence MemoryBarrier aka mb, mfence, sync, membar, full orders M * M cost 3
    "Thread.MemoryBarrier(): waits for every earlier operation"
