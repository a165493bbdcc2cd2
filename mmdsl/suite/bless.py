"""``--bless``: write a run's verdicts into its manifest's ``expect``, editing the text in place.

PyYAML cannot write a file back with its comments, so the manifest is not dumped again:
the YAML node marks locate each expectation, and only those spans change (a word
replaced, a ``model: Word`` added to an entry, an entry added to ``expect``). Comments,
reasons, key order and layout stay as they were. The result is read back and
checked before it replaces the file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..core.errors import writing
from .expectations import OBSERVATIONS, parse_word
from .manifest import ManifestError, compose_manifest, load_manifest, strip_test_suffix
from .run import SuiteRun
from .work import OK

_PLAIN = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_+./=@-]*")
_YAML_WORDS = {"y", "n", "yes", "no", "on", "off", "true", "false", "null", "~"}


@dataclass
class BlessReport:
    changed: list[tuple[str, str, str, str]] = field(default_factory=list)  # test, model, old, new
    added: list[tuple[str, str, str]] = field(default_factory=list)  # test, model, word
    skipped: list[tuple[str, str, str]] = field(default_factory=list)  # test, model, why

    def lines(self, manifest) -> list[str]:
        out = [f"blessed {manifest}: {len(self.changed)} changed, {len(self.added)} added"
               + (f", {len(self.skipped)} left as they were (no verdict)" if self.skipped else "")]
        out += [f"  {t} under {m}: {old} -> {new}" for t, m, old, new in self.changed]
        out += [f"  {t} under {m}: could not bless ({why})" for t, m, why in self.skipped]
        return out

    def as_dict(self, manifest) -> dict:
        """For the JSON report (``--bless --json``)."""
        return {"manifest": str(manifest),
                "changed": [{"test": t, "model": m, "old": old, "new": new} for t, m, old, new in self.changed],
                "added": [{"test": t, "model": m, "word": w} for t, m, w in self.added],
                "skipped": [{"test": t, "model": m, "why": why} for t, m, why in self.skipped]}


def yaml_key(text: str) -> str:
    """``text`` as a YAML scalar: plain when that reads back as the same string, else quoted."""
    import json

    if _PLAIN.fullmatch(text) and text.lower() not in _YAML_WORDS and not _looks_numeric(text):
        return text
    return json.dumps(text)


def _looks_numeric(text: str) -> bool:
    try:
        float(text)
        return True
    except ValueError:
        return False


def bless(run: SuiteRun) -> BlessReport:
    """Rewrite the run's manifest so that every cell that produced a verdict is expected to give it.

    The file keeps its line endings (``\r\n`` stays ``\r\n``). What cannot be edited
    in place safely is refused with its line and column and the file left as it was: an
    expectation shared through a YAML alias (editing it would change every test that
    uses it). A block scalar word (``sc: |``) is replaced by a plain word.
    """
    import yaml

    manifest = run.suite.manifest
    if manifest is None:
        raise ManifestError(f"suite '{run.suite.name}' has no manifest to bless",
                            hint=f"create {run.suite.root}/manifest.yaml with 'name' and 'tests'")
    text, root = compose_manifest(manifest)
    nl = "\r\n" if "\r\n" in text.split("\n", 1)[0] + "\n" else "\n"
    shared = _shared_nodes(root)
    expect_key = expect_node = None
    for k, v in root.value:
        if k.value == "expect":
            expect_key, expect_node = k, v
    entries = {}  # test key -> (key node, value node)
    if isinstance(expect_node, yaml.MappingNode):
        for k, v in expect_node.value:
            test = strip_test_suffix(k.value)
            entries[test] = (k, v)
    observation_style = _observation_style(run)
    report = BlessReport()
    edits: list[tuple[int, int, str]] = []
    new_entries: list[str] = []

    def edit_in(node, key, start: int, end: int, repl: str) -> None:
        if id(node) in shared:
            key = max(shared[id(node)] or [key], key=lambda k: k.start_mark.index)  # the alias comes last
            raise ManifestError(f"cannot bless: the expectations under '{key.value}' are shared with another "
                                "entry through a YAML alias (&anchor / *alias), and editing them would change "
                                "both; left unchanged", _pos(manifest, key),
                                hint="write that entry's expectations out in full, then bless again")
        edits.append((start, end, repl))

    for test in run.tests:
        additions = []
        entry = entries.get(test)
        existing = {k.value: (k, v) for k, v in entry[1].value} if entry else {}
        for col in run.columns:
            cell = run.cells.get((test, col))
            if cell is None:
                continue
            if cell.status != OK:
                report.skipped.append((test, col, cell.message.splitlines()[0] if cell.message else cell.status))
                continue
            if col in existing:
                key, node = existing[col]
                old = node.value
                word = _word_like(old, cell)
                if parse_word(old) != parse_word(word):
                    end = node.end_mark.index
                    if node.style in ("|", ">"):  # a block scalar ends after its line break(s)
                        word += nl
                    edit_in(node, key, node.start_mark.index, end, word)
                    report.changed.append((test, col, parse_word(old), parse_word(word)))
                continue
            other = run.expectation(test, col)
            if other is not None and other.origin != "manifest" and other.holds(cell.verdict, cell.observation):
                continue  # a herd .expected file or a Result: comment already says it
            word = cell.observation if observation_style else cell.verdict
            additions.append((col, word))
            report.added.append((test, col, word))
        if not additions:
            continue
        pairs = ", ".join(f"{yaml_key(c)}: {w}" for c, w in additions)
        if entry is None:
            new_entries.append(f"{yaml_key(test)}: {{{pairs}}}")
        elif entry[1].flow_style:
            last = entry[1].value[-1][1] if entry[1].value else None
            at = last.end_mark.index if last is not None else entry[1].end_mark.index - 1
            edit_in(entry[1], entry[0], at, at, (", " if last is not None else "") + pairs)
        else:
            indent = " " * entry[1].value[0][0].start_mark.column
            at = _line_end(text, entry[1].value[-1][1].end_mark.index)
            edit_in(entry[1], entry[0], at, at, "".join(f"{nl}{indent}{yaml_key(c)}: {w}" for c, w in additions))
    if new_entries:
        edits.append(_entries_edit(text, expect_key, expect_node, new_entries, nl))
    if not edits:
        return report
    # right to left, so that offsets stay true; of two edits at one place, the first listed ends first
    for _, (start, end, repl) in sorted(enumerate(edits), key=lambda ie: (ie[1][0], ie[1][1], ie[0]), reverse=True):
        text = text[:start] + repl + text[end:]
    _replace_checked(manifest, text, run, report)
    return report


def _pos(manifest, node):
    from ..core.errors import SourcePos

    return SourcePos(str(manifest), node.start_mark.line + 1, node.start_mark.column + 1)


def _shared_nodes(root) -> dict[int, list]:
    """The nodes reached twice in the tree (an anchor and its aliases are one node): id -> the
    mapping keys whose value it is."""
    import yaml

    keys: dict[int, list] = {}
    seen: set[int] = set()
    stack = [(root, None)]
    while stack:
        node, key = stack.pop()
        keys.setdefault(id(node), []).append(key)
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            stack += [(k, None) for k, _ in node.value] + [(v, k) for k, v in node.value]
        elif isinstance(node, yaml.SequenceNode):
            stack += [(n, key) for n in node.value]
    return {i: [k for k in ks if k is not None] for i, ks in keys.items() if len(ks) > 1}


def _replace_checked(manifest, text: str, run: SuiteRun, report: BlessReport) -> None:
    """Write ``text`` beside the manifest, check that it reads back as the manifest with exactly
    the blessed expectations changed, then put it in the manifest's place (bytes as given:
    no line-ending translation)."""
    import os
    import tempfile

    with writing(f"the blessed manifest next to {manifest}"):
        fd, name = tempfile.mkstemp(prefix=f".{manifest.name}.", suffix=".blessing", dir=manifest.parent)
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
    tmp = type(manifest)(name)
    try:
        blessed = load_manifest(tmp).expect  # the edited text must still be a valid manifest
        want = {key: e.word for key, e in run.suite.expect.items()}
        want.update({(test, col): parse_word(new) for test, col, _, new in report.changed})
        want.update({(test, col): parse_word(word) for test, col, word in report.added})
        got = {key: e.word for key, e in blessed.items()}
        if got != want:
            wrong = sorted(set(got.items()) ^ set(want.items()))[0]
            raise ManifestError(f"the edit would not read back as intended (at {wrong[0][0]} under {wrong[0][1]})")
    except ManifestError as err:
        tmp.unlink()
        raise ManifestError(f"blessing would break the manifest, left unchanged: {err.message}") from None
    os.chmod(tmp, os.stat(manifest).st_mode & 0o7777)
    tmp.replace(manifest)


def _entries_edit(text: str, key, node, entries: list[str], nl: str = "\n") -> tuple[int, int, str]:
    """Where and how to add new ``test: {...}`` entries under ``expect`` (``nl``: the file's line ending)."""
    import yaml

    if isinstance(node, yaml.MappingNode) and node.value and not node.flow_style:
        indent = " " * node.value[0][0].start_mark.column
        at = _line_end(text, node.value[-1][1].end_mark.index)
        return at, at, "".join(f"{nl}{indent}{e}" for e in entries)
    block = "".join(f"{nl}  {e}" for e in entries)
    if node is not None:  # `expect:` empty or `expect: {}`: replace the value by a block
        start = node.start_mark.index
        while start > 0 and text[start - 1] == " ":
            start -= 1
        return start, node.end_mark.index, block
    prefix = "" if text.endswith("\n") or not text else nl
    return len(text), len(text), f"{prefix}expect:{block}{nl}"


def _line_end(text: str, index: int) -> int:
    """The end of the line holding ``index``, before its ``\n`` or ``\r\n`` (a trailing
    comment stays on its line)."""
    if index > 0 and text[index - 1] == "\n":  # block scalars end after their line break
        end = index - 1
    else:
        end = text.find("\n", index)
        if end < 0:
            return len(text)
    return end - 1 if end > 0 and text[end - 1] == "\r" else end


def _word_like(old: str, cell) -> str:
    """The cell's result in the style of the word it replaces (A/F, Allowed/Forbidden, Never/...)."""
    full = parse_word(old)
    if full in OBSERVATIONS:
        return cell.observation
    return cell.verdict[0] if old.strip() in ("A", "F") else cell.verdict


def _observation_style(run: SuiteRun) -> bool:
    """New entries use observation words when the manifest's existing ones mostly do."""
    words = [e.word for e in run.suite.expect.values()]
    return sum(w in OBSERVATIONS for w in words) * 2 > len(words) > 0
