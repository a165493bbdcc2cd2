// Store buffering on two volatile fields: the C# form of litmus/programs/rw-vol.litmus.
// Property: not both reads take the initial values.
using System.Diagnostics;
using System.Threading;

class RwVol {
    static volatile int x, y;
    static int r0, r1;   // what each thread read

    static void P0() { x = 1; r0 = y; }
    static void P1() { y = 1; r1 = x; }

    static void Main() {
        Thread t0 = new Thread(P0), t1 = new Thread(P1);
        t0.Start(); t1.Start();
        t0.Join(); t1.Join();
        Debug.Assert(!(r0 == 0 && r1 == 0));
    }
}
