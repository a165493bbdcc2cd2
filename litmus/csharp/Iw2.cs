// Independent workers (2): two instances of one Worker class sum a shared input nobody
// writes, each into its own (instance) accumulator; the C# form of litmus/programs/iw2.litmus.
using System.Diagnostics;
using System.Threading;

class Worker {
    public static int input = 3;
    public int acc;
    public int done;

    public void Run() {
        for (int i = 0; i < 2; i++) acc = acc + input;
        done = 1;
    }
}

class Iw2 {
    static void Main() {
        Worker w0 = new Worker(), w1 = new Worker();
        Thread t0 = new Thread(w0.Run), t1 = new Thread(w1.Run);
        t0.Start(); t1.Start();
        t0.Join(); t1.Join();
        Debug.Assert(w0.acc == 6 && w1.acc == 6);
    }
}
