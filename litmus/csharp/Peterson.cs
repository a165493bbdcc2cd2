// Peterson's mutual exclusion (Huynh and Roychoudhury, Figure 1) with plain fields: the C#
// form of litmus/programs/peterson.litmus. Property: both increments of counter survive.
using System.Diagnostics;
using System.Threading;

class Peterson {
    static int flag0, flag1, turn, counter;

    static void P0() {
        flag0 = 1;
        turn = 1;
        while (flag1 == 1 && turn == 1) { }
        counter = counter + 1;   // the critical section
        flag0 = 0;
    }

    static void P1() {
        flag1 = 1;
        turn = 0;
        while (flag0 == 1 && turn == 0) { }
        counter = counter + 1;   // the critical section
        flag1 = 0;
    }

    static void Main() {
        Thread t0 = new Thread(P0), t1 = new Thread(P1);
        t0.Start(); t1.Start();
        t0.Join(); t1.Join();
        Debug.Assert(counter == 2);
    }
}
