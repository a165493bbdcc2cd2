// Peterson's mutual exclusion with the paper's barriers: the C# form of
// litmus/programs/peterson-fixed.litmus. Property: both increments of counter survive.
using System.Diagnostics;
using System.Threading;

class PetersonFixed {
    static int flag0, flag1, turn, counter;

    static void P0() {
        flag0 = 1;
        Thread.MemoryBarrier();
        turn = 1;
        while (true) {
            Thread.MemoryBarrier();
            if (flag1 != 1 || turn == 0) break;
        }
        counter = counter + 1;   // the critical section
        Thread.MemoryBarrier();
        flag0 = 0;
    }

    static void P1() {
        flag1 = 1;
        Thread.MemoryBarrier();
        turn = 0;
        while (true) {
            Thread.MemoryBarrier();
            if (flag0 != 1 || turn == 1) break;
        }
        counter = counter + 1;   // the critical section
        Thread.MemoryBarrier();
        flag1 = 0;
    }

    static void Main() {
        Thread t0 = new Thread(P0), t1 = new Thread(P1);
        t0.Start(); t1.Start();
        t0.Join(); t1.Join();
        Debug.Assert(counter == 2);
    }
}
