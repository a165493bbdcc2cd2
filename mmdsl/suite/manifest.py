"""Suite manifests (``manifest.yaml``): read, validate with file:line:col errors, resolve tests and models."""

from __future__ import annotations

import fnmatch
import glob as globlib
import os
import re
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..core.errors import SourcePos
from ..core.files import read_input
from ..core.resources import resolve_bundled
from ..litmus.registry import PROGRAM_SUFFIXES  # .litmus, and Memorax's .rmm
from .expectations import Expectation, ManifestError, parse_word, read_expected_file

MANIFEST_NAMES = ("manifest.yaml", "manifest.yml")
ENGINES = ("axiomatic", "explorer", "both")
TOP_KEYS = ("name", "description", "models", "engine", "tests", "expect")


def strip_test_suffix(text: str) -> str:
    """A test's key from its file name: without `.litmus` or `.rmm`."""
    for suffix in PROGRAM_SUFFIXES:
        if text.endswith(suffix):
            return text[: -len(suffix)]
    return text


@dataclass(frozen=True)
class ModelRef:
    """A model column of a suite: the name shown and matched in expectations, and what to load."""

    column: str
    source: str  # a bundled model name, or the absolute path of a .mm file

    def __str__(self) -> str:
        """``tso``, ``tso=pso`` or ``mine=models/mine.mm`` (a path relative to the working folder)."""
        if self.column == self.source:
            return self.column
        source = self.source
        if source.endswith(".mm"):
            import os

            rel = os.path.relpath(source)
            source = rel if not rel.startswith("..") else source
            if Path(source).stem == self.column:
                return source
        return f"{self.column}={source}"


@dataclass(frozen=True)
class TestEntry:
    key: str  # path relative to the suite folder, without .litmus
    path: Path


@dataclass
class Suite:
    """A suite: its tests, its model columns and what each (test, model) is expected to give."""

    name: str
    root: Path
    tests: list[TestEntry]
    models: list[ModelRef]
    engine: str = "axiomatic"
    description: str = ""
    manifest: Path | None = None
    expect: dict[tuple[str, str], Expectation] = field(default_factory=dict)
    # herd `.expected` files: per test, for the first model (key, None) or a named model (key, model)
    expected_files: dict[tuple[str, str | None], Expectation] = field(default_factory=dict)

    def expectation(self, test: str, column: str, default_column: str | None) -> Expectation | None:
        """The manifest's expectation, else a `.litmus.MODEL.expected`, else a `.litmus.expected`
        file (which speaks for the suite's first model)."""
        found = self.expect.get((test, column)) or self.expected_files.get((test, column))
        if found is None and column == default_column:
            found = self.expected_files.get((test, None))
        return found

    @property
    def keys(self) -> list[str]:
        return [t.key for t in self.tests]


# ----- entry point ---------------------------------------------------------------
def load_suite(target: str | Path) -> Suite:
    """A suite from a manifest file, a folder holding ``manifest.yaml``, or a bare folder of tests."""
    p = resolve_bundled(target, "litmus")
    if p.is_dir():
        for name in MANIFEST_NAMES:
            if (p / name).is_file():
                return load_manifest(p / name)
        return folder_suite(p)
    if p.is_file():
        return load_manifest(p)
    raise ManifestError(f"no suite at '{target}': not a manifest file nor a folder",
                        expected="a folder of litmus tests or a manifest.yaml")


def load_suite_within(target: str | Path, seconds: float | None) -> Suite:
    """``load_suite`` within a run's ``--timeout``: reading a manifest (its globs, every file they
    match) counts against the limit like the work that follows."""
    from ..core.limits import within

    with within(seconds, f"loading the suite '{target}'"):
        return load_suite(target)


def folder_suite(folder: Path) -> Suite:
    """Every litmus test under a folder without a manifest: no models, no manifest expectations."""
    paths = sorted(q for q in folder.rglob("*") if q.suffix in PROGRAM_SUFFIXES and q.is_file())
    if not paths:
        raise ManifestError(f"no litmus tests (*.litmus) under '{folder}'")
    tests = [TestEntry(_key(q, folder), q) for q in paths]
    suite = Suite(name=folder.resolve().name, root=folder, tests=tests, models=[])
    suite.expected_files = _expected_files(tests)
    return suite


def load_manifest(path: str | Path) -> Suite:
    """Read and validate a manifest; every problem is a ManifestError with file:line:col."""
    path = Path(path)
    return _Reader(path, read_input(path, "manifest", ManifestError)).suite()


