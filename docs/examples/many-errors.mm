model many "four mistakes, reported together"

class d = R                        # a class named like a table cell
reorder {
        R  W
    R   -  x                       # not a cell
    W   Y  -
}
let com = rff | co | fr            # a misspelt relation
let hb = po | com                  # built on the broken let: not reported again
axiom order : acyclic hb
axiom order : acyclic po | rf      # the same name twice
