model tso-axioms "TSO written with axioms only (herd's x86tso.cat, transcribed)"
"""
The same model as `tso`, but with no reordering table: the preserved program order,
the fences and the locked instructions are written as cat relations, the way herd's
x86tso.cat does. `mmdsl` checks that both forms give the same verdicts.
"""

fence mfence aka mb, sync, membar, MemoryBarrier, full orders M * M cost 3 "MFENCE"

let com      = rf | co | fr
let po-ghb   = (po & (M * M)) \ ((W \ RMW) * (R \ RMW))   # every pair but store -> load
let mfence-o = (M * M) & (po ; [mfence] ; po)
let implied  = (M * M) & ((po ; [RMW]) | ([RMW] ; po))    # locked instructions are fences
let ghb      = po-ghb | mfence-o | implied | rfe | co | fr

axiom uniproc : acyclic po-loc | com   "per-location coherence"
axiom atomic  : empty rmw & (fre ; coe) "locked read-modify-writes are atomic"
axiom tso     : acyclic ghb             "global happens-before"
