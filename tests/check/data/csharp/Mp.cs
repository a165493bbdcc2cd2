// Message passing with a plain flag: the reader's assertion fails under dotnet (the writes may
// be seen out of order), holds under tso and sc. Written for mmdsl's tests.
using System.Diagnostics;
using System.Threading;

class Mp {
    static int data, flag;

    static void Writer() {
        data = 1;
        flag = 1;
    }

    static void Reader() {
        while (flag == 0) { }
        Debug.Assert(data == 1);
    }

    static void Main() {
        Thread w = new Thread(Writer), r = new Thread(Reader);
        w.Start(); r.Start();
        w.Join(); r.Join();
    }
}
