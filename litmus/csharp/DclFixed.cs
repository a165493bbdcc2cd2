// Double-checked locking with the paper's barrier (2) between the constructor and the
// publishing write: the C# form of litmus/programs/dcl-fixed.litmus. Each thread gets the
// helper, made under the lock if no one has; property: its field is 1.
using System.Diagnostics;
using System.Threading;

class Helper {
    public int field;
    public Helper() { field = 1; }   // the constructor writes the field
}

class DclFixed {
    static readonly object l = new object();
    static Helper helper;

    static Helper Get() {
        if (helper == null) {
            lock (l) {
                if (helper == null) {
                    Helper t = new Helper();
                    Thread.MemoryBarrier();                  // barrier (2)
                    helper = t;                              // publish
                }
            }
        }
        return helper;
    }

    static void P() {
        Helper h = Get();
        Debug.Assert(h.field == 1);   // use the object returned: read its field
    }

    static void Main() {
        Thread t0 = new Thread(P), t1 = new Thread(P);
        t0.Start(); t1.Start();
        t0.Join(); t1.Join();
    }
}
