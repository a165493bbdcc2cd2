model broken "A deliberately broken model for the documentation"

class Read     = R \ volatile
class Write    = W
class VolRead  = R & volatile
class VolWrite = W & volatile

reorder {
           Read  Write  VolRead  VolWrite
    Read   Y     Y      Y        -
    Write  Y     Y      Y        -
    VolRead -    -      -        -
    VolWrite Y   Y      Y        -
}
