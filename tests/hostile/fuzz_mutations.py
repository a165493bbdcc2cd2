"""Hypothesis strategies for hostile inputs: the bundled tests, models and manifests, mutated.

Seeds are the repository's own files (litmus tests of every dialect under ``litmus/``,
``models/*.mm``, ``litmus/*/manifest.yaml``, the last cut down to a few tests so that a
suite run stays short). A mutation works on characters or on tokens: delete, duplicate or
swap a span, insert or replace with a token of the file's language, punctuation, a huge
number or deep nesting, truncate. One to four mutations per input.
"""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]
LITMUS = ROOT / "litmus"
MODELS = ROOT / "models"


def _read(paths) -> list[tuple[str, str]]:
    return [(p.name, p.read_text()) for p in paths]


def litmus_seeds() -> dict[str, list[tuple[str, str]]]:
    """Seed tests per dialect: (file name, text)."""
    x86 = sorted(LITMUS.glob("classic/*.litmus"))
    x86_64 = sorted((LITMUS / "x86" / "tests" / "non-mixed-size").glob("*/*.litmus"))
    return {
        "X86": _read(x86[:: max(1, len(x86) // 8)]),
        "X86_64": _read(x86_64[:: max(1, len(x86_64) // 8)]),
        "LISA": _read(sorted(LITMUS.glob("classic/lisa/*.litmus"))[::4] + sorted(LITMUS.glob("fences/*.litmus"))),
        "C": _read(sorted(LITMUS.glob("classic/c/*.litmus"))[::4] + sorted(LITMUS.glob("programs/*.litmus"))[::2]),
    }


def model_seeds() -> list[tuple[str, str]]:
    return _read(sorted(MODELS.glob("*.mm")))


# A cut-down manifest keeps its header and the first few expectations; the suite folder
# gets only the tests those expectations name (and the files the header's globs pick among them).
MANIFEST_TESTS = 3


def manifest_seeds() -> list[tuple[str, str, dict[str, str]]]:
    """(suite name, manifest text, {path under litmus/: test text}) for each bundled suite.

    The files are those the kept expectations name, every file the manifest names
    without a glob, and the first match of each glob (so that no pattern matches nothing).
    """
    import yaml

    seeds = []
    for manifest in sorted(LITMUS.glob("*/manifest.yaml")):
        suite = manifest.parent
        lines = manifest.read_text().splitlines(keepends=True)
        kept, paths, in_expect, entry = [], set(), False, 0
        for line in lines:
            if re.match(r"\S", line):
                in_expect = line.startswith("expect:")
                kept.append(line)
                continue
            if not in_expect:
                kept.append(line)
                continue
            key = re.match(r"  ([^\s:{][^:]*):", line)
            if key:
                entry += 1
                if entry <= MANIFEST_TESTS and (suite / f"{key.group(1).strip()}.litmus").is_file():
                    paths.add(suite / f"{key.group(1).strip()}.litmus")
            if entry <= MANIFEST_TESTS:
                kept.append(line)
        for pattern in yaml.safe_load(manifest.read_text()).get("tests", []):
            matches = sorted(suite.glob(pattern)) if any(c in pattern for c in "*?[") else [suite / pattern]
            paths.update(matches[:1])
        files = {str(p.resolve().relative_to(LITMUS)): p.read_text() for p in sorted(paths) if p.is_file()}
        seeds.append((suite.name, "".join(kept), files))
    return seeds


PUNCTUATION = list("{}()[];:,|&*+-~!=<>/\\\"'`#%$@^?.") + ["\n", "\t", "\r\n", " ", "\x00", "\u00e9", "\u202e"]
HUGE = ["99999999999999999999999999999999", "-9223372036854775809", "18446744073709551616", "1e309",
        "0x" + "f" * 40, "-0", "007", "1" * 400]
COMMON = ["exists", "~exists", "forall", "/\\", "\\/", "~", "=>", "true", "false", "not", "0:r0=1", "x=1",
          "(*", "*)", "locations [x;y;]", "filter (x=1)", "P0", "P1", "P9", "{", "}", "x", "y", "z"]
TOKENS = {
    "X86": ["MOV", "[x]", "[y]", "EAX", "EBX", "$1", "$0", ",", "MFENCE", "XCHG", "LOCK", "INC", "ADD", "CMP",
            "JNE", "JMP", "LC00:", "LC00", "0:EAX=1"],
    "X86_64": ["movq", "movl", "%rax", "%eax", "%al", "%r8", "(x)", "(y)", "$1", "mfence", "xchgq", "lock",
               "incq", "addq", "cmpq", "jne", "L0:", "nop", "0:rax=1", "uint64_t x;", "int64_t"],
    "LISA": ["w[]", "r[]", "r[acq]", "w[rel]", "f[mb]", "f[lw]", "rmw[]", "r0", "r1", "mov", "b[]", "beq",
             "bne", "add", "(xor r0 r0)", "y+r1", "x+r0", "LC00:", "0:r0=1", "r2"],
    "C": ["READ_ONCE(", "WRITE_ONCE(*x, 1);", "smp_mb();", "int", "int *", "r0", "while", "if", "else", "break",
          "continue", "do", "for", "&", "&&", "||", "==", "->", "?", ":", "//", "/*", "*/", "spin_lock(l);",
          "atomic_load_explicit(x, memory_order_acquire)", "smp_store_release(y, 2);", "volatile", "return;"],
    "model": ["model", "class", "reorder", "Y", "-", "d", "i", "di", "fence", "orders", "cost", "aka", "let",
              "let rec", "and", "axiom", "acyclic", "irreflexive", "empty", "as", "include", '"sc.mm"',
              '"tso.mm"', "|", ";", "&", "\\", "*", "+", "?", "^-1", "~", "[R]", "[W]", "po", "rf", "co", "fr",
              "po-loc", "rfe", "fre", "addr", "data", "ctrl", "rmw", "loc", "id", "ext", "int", "ppo",
              "forwarding own-writes", "R", "W", "M", "RMW", "F", "#", '"""', "M * M", "acq", "rel", "mb",
              "volatile", "lock", "unlock"],
    "manifest": [":", "-", "- ", "[", "]", "{", "}", "*", "**", "name:", "models:", "tests:", "expect:",
                 "engine:", "explorer", "axiomatic", "both", "Allowed", "Forbidden", "Never", "Always",
                 "Sometimes", "sc", "tso", "rmo", "&a", "*a", "!!python/object:os.system", "!!binary", "|", ">",
                 "'", '"', "..", "../..", "/", "/**/", "~", "null", "[sc, tso]", "[]", "{}", "reason:",
                 "x=tso.mm", "? ", "%YAML 1.2\n---\n", "...\n"],
}


def nesting(depth: int, kind: str) -> str:
    """A deeply nested fragment of the file's language."""
    if kind == "model":
        return ["(" * depth + "po" + ")" * depth, "po" + "^-1" * depth, "po ; " * depth + "po",
                "~" * depth + "po"][depth % 4]
    if kind == "manifest":
        return "[" * depth + "]" * depth
    if kind == "C":
        return "{" * depth + "}" * depth
    return "(" * depth + "x=1" + ")" * depth


# Character mutations mostly stop the parser; word and line mutations keep more inputs
# well formed, so that they reach the engines: those come more often.
OPERATIONS = (["delete", "duplicate", "swap", "insert", "replace", "truncate"]
              + ["token-delete", "token-duplicate", "token-swap", "token-insert"]
              + ["word"] * 5 + ["deepen"] + ["line-delete", "line-duplicate", "line-duplicate", "line-swap"])
_TOKEN = re.compile(r"\s+|\w+|.", re.S)


@st.composite
def mutated(draw, text: str, kind: str) -> str:
    """``text`` after one to four byte or token mutations."""
    vocabulary = TOKENS[kind] + (COMMON if kind in ("X86", "X86_64", "LISA", "C") else [])
    for _ in range(draw(st.sampled_from([1, 1, 1, 2, 3, 4]))):
        op = draw(st.sampled_from(OPERATIONS))
        if op.startswith("line-"):
            lines = text.splitlines(keepends=True) or [""]
            i = draw(st.integers(0, len(lines) - 1))
            if op == "line-delete":
                del lines[i]
            elif op == "line-duplicate":
                lines[i:i + 1] = [lines[i]] * draw(st.sampled_from([2, 3, 40, 400]))
            else:
                j = draw(st.integers(0, len(lines) - 1))
                lines[i], lines[j] = lines[j], lines[i]
            text = "".join(lines)
            continue
        if op in ("word", "deepen"):  # one word for another of the file or the language: parses more often
            tokens = _TOKEN.findall(text)
            words = [k for k, t in enumerate(tokens) if re.fullmatch(r"\w+", t)]
            if words and op == "deepen":  # a word for a deeply nested or long chain of the language
                tokens[draw(st.sampled_from(words))] = _filler(draw, vocabulary, kind, "nest")
            elif words:
                k = draw(st.sampled_from(words))
                pool = sorted({t for t in tokens if re.fullmatch(r"\w+", t)})
                tokens[k] = draw(st.sampled_from(pool + [w for w in vocabulary if re.fullmatch(r"\w+", w)]
                                                 + ["0", "1", "2", "-1", HUGE[0]]))
            text = "".join(tokens)
            continue
        if op.startswith("token-"):
            tokens = _TOKEN.findall(text) or [""]
            i = draw(st.integers(0, len(tokens) - 1))
            if op == "token-delete":
                del tokens[i]
            elif op == "token-duplicate":
                tokens.insert(i, tokens[i] * draw(st.sampled_from([1, 2, 50])))
            elif op == "token-swap":
                j = draw(st.integers(0, len(tokens) - 1))
                tokens[i], tokens[j] = tokens[j], tokens[i]
            else:
                tokens.insert(i, _filler(draw, vocabulary, kind))
            text = "".join(tokens)
            continue
        i = draw(st.integers(0, len(text)))
        j = draw(st.integers(i, min(len(text), i + draw(st.sampled_from([1, 4, 16, 80])))))
        if op == "delete":
            text = text[:i] + text[j:]
        elif op == "duplicate":
            text = text[:j] + text[i:j] * draw(st.sampled_from([1, 2, 30])) + text[j:]
        elif op == "swap":
            k = draw(st.integers(j, len(text)))
            m = draw(st.integers(k, min(len(text), k + j - i + 8)))
            text = text[:i] + text[k:m] + text[j:k] + text[i:j] + text[m:]
        elif op == "insert":
            text = text[:i] + _filler(draw, vocabulary, kind) + text[i:]
        elif op == "replace":
            text = text[:i] + _filler(draw, vocabulary, kind) + text[j:]
        else:
            text = text[:i]
    return text


def _filler(draw, vocabulary: list[str], kind: str, what: str = "") -> str:
    what = what or draw(st.sampled_from(["token", "token", "token", "punct", "huge", "nest", "space"]))
    if what == "token":
        return draw(st.sampled_from(vocabulary))
    if what == "punct":
        return draw(st.sampled_from(PUNCTUATION))
    if what == "huge":
        return draw(st.sampled_from(HUGE))
    if what == "nest":
        return nesting(draw(st.sampled_from([30, 300, 3000, 31, 301, 3001, 32, 302, 3002, 33, 303, 3003])), kind)
    return " " + draw(st.sampled_from(vocabulary)) + " "
