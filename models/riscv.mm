model riscv "RVWMO, the RISC-V weak memory model (herd's riscv.cat)"
"""
RISC-V's memory model: multi-copy atomic, one shared memory, loads may read their own
thread's earlier stores early. Program order is preserved only as the thirteen rules of
preserved program order (ppo) say. The reordering table gives the rules a table can say
(same-address orderings to a store, .aq and .rl, syntactic dependencies); the axioms add
the rest: same-address loads, reads from an AMO or store-conditional, fences, RCsc pairs,
read-modify-write pairs, and the pipeline dependencies. The axioms are herd's riscv.cat:
Coherence, Model, Atomic. Annotation names are herd's (Acq, Rel, AcqRel, X, AMO).
"""

annotation Acq "lw.aq, lr.w.aq, amoswap.w.aq ...: acquire (.aq)"
annotation Rel "sw.rl, sc.w.rl, amoswap.w.rl ...: release (.rl)"
annotation AcqRel "both (.aqrl or .aq.rl)"
annotation X "the accesses of lr and sc (exclusives)"
annotation AMO "both events of an AMO (amoswap, amoadd, amoor ...)"
annotation lr, stcond "load-reserved, store-conditional"

class AQ = Acq | AcqRel                  "acquire accesses"
class RL = Rel | AcqRel                  "release accesses"
class Ld = R \ AQ                        "loads that are not acquires"
class St = W \ AQ                        "stores that are not acquires"
class LdC = R \ RL                       "loads that are not releases"
class StC = W \ RL                       "stores that are not releases"

reorder {          # rows: the earlier access; columns: the later one
          RL   LdC  StC
    AQ    -    -    -
    Ld    -    i    di
    St    -    Y    d
}
forwarding own-writes

dependencies {     # ppo rules 9, 10, 11: syntactic dependencies
    addr : M * M   "rule 9: the later access's address comes from the earlier load"
    data : M * W   "rule 10: the later store's value comes from the earlier load"
    ctrl : M * W   "rule 11: a store after a branch on the earlier load"
}

fence fence-rw-rw orders M * M cost 4 "fence rw,rw: a full fence"
fence fence-tso orders W * W | R * M cost 3 "fence.tso: all but store-to-load"
fence fence-rw-r orders M * R cost 3 "fence rw,r"
fence fence-rw-w orders M * W cost 3 "fence rw,w"
fence fence-r-rw orders R * M cost 3 "fence r,rw"
fence fence-w-rw orders W * M cost 3 "fence w,rw"
fence fence-r-r orders R * R cost 2 "fence r,r"
fence fence-r-w orders R * W cost 2 "fence r,w"
fence fence-w-r orders W * R cost 2 "fence w,r"
fence fence-w-w orders W * W cost 2 "fence w,w"
fence fence-i orders F * F cost 1 "fence.i: instruction fetch; orders no data accesses"

# ---- the ppo rules a table cannot say -------------------------------------------
let po-loc-no-w = po-loc \ (po-loc? ; [W] ; po-loc)
let rsw = rf^-1 ; rf
let RCsc = (Acq | Rel | AcqRel) & (AMO | X)

let r2 = ([R] ; po-loc-no-w ; [R]) \ rsw     # same-address loads, no store between, not reading the same write
let r3 = [AMO | X] ; rfi ; [R]               # a load reading from an AMO or a store-conditional
let r4 = [M] ; fence ; [M]                   # fences, each ordering its classes
let r7 = [RCsc] ; po ; [RCsc]                # RCsc annotations among AMOs, lr and sc
let r8 = rmw                                 # an AMO, a paired lr and sc
let r9 = [M] ; addr ; [M]                    # rules 9-11 again, from any access: the
let r10 = [M] ; data ; [W]                   # status of a successful sc depends on its
let r11 = [M] ; ctrl ; [W]                   # write, as in herd
let r12 = [M] ; (addr | data) ; [W] ; rfi ; [R]
let r13 = [M] ; addr ; [M] ; po ; [W]

let rvppo = ppo | r2 | r3 | r4 | r7 | r8 | r9 | r10 | r11 | r12 | r13

# herd makes an AMO one event, both a read and a write; mmdsl gives it two, joined by
# rmw. An edge to or from either half is an edge to or from the AMO: each relation is
# lifted to the pairs of halves, with the AMO's own read-to-write edge left out (an
# edge from its write back to its read, reading its own write, stays: a cycle).
# (the read-to-write edge is written out, not named: a named let on the right of \
# would keep the checker from cutting candidates early)
let amo-pair = [AMO] ; (rmw | rmw^-1) ; [AMO]
let coherence-order = amo-pair? ; ((co | rf | fr | po-loc) \ ([AMO] ; rmw ; [AMO])) ; amo-pair?
let global-order = amo-pair? ; ((co | rfe | fr | rvppo) \ ([AMO] ; rmw ; [AMO])) ; amo-pair?

axiom Coherence : acyclic coherence-order   "SC per location: co | rf | fr | po-loc"
axiom Model : acyclic global-order          "co | rfe | fr | ppo: the global memory order respects preserved program order"
axiom Atomic : empty rmw & (fre ; coe)            "no store between the halves of an AMO or a paired lr/sc"
