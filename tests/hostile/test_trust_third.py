"""Issue 27, items 3 and 6: tracebacks (generation from a model of axioms alone, lone surrogates
sent to the web server) and instructions the ISA refuses that were once accepted (LOCK on a
register, PC as an ARM operand, a RISC-V shift amount past its field), the web suite stream's
duplicate models, and a refused ``--timeout`` printed as the user wrote it."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from refdata import SHARED_REFERENCE

from mmdsl.core.errors import LitmusError, MmdslError, UnsupportedError
from mmdsl.generate.api import generate_from_models
from mmdsl.generate.cycles import Bounds
from mmdsl.litmus import parse_litmus

ROOT = Path(__file__).resolve().parents[2]
X86TSO_CAT = SHARED_REFERENCE / "herd-cats" / "x86tso.cat"


def mmdsl(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mmdsl", *args], capture_output=True, text=True, timeout=300,
                          cwd=ROOT)


# ----- item 3: generation from a model without a reordering table ------------------------------
def _names(a: str, b: str, size: int = 4) -> list[str]:
    tests, _ = generate_from_models(a, b, Bounds(size=size, threads=2), "X86")
    return [t.name for t in tests]


def test_a_model_of_axioms_alone_generates_what_its_table_twin_does():
    """tso-axioms (axioms only) against sc gives TSO's tests (the table's model: R and SB)."""
    assert _names("tso-axioms", "sc") == _names("tso", "sc") == ["R", "SB"]
    assert _names("sc", "tso-axioms") == []


def test_generate_and_diff_models_from_a_model_of_axioms_alone_on_the_cli():
    res = mmdsl("generate", "--from-model", "tso-axioms", "--against", "sc", "--size", "4", "--threads", "2")
    assert res.returncode == 0, res.stderr
    assert "Traceback" not in res.stderr
    assert res.stdout.splitlines()[0] == "2 test(s) that tso-axioms allows and sc forbids:"
    res = mmdsl("diff-models", "tso-axioms", "sc", "--generate", "--size", "4", "--threads", "2")
    assert res.returncode == 0, res.stderr
    assert "differ on 2 generated test(s)" in res.stdout


@pytest.mark.skipif(not X86TSO_CAT.is_file(), reason=f"herd's x86tso.cat is not in {X86TSO_CAT.parent}")
def test_generate_from_herds_x86tso_cat():
    assert _names(str(X86TSO_CAT), "sc") == ["R", "SB"]


# ----- item 3: lone surrogates sent to the web server ---------------------------------------
@pytest.fixture(scope="module")
def client():
    pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from mmdsl.web.app import create_app

    with TestClient(create_app(timeout=30)) as c:
        yield c


@pytest.mark.parametrize("key", ["test_name", "test_text", "model_name", "engine", "style", "model_text"])
@pytest.mark.parametrize("path", ["/api/run", "/api/draw", "/api/check-model"])
def test_a_lone_surrogate_is_a_clean_error(client, key, path):
    body = json.dumps({"test_name": "classic/SB.litmus", "model_name": "tso"})[:-1] + f', "{key}": "a\\ud800b"}}'
    res = client.post(path, content=body.encode(), headers={"content-type": "application/json"})
    assert res.status_code == 422
    err = res.json()["errors"][0]
    assert err["message"] == f"'{key}' holds a lone surrogate (\\ud800) at character 2"


def test_a_lone_surrogate_in_a_key_or_a_list_is_a_clean_error(client):
    for body in (b'{"\\udc00": 1, "test_name": "classic/SB.litmus", "model_name": "tso"}',
                 b'{"test_name": "classic/SB.litmus", "model_name": "tso", "x": ["\\udfff"]}'):
        res = client.post("/api/run", content=body, headers={"content-type": "application/json"})
        assert res.status_code == 422
        assert "lone surrogate" in res.json()["errors"][0]["message"]


# ----- item 6: the web suite stream refuses a model named twice, as the CLI does ---------------
def test_the_web_suite_stream_refuses_a_model_named_twice(client):
    res = client.get("/api/suite?suite=classic&model=sc&model=sc")
    assert res.status_code == 422
    assert res.json()["errors"][0]["message"] == "model 'sc' is given twice"


# ----- item 6: instructions the ISA refuses --------------------------------------------------
LOCK_REG = """X86_64 lockreg
{ }
 P0                 ;
 movq $1,%rax       ;
 lock addq $1,%rax  ;
