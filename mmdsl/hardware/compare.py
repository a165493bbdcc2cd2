"""A hardware run set beside models: litmus7-style text, JSON, and observed-but-forbidden states.

Each observed final state is looked up in each model's allowed set (the axiomatic
checker's final states over the same keys): one the model forbids is an error (the model,
or the test, or the harness is wrong); states the model allows and the run never showed
are counted (a note: too few iterations, or a model weaker than this CPU).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.condition import FinalState, observation_word
from ..core.program import Program
from .runner import Histogram


@dataclass
class ModelCheck:
    """One model's verdict on one hardware run."""

    model: str
    allowed: set[FinalState]
    forbidden_seen: dict[FinalState, int]  # observed, forbidden by the model -> count
    never_seen: int  # allowed by the model, never observed


@dataclass
class HwResult:
    """One test run on the host, and the models set beside it."""

    program: Program
    hist: Histogram
    checks: list[ModelCheck] = field(default_factory=list)

    @property
    def positive(self) -> int:
        prop = self.program.condition.prop
        return sum(c for s, c in self.hist.states.items() if prop.holds(s.as_dict()))

    @property
    def negative(self) -> int:
        return sum(self.hist.states.values()) - self.positive

    @property
    def ok(self) -> bool:
        return self.program.condition.validated(self.positive, self.negative)

    @property
    def observation(self) -> str:
        return observation_word(self.positive, self.negative)


def check_models(result: HwResult, models) -> None:
    """Set each (name, Model) beside the run: its allowed states from the axiomatic checker."""
    from ..axiomatic import check

    for name, model in models:
        allowed = set(check(result.program, model).states)
        seen = {s: c for s, c in result.hist.states.items() if s not in allowed}
        result.checks.append(ModelCheck(name, allowed, seen, len(allowed - set(result.hist.states))))


def harness_notes(hist: Histogram) -> list[str]:
    """What may bias this run: too few cores, threads not pinned, a full outcome table."""
    notes = []
    if hist.threads > hist.cpus:
        notes.append(f"biased: {hist.threads} threads on {hist.cpus} core(s) (oversubscribed; outcomes that need "
                     "the threads to run at once are rarer than on a machine with a core per thread)")
    if not hist.pinned:
        notes.append("threads not pinned to cores (sched_setaffinity refused)")
    if hist.overflow:
        notes.append(f"{hist.overflow} iteration(s) not counted: more distinct final states than the harness's table")
    return notes


def hw_text(result: HwResult) -> str:
    """litmus7's block: histogram, Ok/No, witnesses, condition, observation, time, parameters."""
    p, h = result.program, result.hist
    prop = p.condition.prop
    lines = [f"Test {p.name} {p.condition.kind_word}", f"Histogram ({len(h.states)} states)"]
    for state, count in sorted(h.states.items(), key=lambda sc: sc[0]):
        mark = "*>" if prop.holds(state.as_dict()) else ":>"
        lines.append(f"{count:<6}{mark}{state.text()}")
    lines.append("Ok" if result.ok else "No")
    lines += ["", "Witnesses", f"Positive: {result.positive}, Negative: {result.negative}"]
    verb = "validated" if result.ok else "not validated"
    lines.append(f"Condition {p.condition.text()} is {verb}")
    lines.append(f"Observation {p.name} {result.observation} {result.positive} {result.negative}")
    lines.append(f"Time {p.name} {h.time:.2f}")
    lines.append(f"Harness {h.backend}: {h.iterations} iterations ({h.runs} runs of {h.size}), {h.threads} threads "
                 f"on {h.cpus} core(s), {'pinned' if h.pinned else 'not pinned'}")
    lines += [f"Note: {n}" for n in harness_notes(h)]
    for c in result.checks:
        lines.append(f"Model {c.model}: {len(c.forbidden_seen)} observed state(s) forbidden, "
                     f"{c.never_seen} allowed state(s) never observed")
    return "\n".join(lines) + "\n"


def forbidden_lines(result: HwResult) -> list[str]:
    """One error line per observed state a model forbids."""
    out = []
    for c in result.checks:
        for state, count in sorted(c.forbidden_seen.items()):
            out.append(f"error: {result.program.name}: observed {state.text()} ({count} times) on this CPU, "
                       f"forbidden by {c.model}")
    return out


def hw_dict(result: HwResult) -> dict:
    """The JSON form of one run."""
    p, h = result.program, result.hist
    return {
        "test": p.name, "path": p.path, "condition": p.condition.text(),
        "states": [{"state": {_key(k): v for k, v in s}, "count": c, "witness": p.condition.prop.holds(s.as_dict())}
                   for s, c in sorted(h.states.items())],
        "ok": result.ok, "positive": result.positive, "negative": result.negative,
        "observation": result.observation, "time": h.time, "compile_time": h.compile_time,
        "harness": {"backend": h.backend, "iterations": h.iterations, "size": h.size, "runs": h.runs,
                    "threads": h.threads, "cpus": h.cpus, "pinned": h.pinned, "overflow": h.overflow,
                    "notes": harness_notes(h)},
        "models": {c.model: {"forbidden_observed": [{"state": s.text(), "count": n}
                                                    for s, n in sorted(c.forbidden_seen.items())],
                             "allowed_never_observed": c.never_seen} for c in result.checks},
    }


def _key(k) -> str:
    from ..core.condition import key_text

    return key_text(k)


def summary_lines(results: list[HwResult], models: list[str]) -> list[str]:
    """``MODEL: 0 forbidden outcomes observed over N runs`` per model, and the totals."""
    runs = sum(r.hist.iterations for r in results)
    out = []
    for m in models:
        bad = sum(sum(c.forbidden_seen.values()) for r in results for c in r.checks if c.model == m)
        states = sum(len(c.forbidden_seen) for r in results for c in r.checks if c.model == m)
        never = sum(c.never_seen for r in results for c in r.checks if c.model == m)
        out.append(f"{m}: {bad} forbidden outcomes observed over {runs} runs ({states} distinct states); "
                   f"{never} allowed states never observed")
    seen = sum(1 for r in results if r.positive)
    out.append(f"{len(results)} test(s) on this CPU: condition observed in {seen}")
    return out