def select_tests(suite: Suite, patterns: list[str]) -> Suite:
    """The suite with only the tests whose key matches one of ``patterns`` (``*`` and ``?`` stay
    within one path component, ``**`` crosses them: ``'*'`` is the top folder, ``'lisa/*'``,
    ``'**/SB*'``)."""
    if not patterns:
        return suite
    # a key has no suffix; `-t SB.litmus` (as a shell completes it) means `SB`, as in `expect`
    regexes = [re.compile(_key_pattern(strip_test_suffix(p))) for p in patterns]
    for pat, rx in zip(patterns, regexes):
        if not any(rx.fullmatch(t.key) for t in suite.tests):
            raise ManifestError(f"no test of suite '{suite.name}' matches '{pat}'",
                                hint="patterns match test keys: paths relative to the suite, without .litmus")
    kept = [t for t in suite.tests if any(rx.fullmatch(t.key) for rx in regexes)]
    return replace(suite, tests=kept)


def _key_pattern(pattern: str) -> str:
    out = []
    i = 0
    while i < len(pattern):
        if pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return "".join(out)


def compose_manifest(path: Path) -> tuple[str, object]:
    """The text of a manifest as it is on disk (line endings kept: ``\r\n`` stays) and its
    YAML node tree with exact character offsets into that text."""
    try:
        with open(path, encoding="utf-8", newline="") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as err:
        raise ManifestError(f"cannot read manifest: {getattr(err, 'strerror', None) or err}",
                            SourcePos(str(path), 1, 1)) from None
    return text, _Reader(Path(path), text).compose(exact_offsets=True)


def resolve_model(spec: str, base: Path, pos: SourcePos | None = None) -> ModelRef:
    """``NAME`` (bundled), ``PATH.mm`` (relative to ``base``) or ``COLUMN=NAME_OR_PATH``."""
    from ..lang.library import bundled_model_paths, models_dir

    column, _, source = spec.rpartition("=")
    source = source.strip()
    if source.endswith(".mm") or "/" in source or "\\" in source:
        p = Path(source)
        p = p if p.is_absolute() else base / p
        if not p.is_file():
            raise ManifestError(f"model file '{source}' not found (looked for {p})", pos)
        return ModelRef(column.strip() or p.stem, str(p.resolve()))
    if not (models_dir() / f"{source}.mm").is_file():
        known = ", ".join(q.stem for q in bundled_model_paths())
        raise ManifestError(f"unknown model '{source}'", pos,
                            hint=f"bundled models: {known}; or a path to a .mm file")
    return ModelRef(column.strip() or source, source)


