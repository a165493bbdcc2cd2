// An example for docs/csharp.md: a compile error, reported with mcs's own line and column.
using System.Diagnostics;
using System.Threading;

class Typo {
    static int x;

    static void P() { x = 1 }

    static void Main() {
        Thread t = new Thread(P);
        t.Start(); t.Join();
        Debug.Assert(x == 1);
    }
}
