"""The .NET checker's intermediate-state invariants (Huynh and Roychoudhury, section 2): an
``assert`` inside a thread of a C program, checked under the .NET model by `mmdsl check`."""

from __future__ import annotations

from typer.testing import CliRunner

from mmdsl.cli.app import app

# message passing with the invariant where the reader stands, not at the end: once it sees
# the flag it must see the data. .NET may perform the writer's two plain stores in either
# order (its Table 1: Write -> Write reorders), so the invariant breaks; under SC it holds.
PROGRAM = """#include <pthread.h>
#include <assert.h>
int data, flag;
void *writer(void *a) { data = 1; flag = 1; return 0; }
void *reader(void *a) {
    if (flag == 1)
        assert(data == 1);
    return 0;
}
int main() {
    pthread_t w, r;
    pthread_create(&w, 0, writer, 0);
    pthread_create(&r, 0, reader, 0);
    pthread_join(w, 0);
    pthread_join(r, 0);
    return 0;
}
"""


def test_an_assert_inside_a_thread_is_checked_under_dotnet(tmp_path):
    path = tmp_path / "mp-invariant.c"
    path.write_text(PROGRAM)
    r = CliRunner().invoke(app, ["check", str(path), "-m", "dotnet"])
    assert r.exit_code == 1, r.output
    assert "mp-invariant under dotnet: assertion violated" in r.output and ":7:9: assert(data == 1);" in r.output
    r = CliRunner().invoke(app, ["check", str(path), "-m", "sc"])
    assert r.exit_code == 0 and "mp-invariant under sc: safe" in r.output, r.output
