model armv7 "Arm v7 (herd's arm.cat; Herding cats, section 6)"
"""
Armv7 is, like Power, not multi-copy atomic: a write reaches each other thread at its own
time (IRIW+addrs is allowed). Its preserved program order is Power's without the
same-location read-to-write pairs (herd's arm.cat deletes po-loc from ppo), with ctrl+isb
for ctrl+isync. Every barrier is strong: dmb and dsb order all pairs, dmb.st write-to-write
pairs; there is no lightweight fence. The axioms are herd's four (SC per location, no thin
air, observation, propagation), given by `propagation per-thread`.
"""

reorder {          # rows: the earlier access; columns: the later one
          R    W
    R     i    i           # ppo: only dependencies keep a read before a later access
    W     Y    Y           # a write keeps nothing (per-location coherence is an axiom)
}

# `cost N`: what fence selection pays to insert the dependency (an eor, a compare and
# branch; ctrl+isb also an isb) instead of a fence (mmdsl fences, docs/fences.md)
dependencies {     # herd's arm.cat: ii0 = dd | ..., cc0 = dd | ctrl | addrpo, ci0 = ctrlisb
    addr : R * M cost 1        "address dependency (the eor r2,r1,r1 idiom)"
    data : R * W cost 1        "data dependency: the stored value comes from the read"
    ctrl : R * W cost 1        "a store after a branch on the read (stores are not speculated)"
    addr;po : R * W            "a store after an access whose address depends on the read"
    ctrl+isb : R * R cost 2    "a read after a branch on the read and an isb (ctrl+isb)"
    addr;po;ctrl+isb : R * R   "a read after a ctrl+isb from a read that follows an address-dependent access"
    rdw : R * R                "a read of a newer write of another thread than an earlier read of the location saw"
    rfi : R * R                "a read from its own write whose address or value comes from the earlier read"
    detour : R * R             "a read of another thread's write coherence-after an own write kept after the earlier read"
}

propagation per-thread "writes reach each other thread at their own time"

# herd's arm.cat: strong = dmb | dsb | dmb.st | dsb.st | dmb.ish; the other options
# (dsb ish, dmb ishst ...) have no fence set there and order nothing, here too (a warning)
fence dmb aka dsb, dmb-ish, mb, sync orders M * M cumulative strong cost 3
    "dmb / dsb / dmb ish: a full fence, strongly cumulative"
fence dmb-st aka dsb-st orders W * W cumulative strong cost 2
    "dmb st / dsb st: orders write-to-write pairs, strongly cumulative on them"
fence isb orders F * F cost 1
    "isb: orders nothing alone; after a branch on a read it completes ctrl+isb"
