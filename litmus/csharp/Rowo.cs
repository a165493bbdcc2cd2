// Read-ordering / write-ordering: the C# form of litmus/programs/rowo.litmus. The writer
// writes a then b in each round; property: the reader never sees a newer b than a.
using System.Diagnostics;
using System.Threading;

class Rowo {
    static int a, b;

    static void Writer() {
        for (int i = 1; i <= 2; i++) { a = i; b = i; }
    }

    static void Reader() {
        for (int j = 1; j <= 2; j++) {
            int rb = b;
            int ra = a;
            Debug.Assert(ra >= rb);
        }
    }

    static void Main() {
        Thread t0 = new Thread(Writer), t1 = new Thread(Reader);
        t0.Start(); t1.Start();
        t0.Join(); t1.Join();
    }
}
