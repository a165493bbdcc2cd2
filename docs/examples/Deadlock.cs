// Two threads taking two locks in opposite orders: a deadlock (mmdsl check names who holds what).
using System.Diagnostics;
using System.Threading;

class Deadlock {
    static readonly object a = new object(), b = new object();
    static int n;

    static void Left() {
        lock (a) {
            lock (b) { n = n + 1; }
        }
    }

    static void Right() {
        lock (b) {
            lock (a) { n = n + 1; }
        }
    }

    static void Main() {
        Thread l = new Thread(Left), r = new Thread(Right);
        l.Start(); r.Start();
        l.Join(); r.Join();
        Debug.Assert(n == 2);
    }
}
