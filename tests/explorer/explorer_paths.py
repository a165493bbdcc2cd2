"""Where the explorer tests find the repository's test files and its copies of the reference corpora."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parent / "data"
REFERENCE = ROOT / "tests" / "reference"  # the repository's copies (tests/reference/README.md)
X86_CORPUS = ROOT / "litmus" / "x86" / "tests"  # the bundled copy of the public x86 corpus
SEED_PROGRAMS = REFERENCE / "seed-programs.md"

# every model both engines run: the bundled table models
MODELS = ("sc", "tso", "pso", "rmo", "dotnet", "relaxed")


def classic_tests() -> list[Path]:
    """The bundled classic shapes in every dialect (X86, LISA, C): all loop-free."""
    base = ROOT / "litmus" / "classic"
    return sorted(base.glob("*.litmus")) + sorted(base.glob("lisa/*.litmus")) + sorted(base.glob("c/*.litmus"))


def data_tests() -> list[Path]:
    """Hand-written tests with dependencies, branches, RMWs, CAS and locks."""
    return sorted(DATA.glob("*.litmus"))


def corpus_tests() -> list[Path]:
    return sorted(X86_CORPUS.glob("**/*.litmus"))


def path_id(path: Path) -> str:
    for base in (ROOT / "litmus", DATA, X86_CORPUS):
        try:
            return str(path.relative_to(base))
        except ValueError:
            continue
    return path.name
