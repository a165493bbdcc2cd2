// A two-thread barrier used twice: the C# form of litmus/programs/tbarrier.litmus. Each
// thread writes its data, meets the other at the barrier, then reads the other's data.
using System.Diagnostics;
using System.Threading;

class TBarrier {
    static int d0, d1, arrive, release;

    static void P0() {
        for (int e = 1; e <= 2; e++) {
            d0 = e;                        // work before the barrier
            while (arrive != e) { }        // the winner waits for the loser
            release = e;
            Debug.Assert(d1 >= e);         // work after the barrier
        }
    }

    static void P1() {
        for (int e = 1; e <= 2; e++) {
            d1 = e;
            arrive = e;                    // the loser signals its arrival
            while (release != e) { }       // and waits to be released
            Debug.Assert(d0 >= e);
        }
    }

    static void Main() {
        Thread t0 = new Thread(P0), t1 = new Thread(P1);
        t0.Start(); t1.Start();
        t0.Join(); t1.Join();
    }
}
