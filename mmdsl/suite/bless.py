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
from .manifest import LITMUS_SUFFIX, ManifestError, compose_manifest, load_manifest
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
    """Rewrite the run's manifest so that every cell that produced a verdict is expected to give it."""
    import yaml

    manifest = run.suite.manifest
    if manifest is None:
        raise ManifestError(f"suite '{run.suite.name}' has no manifest to bless",
                            hint=f"create {run.suite.root}/manifest.yaml with 'name' and 'tests'")
    text, root = compose_manifest(manifest)
    expect_key = expect_node = None
    for k, v in root.value:
        if k.value == "expect":
            expect_key, expect_node = k, v
    entries = {}  # test key -> (key node, value node)
    if isinstance(expect_node, yaml.MappingNode):
        for k, v in expect_node.value:
            test = k.value[: -len(LITMUS_SUFFIX)] if k.value.endswith(LITMUS_SUFFIX) else k.value
            entries[test] = (k, v)
    observation_style = _observation_style(run)
    report = BlessReport()
    edits: list[tuple[int, int, str]] = []
    new_entries: list[str] = []
    for test in run.tests:
        additions = []
        entry = entries.get(test)
        existing = {k.value: v for k, v in entry[1].value} if entry else {}
        for col in run.columns:
            cell = run.cells.get((test, col))
            if cell is None:
                continue
            if cell.status != OK:
                report.skipped.append((test, col, cell.message.splitlines()[0] if cell.message else cell.status))
                continue
            node = existing.get(col)
            if node is not None:
                old = node.value
                word = _word_like(old, cell)
                if parse_word(old) != parse_word(word):
                    edits.append((node.start_mark.index, node.end_mark.index, word))
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
            edits.append((at, at, (", " if last is not None else "") + pairs))
        else:
            indent = " " * entry[1].value[0][0].start_mark.column
            at = _line_end(text, entry[1].value[-1][1].end_mark.index)
            edits.append((at, at, "".join(f"\n{indent}{yaml_key(c)}: {w}" for c, w in additions)))
    if new_entries:
        edits.append(_entries_edit(text, expect_key, expect_node, new_entries))
    if not edits:
        return report
    for start, end, repl in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        text = text[:start] + repl + text[end:]
    tmp = manifest.with_name(manifest.name + ".blessing")
    with writing(f"the blessed manifest next to {manifest}"):
        tmp.write_text(text)
    try:
        load_manifest(tmp)  # the edited text must still be a valid manifest (names resolve the same)
    except ManifestError as err:
        tmp.unlink()
        raise ManifestError(f"blessing would break the manifest, left unchanged: {err.message}") from None
    tmp.replace(manifest)
    return report


def _entries_edit(text: str, key, node, entries: list[str]) -> tuple[int, int, str]:
    """Where and how to add new ``test: {...}`` entries under ``expect``."""
    import yaml

    if isinstance(node, yaml.MappingNode) and node.value and not node.flow_style:
        indent = " " * node.value[0][0].start_mark.column
        at = _line_end(text, node.value[-1][1].end_mark.index)
        return at, at, "".join(f"\n{indent}{e}" for e in entries)
    block = "".join(f"\n  {e}" for e in entries)
    if node is not None:  # `expect:` empty or `expect: {}`: replace the value by a block
        start = node.start_mark.index
        while start > 0 and text[start - 1] == " ":
            start -= 1
        return start, node.end_mark.index, block
    prefix = "" if text.endswith("\n") or not text else "\n"
    return len(text), len(text), f"{prefix}expect:{block}\n"


def _line_end(text: str, index: int) -> int:
    """The end of the line holding ``index`` (a trailing comment stays on its line)."""
    if index > 0 and text[index - 1] == "\n":  # block scalars end after their newline
        return index - 1
    nl = text.find("\n", index)
    return len(text) if nl < 0 else nl


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
