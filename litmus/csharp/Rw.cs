// Readers and a writer under one lock: the C# form of litmus/programs/rw.litmus. The
// writer updates d1 and d2 only while no reader has registered; property: a reader never
// sees one field updated and not the other.
using System.Diagnostics;
using System.Threading;

class Rw {
    static readonly object l = new object();
    static int readers, d1, d2;

    static void Reader() {
        lock (l) { readers = readers + 1; }
        int a = d1;
        int b = d2;
        Debug.Assert(a == b);
    }

    static void Writer() {
        lock (l) {
            if (readers == 0) { d1 = 1; d2 = 1; }
        }
    }

    static void Main() {
        Thread r0 = new Thread(Reader), r1 = new Thread(Reader), w = new Thread(Writer);
        r0.Start(); r1.Start(); w.Start();
        r0.Join(); r1.Join(); w.Join();
    }
}
