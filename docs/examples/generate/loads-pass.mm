model loads-pass "TSO whose loads may also be performed before earlier loads"
"""
A model under design for the generate tutorial (docs/generate.md): x86-TSO's store
buffer, plus loads that may overtake earlier loads of other locations.
"""

class Ld = R \ RMW   "plain loads"
class St = W \ RMW   "plain stores"
class At = RMW       "both halves of a locked read-modify-write"

reorder {          # rows: the earlier access; columns: the later one
          Ld   St   At
    Ld    d    -    -
    St    Y    -    -
    At    -    -    -
}
forwarding own-writes

fence mfence aka mb, full orders M * M cost 3 "waits for every earlier access"
fence lfence aka rmb orders R * R cost 1 "keeps loads in order"