# ----- the reader ------------------------------------------------------------------
class _Reader:
    """Walks the YAML node tree (not the loaded data) so that every error has a mark."""

    def __init__(self, path: Path, text: str):
        self.path = path
        self.text = text
        self.root = path.parent

    def pos(self, node) -> SourcePos:
        mark = node.start_mark
        return SourcePos(str(self.path), mark.line + 1, mark.column + 1)

    def fail(self, node, message: str, **kw):
        raise ManifestError(message, self.pos(node) if node is not None else SourcePos(str(self.path), 1, 1), **kw)

    def compose(self, exact_offsets: bool = False):
        """The node tree; libyaml's loader is used for speed unless character offsets
        (``mark.index``, used to edit the text) must be exact."""
        import yaml

        loader = yaml.SafeLoader if exact_offsets else getattr(yaml, "CSafeLoader", yaml.SafeLoader)
        try:
            return yaml.compose(self.text, Loader=loader)
        except yaml.MarkedYAMLError as err:
            mark = err.problem_mark or err.context_mark
            where = SourcePos(str(self.path), mark.line + 1, mark.column + 1) if mark else None
            raise ManifestError(f"not valid YAML: {err.problem or err.context}", where) from None
        except yaml.YAMLError as err:
            raise ManifestError(f"not valid YAML: {err}", SourcePos(str(self.path), 1, 1)) from None

    def mapping(self, node, what: str) -> list[tuple[object, object]]:
        """The (key node, value node) pairs of a mapping node; keys are unique scalars."""
        import yaml

        if not isinstance(node, yaml.MappingNode):
            self.fail(node, f"{what} must be a mapping ('key: value' lines)")
        seen: dict[str, object] = {}
        for k, _ in node.value:
            if not isinstance(k, yaml.ScalarNode):
                self.fail(k, f"a key of {what} must be a plain string")
            if k.value in seen:
                first = self.pos(seen[k.value])
                self.fail(k, f"'{k.value}' appears twice in {what} (first at line {first.line})")
            seen[k.value] = k
        return node.value

    def scalar(self, node, what: str) -> str:
        import yaml

        if not isinstance(node, yaml.ScalarNode):
            self.fail(node, f"{what} must be a single value, not a list or mapping")
        return node.value

    def scalars(self, node, what: str) -> list[tuple[str, object]]:
        """A scalar or a list of scalars, each with its node."""
        import yaml

        if isinstance(node, yaml.SequenceNode):
            return [(self.scalar(n, f"each item of {what}"), n) for n in node.value]
        return [(self.scalar(node, what), node)]

    def suite(self) -> Suite:
        root = self.compose()
        if root is None:
            self.fail(None, "the manifest is empty", expected="at least 'name' and 'tests'")
        fields = {}
        for k, v in self.mapping(root, "the manifest"):
            if k.value not in TOP_KEYS:
                self.fail(k, f"unknown key '{k.value}'", expected="one of " + ", ".join(TOP_KEYS))
            fields[k.value] = (k, v)
        for required in ("name", "tests"):
            if required not in fields:
                self.fail(root, f"the manifest has no '{required}'")
        name = self.scalar(fields["name"][1], "'name'")
        description = self.scalar(fields["description"][1], "'description'") if "description" in fields else ""
        engine = "axiomatic"
        if "engine" in fields:
            node = fields["engine"][1]
            engine = self.scalar(node, "'engine'")
            if engine not in ENGINES:
                self.fail(node, f"unknown engine '{engine}'", expected=", ".join(ENGINES))
        models = []
        if "models" in fields:
            for spec, node in self.scalars(fields["models"][1], "'models'"):
                ref = resolve_model(spec, self.root, self.pos(node))
                if any(m.column == ref.column for m in models):
                    self.fail(node, f"model column '{ref.column}' is named twice")
                models.append(ref)
        tests = self.tests(fields["tests"][1])
        suite = Suite(name=name, root=self.root, tests=tests, models=models, engine=engine,
                      description=description.strip(), manifest=self.path)
        if "expect" in fields:
            suite.expect = self.expectations(fields["expect"][1], suite)
        suite.expected_files = _expected_files(tests)
        return suite

    def tests(self, node) -> list[TestEntry]:
        out: dict[str, TestEntry] = {}
        seen: set[str] = set()
        for pattern, item in self.scalars(node, "'tests'"):
            if pattern in seen:  # a repeated entry names the same files again: one look is enough
                continue
            seen.add(pattern)
            if globlib.has_magic(pattern):
                escape = _glob_escape(pattern)
                if escape:
                    self.fail(item, f"the glob '{pattern}' {escape}",
                              expected="a glob relative to the manifest's folder, without '..'",
                              hint="a glob matches only inside the suite's folder; name a test elsewhere "
                                   "without wildcards ('../programs/rowo.litmus')")
            else:
                literal = Path(pattern) if Path(pattern).is_absolute() else self.root / pattern
                if literal.exists() and not literal.is_file():
                    self.fail(item, f"'{pattern}' is not a regular file", expected="a .litmus file")
            matches = _glob(self.root, pattern)
            if not matches:
                if globlib.has_magic(pattern):
                    self.fail(item, f"the glob '{pattern}' matches no file under {self.root}")
                self.fail(item, f"test file '{pattern}' not found under {self.root}")
            for p in matches:
                if p.suffix not in PROGRAM_SUFFIXES:
                    if globlib.has_magic(pattern):
                        continue  # a glob may sweep up .expected files and the like
                    self.fail(item, f"'{pattern}' is not a litmus file", expected="a .litmus file")
                key = _key(p, self.root)
                if key in out and out[key].path.resolve() != p.resolve():
                    self.fail(item, f"two tests would both be called '{key}' ({out[key].path} and {p})",
                              hint="tests outside the manifest's folder are keyed by file name alone")
                out.setdefault(key, TestEntry(key, p))
        if not out:
            self.fail(node, "the test globs match no .litmus file")
        return list(out.values())

    def expectations(self, node, suite: Suite) -> dict[tuple[str, str], Expectation]:
        import yaml

        out: dict[tuple[str, str], Expectation] = {}
        if isinstance(node, yaml.ScalarNode) and node.value in ("", "~", "null"):
            return out  # `expect:` with nothing under it
        keys = set(suite.keys)
        columns = [m.column for m in suite.models]
        named: dict[str, object] = {}  # test key -> the key node that named it first
        for k, v in self.mapping(node, "'expect'"):
            test = strip_test_suffix(k.value)
            if test in named:  # `SB` and `SB.litmus` are one test
                first = named[test]
                self.fail(k, f"'{k.value}' and '{first.value}' (line {self.pos(first).line}) name the same test "
                             f"'{test}' in 'expect'", hint="keep one of them")
            named[test] = k
            if test not in keys:
                self.fail(k, f"expectation for '{k.value}', which is not in the suite",
                          hint="keys are test paths relative to the manifest's folder, without .litmus; "
                               "is the test matched by 'tests'?")
            pairs = self.mapping(v, f"the expectations of '{test}'")
            reason = None
            for mk, mv in pairs:
                if mk.value == "reason":
                    reason = self.scalar(mv, "'reason'")
            for mk, mv in pairs:
                if mk.value == "reason":
                    continue
                if columns and mk.value not in columns:
                    self.fail(mk, f"expectation for model '{mk.value}', which the suite does not run",
                              hint="models of the suite: " + ", ".join(columns))
                if not columns:
                    resolve_model(mk.value, self.root, self.pos(mk))
                word = self.scalar(mv, f"the expectation of '{test}' under '{mk.value}'")
                try:
                    word = parse_word(word)
                except ValueError as err:
                    self.fail(mv, str(err), expected="Allowed, Forbidden, A, F, Never, Sometimes or Always")
                out[(test, mk.value)] = Expectation(word, reason, "manifest", self.pos(mv))
        return out


