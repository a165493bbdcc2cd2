"""Relations a model names in `show` are drawn (with their own colour and legend line)."""

from __future__ import annotations

from diagram_cases import CLASSIC

from mmdsl.lang import load_model
from mmdsl.litmus import load_litmus
from mmdsl.render.dot_execution import execution_dot
from mmdsl.render.execution_choice import choose_executions
from mmdsl.render.execution_view import execution_view
from mmdsl.render.styles import SCREEN

MODEL = '''model tso-show "TSO, showing a happens-before"
reorder {
         R    W
    R    -    -
    W    Y    -
}
forwarding own-writes
fence mfence orders M * M cost 3
let hb = ppo | rfe
show hb, ppo
'''


def test_shown_relation_is_drawn_with_its_legend(tmp_path):
    path = tmp_path / "tso-show.mm"
    path.write_text(MODEL)
    model = load_model(path)
    program = load_litmus(CLASSIC / "MP.litmus")
    # the allowed execution in which P1 reads both writes of P0 (MP: a: Wx=1 b: Wy=1 | c: Ry d: Rx)
    x = next(x for x in choose_executions(program, model, "allowed").chosen
             if x.execution.final[("reg", 1, "EAX")] == 1 and x.execution.final[("reg", 1, "EBX")] == 1)
    view = execution_view(x.execution, model, test="MP", status=x.status, thread_names=["P0", "P1"],
                          condition=program.condition)
    shown = {(e.src, e.dst) for e in view.edges if e.rel == "show:0"}
    # hb = ppo | rfe: TSO keeps W->W and R->R; b -rfe-> c and a -rfe-> d
    assert shown == {("a", "b"), ("c", "d"), ("b", "c"), ("a", "d")}
    assert all(e.label == "hb" for e in view.edges if e.rel == "show:0")
    assert not any(e.rel == "show:1" for e in view.edges), "ppo is drawn anyway, not twice"
    assert ("show:0", "hb", "ppo | rfe") in view.legend
    dot = execution_dot(view, SCREEN)
    assert 'class="show hb"' in dot and 'color="#c51b7d"' in dot