exists (0:rax=2)
"""
LOCK_REG_INTEL = "X86 lockreg\n{ }\n P0 ;\n LOCK INC EAX ;\nexists (0:EAX=2)\n"
LOCK_MEM = "X86 lockmem\n{ }\n P0 ;\n LOCK XCHG EAX,[x] ;\n LOCK INC [x] ;\nexists (x=1)\n"


def test_lock_on_a_register_destination_is_refused_where_written():
    for text, line, name in ((LOCK_REG, 5, "addq"), (LOCK_REG_INTEL, 4, "INC")):
        with pytest.raises(LitmusError) as e:
            parse_litmus(text, "lock.litmus")
        assert e.value.pos.line == line and e.value.pos.col == 2
        assert f"LOCK {name} needs a memory destination" in str(e.value)
    parse_litmus(LOCK_MEM, "ok.litmus")  # XCHG with memory on either side, INC on memory


@pytest.mark.parametrize("instr,what", [("LDR PC,[R1]", "writing PC branches"),
                                        ("MOV PC,R0", "writing PC branches"),
                                        ("STR R0,[PC]", "reading PC gives"),
                                        ("ADD R0,PC,R1", "reading PC gives")])
def test_pc_as_an_arm_operand_is_refused(instr, what):
    text = f"ARM pc\n{{ 0:R1=x; }}\n P0 ;\n MOV R0,#1 ;\n {instr} ;\nexists (x=0)\n"
    with pytest.raises(UnsupportedError) as e:
        parse_litmus(text, "pc.litmus")
    assert what in str(e.value) and "PC as an operand of" in str(e.value)
    assert (e.value.pos.line, e.value.pos.col) == (5, 2)


@pytest.mark.parametrize("instr,ok", [("slli x5,x5,64", False), ("srai x5,x5,-1", False), ("srli x5,x5,100", False),
                                      ("slli x5,x5,63", True), ("srai x5,x5,0", True)])
def test_riscv_shift_amounts_fit_their_field(instr, ok):
    text = f"RISCV sh\n{{ 0:x6=x; }}\n P0 ;\n li x5,1 ;\n {instr} ;\n sw x5,0(x6) ;\nexists (x=0)\n"
    if ok:
        parse_litmus(text, "sh.litmus")
        return
    with pytest.raises(LitmusError) as e:
        parse_litmus(text, "sh.litmus")
    assert "out of range" in str(e.value) and "from 0 to 63" in str(e.value)
    assert (e.value.pos.line, e.value.pos.col) == (5, 2)


# ----- item 6: a refused --timeout is printed as given ------------------------------------------
@pytest.mark.parametrize("given", ["1000001", "2500000.5"])
def test_a_refused_timeout_is_printed_as_given(given):
    from mmdsl.core.limits import check_timeout

    with pytest.raises(MmdslError) as e:
        check_timeout(float(given))
    assert e.value.message == f"--timeout {given} is not a time limit"


# ----- item 5: errors name the construct's own line and column, and the true depth -----------
def _error_of(folder: Path, text: str, name: str, model: str = "sc") -> str:
    path = folder / name
    path.write_text(text)
    r = mmdsl("run", str(path), "-m", model)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    return r.stderr.replace(str(path), name)


def test_a_let_rec_without_fixpoint_is_blamed_on_its_own_line(tmp_path):
    cat = tmp_path / "osc.cat"
    cat.write_text('"osc"\n\nlet rec r = po \\ r\nacyclic r as a\n')
    r = mmdsl("run", "litmus/classic/SB.litmus", "-m", str(cat))
    assert r.returncode == 2 and r.stderr.startswith(f"{cat}:3:9: model error: let rec r did not reach a fixpoint")


@pytest.mark.parametrize("name,text,where,what", [
    ("imp.litmus", "X86 imp\n{ x=0; }\n P0 ;\n MOV [x],$1 ;\nexists (" + " => ".join(["x=1"] * 3000) + ")\n",
     "5:13", "a chain of 2999 '=>' in one statement"),
    ("cif.litmus", "C cif\n{ x=0; }\nP0 (int* x) {\n  int r0 = 0;\n" + "  if (r0 == 0)" * 2000
     + " r0 = 1;\n  *x = r0;\n}\nexists (x=1)\n", "5:3", "a chain of 2000 'if' in one statement"),
    ("cplus.litmus", "C cplus\n{ x=0; }\nP0 (int* x) {\n  int r0 = 0;\n  r0 = " + " + ".join(["1"] * 3000)
     + ";\n  *x = r0;\n}\nexists (x=1)\n", "5:10", "a chain of 2999 '+' in one statement"),
    ("rif.rmm", "forbidden CS\nprocess\ntext\n  " + "if true then " * 1500 + "nop;\n  CS: nop\n",
     "4:3", "a chain of 1500 'if' in one statement"),
])
def test_long_chains_are_located_at_their_first_operator(tmp_path, name, text, where, what):
    err = _error_of(tmp_path, text, name)
    assert err.startswith(f"{name}:{where}: litmus error: nested too deeply to be read ({what})"), err


def test_long_postfix_chains_and_let_chains_in_cat_are_located(tmp_path):
    inv = tmp_path / "inv.cat"
    inv.write_text('"inv"\nlet r = po' + "^-1" * 200 + "\nacyclic r as a\n")
    r = mmdsl("check-model", str(inv))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.startswith(f"{inv}:2:11: model error: expression nested more than 50 deep: "
                               "a chain of 200 postfix operators"), r.stderr
    lets = tmp_path / "lets.cat"
    lets.write_text('"lets"\nlet r0 = po\n' + "".join(f"let r{i} = r{i - 1}^-1\n" for i in range(1, 1000))
                    + "acyclic r999 as a\n")
    r = mmdsl("check-model", str(lets))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.startswith(f"{lets}:1001:5: model error: definitions chained too deeply to lower: "
                               "'r999' reads a chain of more than"), r.stderr


def test_a_model_copied_for_one_event_rmws_shares_its_expressions():
    """200 nested ^-1 (under the postfix limit through lets) once overflowed deepcopy."""
    from copy import deepcopy

    from mmdsl.lang.ir import Expr

    e = Expr("name", name="po")
    for _ in range(5000):
        e = Expr("inv", (e,))
    assert deepcopy([e])[0] is e
