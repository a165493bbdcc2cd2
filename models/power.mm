model power "IBM Power (herd's ppc.cat; Herding cats, section 6)"
"""
Power is not multi-copy atomic: a write reaches each other thread at its own time, so two
readers may see two independent writes in opposite orders (IRIW, even with dependencies).
A thread performs its accesses out of order except where a dependency, a fence or the
same location keeps them. sync is a strong fence (cumulative: everything the thread has
seen before it reaches every thread before anything after it); lwsync a light one
(cumulative for write-to-write pairs, and it does not order a write before a later read).
With `propagation per-thread` and no axioms of its own, the model gets herd's four
axioms: SC per location, no thin air (hb acyclic), observation and propagation.
"""

reorder {          # rows: the earlier access; columns: the later one
          R    W
    R     i    di          # ppo: a read keeps later accesses that depend on it; R->W also at one location
    W     Y    Y           # a write keeps nothing (per-location coherence is an axiom)
}

# `cost N`: what fence selection pays to insert the dependency (an xor, a compare and
# branch; ctrl+isync also an isync) instead of a fence (mmdsl fences, docs/fences.md)
dependencies {     # herd's ppc.cat: ii0 = dd | ..., cc0 = dd | po-loc | ctrl | addrpo, ci0 = ctrlisync
    addr : R * M cost 1        "address dependency (the xor r3,r1,r1 idiom)"
    data : R * W cost 1        "data dependency: the stored value comes from the read"
    ctrl : R * W cost 1        "a store after a branch on the read (stores are not speculated)"
    addr;po : R * W            "a store after an access whose address depends on the read"
    ctrl+isync : R * R cost 2  "a read after a branch on the read and an isync (ctrl+isync)"
    addr;po;ctrl+isync : R * R "a read after a ctrl+isync from a read that follows an address-dependent access"
    rdw : R * R                "a read of a newer write of another thread than an earlier read of the location saw"
    rfi : R * R                "a read from its own write whose address or value comes from the earlier read"
    detour : R * R             "a read of another thread's write coherence-after an own write kept after the earlier read"
}

propagation per-thread "writes reach each other thread at their own time"

fence sync aka hwsync, mb orders M * M cumulative strong cost 3
    "sync (hwsync): a full fence, strongly cumulative"
fence lwsync orders R * M | W * W cumulative light cost 2
    "lwsync: orders all but a write before a later read; cumulative for write-to-write pairs"
# eieio costs what lwsync does: Linux's smp_wmb is lwsync, not eieio, on 64-bit Power; with
# equal costs fence selection prefers lwsync (declared first), which orders more
fence eieio orders W * W cumulative light cost 2
    "eieio: orders write-to-write pairs (cacheable memory), like lwsync on them"
fence isync orders F * F cost 1
    "isync: orders nothing alone; after a branch on a read it completes ctrl+isync"
