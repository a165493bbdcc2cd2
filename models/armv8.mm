model armv8 "Arm v8 AArch64, multi-copy atomic (herd's aarch64.cat)"
"""
Since 2017 Armv8 is (other-)multi-copy atomic: a write is seen by its own thread early
(forwarding from the store buffer) and by every other thread at once, so one global order
of the accesses exists: herd's ordered-before (ob = obs | dob | aob | bob) is acyclic. Here
obs is rfe | fre | coe of the default order axiom, dob the dependencies block, bob the
table's acquire and release cells and the fences, aob the read-modify-write pairs
(same location, kept). IRIW+addrs is forbidden, unlike Power and Armv7.
"""

annotation A "LDAR, LDAXR, SWPA ...: acquire, RCsc (herd's A; LISA r[acq])"
annotation Q "LDAPR: acquire, processor consistent (herd's Q)"
annotation L "STLR, STLXR, SWPL ...: release (herd's L; LISA w[rel])"
annotation X "the accesses of exclusives (LDXR, STXR)"
annotation NoRet "an atomic whose result goes to the zero register (STADD ...)"

class Acq = R & (A | acq)           "acquire reads, RCsc (bob: [A] ; po)"
class AcqPC = (R & Q) \ (A | acq)    "acquire reads, RCpc (bob: [Q] ; po)"
class Ld = R \ (A | acq | Q)         "plain reads"
class RelW = W & (L | rel)          "release writes (bob: po ; [L])"
class RelAq = RelW & RMW & (A | acq) "the write of an acquire-release atomic (SWPAL ...)"
class Rel = RelW \ RelAq             "other release writes"
class St = W \ (L | rel)            "plain writes"

reorder {          # rows: the earlier access; columns: the later one
          Acq  AcqPC Ld   RelW St
    Acq   -    -     -    -    -       # bob: [A | Q] ; po -- nothing goes before an acquire
    AcqPC -    -     -    -    -
    Ld    di   di    di   -    di      # dob: dependencies; po ; [L]: nothing passes a release
    RelAq -    -     -    -    -       # bob: [range([A] ; amo ; [L])] ; po -- nothing passes it
    Rel   -    Y     Y    -    d       # bob: [L] ; po ; [A] -- release then acquire (RCsc)
    St    Y    Y     Y    -    d
}
forwarding own-writes

# `cost N`: what fence selection pays to insert the dependency (an eor, a cbnz; ctrl+isb
# also an isb) instead of a fence (mmdsl fences, docs/fences.md); the prices change no verdict
dependencies {     # herd's aarch64.cat, dob
    addr : R * M cost 1          "addr: the address comes from the read"
    data : R * W cost 1          "data: the stored value comes from the read"
    ctrl : R * W cost 1          "ctrl ; [W]: a store after a branch on the read"
    addr;po : R * W              "addr ; po ; [W]: a store after an access whose address depends on the read"
    ctrl+isb : R * R cost 2      "ctrl ; [ISB] ; po ; [R]: a read after a branch on the read and an isb"
}

fence dmb-sy aka dsb-sy, dmb-ish, dsb-ish, dmb-osh, dsb-osh, mb, sync orders M * M cost 3
    "dmb sy (ish, osh), dsb: a full fence"
fence dmb-ld aka dsb-ld, dmb-ishld, dsb-ishld, dmb-oshld, dsb-oshld orders (R \ NoRet) * M cost 2
    "dmb ld: a read before any later access (not the read of an atomic without result, STADD ...)"
fence dmb-st aka dsb-st, dmb-ishst, dsb-ishst, dmb-oshst, dsb-oshst orders W * W cost 2
    "dmb st: a write before a later write"
fence isb orders F * F cost 1
    "isb: orders nothing alone; after a branch on a read it completes ctrl+isb"
