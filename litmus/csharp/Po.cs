// Program order, write then read, for two rounds: the C# form of litmus/programs/po.litmus.
// Property: in no round do both threads read a value older than that round.
using System.Diagnostics;
using System.Threading;

class Po {
    static int x, y;
    static int stale0, stale1;   // the last round in which each thread read a stale value

    static void P0() {
        int stale = 0;
        for (int i = 1; i <= 2; i++) {
            x = i;
            int r = y;
            if (r < i) stale = i;
        }
        stale0 = stale;
    }

    static void P1() {
        int stale = 0;
        for (int i = 1; i <= 2; i++) {
            y = i;
            int r = x;
            if (r < i) stale = i;
        }
        stale1 = stale;
    }

    static void Main() {
        Thread t0 = new Thread(P0), t1 = new Thread(P1);
        t0.Start(); t1.Start();
        t0.Join(); t1.Join();
        Debug.Assert(!(stale0 == 1 && stale1 == 1) && !(stale0 == 2 && stale1 == 2));
    }
}
