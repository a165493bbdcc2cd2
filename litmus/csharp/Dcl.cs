// Double-checked locking (Huynh and Roychoudhury's DCL): the C# form of
// litmus/programs/dcl.litmus. Each thread gets the helper, making it under the lock if no
// one has; property: the helper a thread gets is initialised (its field is 1).
using System.Diagnostics;
using System.Threading;

class Helper {
    public int field;
    public Helper() { field = 1; }   // the constructor writes the field
}

class Dcl {
    static readonly object l = new object();
    static Helper helper;

    static Helper Get() {
        if (helper == null) {
            lock (l) {
                if (helper == null) helper = new Helper();   // publish
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
