// Independent workers (1): each thread counts to 2 in its own shared counter; the C#
// form of litmus/programs/iw1.litmus. Property: no increment is lost.
using System.Diagnostics;
using System.Threading;

class Iw1 {
    static int c0, c1;

    static void P0() { for (int i = 0; i < 2; i++) c0 = c0 + 1; }
    static void P1() { for (int i = 0; i < 2; i++) c1 = c1 + 1; }

    static void Main() {
        Thread t0 = new Thread(P0), t1 = new Thread(P1);
        t0.Start(); t1.Start();
        t0.Join(); t1.Join();
        Debug.Assert(c0 == 2 && c1 == 2);
    }
}
