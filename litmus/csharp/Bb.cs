// A bounded buffer of one slot guarded by a lock: the C# form of litmus/programs/bb.litmus.
// The producer puts 1 then 2; property: the consumer gets 1 then 2.
using System.Diagnostics;
using System.Threading;

class Bb {
    static readonly object l = new object();
    static int slot, full;

    static void Producer() {
        int i = 1;
        while (i <= 2) {
            lock (l) {
                if (full == 0) { slot = i; full = 1; i = i + 1; }
            }
        }
    }

    static void Consumer() {
        int j = 1;
        while (j <= 2) {
            lock (l) {
                if (full == 1) {
                    Debug.Assert(slot == j);
                    full = 0;
                    j = j + 1;
                }
            }
        }
    }

    static void Main() {
        Thread p = new Thread(Producer), c = new Thread(Consumer);
        p.Start(); c.Start();
        p.Join(); c.Join();
    }
}