# ----- files ------------------------------------------------------------------
def _glob_escape(pattern: str) -> str | None:
    """Why the glob ``pattern`` would look outside the suite's folder, or None."""
    if Path(pattern).is_absolute():
        return "is absolute"
    if ".." in re.split(r"[/\\]", pattern):
        return "leaves the suite's folder ('..')"
    return None


def _glob(root: Path, pattern: str) -> list[Path]:
    """The files a ``tests`` entry names: itself without wildcards, else the glob's matches.

    A glob is matched one path component at a time, under ``root`` only (``_glob_escape``
    refuses the rest); ``*``, ``?`` and ``[...]`` stay in one component and skip hidden
    names as ``glob`` does; ``**`` is any number of folders, and never goes through a
    symbolic link to a folder, so that a link loop cannot make it run forever.
    """
    if not globlib.has_magic(pattern):
        p = Path(pattern) if Path(pattern).is_absolute() else root / pattern
        return [p] if p.is_file() else []
    parts = [part for part in re.split(r"[/\\]", pattern) if part not in ("", ".")]
    states = [(root, 0)]
    found: set[Path] = set()
    while states:
        folder, i = states.pop()
        part = parts[i]
        last = i + 1 == len(parts)
        if part == "**":
            for sub in _folders_under(folder):
                if last:
                    found.update(q for q in _entries(sub, "*") if q.is_file())
                else:
                    states.append((sub, i + 1))
            continue
        if globlib.has_magic(part):
            children = _entries(folder, part)
        else:
            children = [folder / part]
        for child in children:
            if last:
                if child.is_file():
                    found.add(child)
            elif child.is_dir():
                states.append((child, i + 1))
    return sorted(found, key=lambda q: str(q))


def _entries(folder: Path, part: str) -> list[Path]:
    """The entries of ``folder`` whose name matches the one-component wildcard ``part``."""
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    hidden_ok = part.startswith(".")
    return [folder / n for n in names if (hidden_ok or not n.startswith(".")) and fnmatch.fnmatchcase(n, part)]


def _folders_under(folder: Path) -> list[Path]:
    """``folder`` and every folder below it that is not hidden, without following links."""
    out = []
    for dirpath, dirnames, _ in os.walk(folder, followlinks=False):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        out.append(Path(dirpath))
    return out


def _key(path: Path, root: Path) -> str:
    try:
        rel = path.resolve().relative_to(root.resolve())
    except ValueError:
        rel = Path(path.name)
    text = rel.as_posix()
    return strip_test_suffix(text)


def _expected_files(tests: list[TestEntry]) -> dict[tuple[str, str | None], Expectation]:
    """herd outputs next to the tests: ``T.litmus.expected`` and ``T.litmus.MODEL.expected``."""
    by_folder: dict[Path, set[str]] = {}
    out: dict[tuple[str, str | None], Expectation] = {}
    for t in tests:
        folder = t.path.parent
        if folder not in by_folder:
            by_folder[folder] = {q.name for q in folder.glob("*.expected")}
        names = by_folder[folder]
        for name in names:
            rest = name[len(t.path.name):] if name.startswith(t.path.name + ".") else ""
            model = rest[1: -len(".expected")]  # "" for T.litmus.expected, "tso" for T.litmus.tso.expected
            if rest and "." not in model:
                out[(t.key, model or None)] = read_expected_file(folder / name)
    return out
