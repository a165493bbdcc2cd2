// An example for docs/csharp.md: a 64-bit field, which mmdsl's CIL reader refuses by name.
using System.Diagnostics;
using System.Threading;

class Unsupported {
    static long ticks;

    static void Tick() { ticks = ticks + 1; }

    static void Main() {
        Thread t = new Thread(Tick);
        t.Start(); t.Join();
        Debug.Assert(ticks == 1);
    }
}
