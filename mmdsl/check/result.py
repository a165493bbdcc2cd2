"""What `mmdsl check` answers, whichever machine explored the program: the verdict with its
trace, and where each thread of a deadlock waits."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Blocked:
    """Where one thread of a deadlock waits."""

    thread: str
    where: str  # file:line:col
    waits_for: str  # "mutex 'm' held by philo#2", "thread worker#1 to end" ...
    waits_on: str | None = None  # the thread it waits on (the mutex's holder, the joined thread)

    def as_json(self) -> dict:
        return {"thread": self.thread, "at": self.where, "waits_for": self.waits_for, "waits_on": self.waits_on}


@dataclass
class CheckResult:
    """``verdict``: "violation", "deadlock", "livelock" (a state from which no execution ends: threads
    spinning forever), "race" (an execution the model calls undefined), "safe" or "bounded" (safe up
    to the unroll bound)."""

    program: str
    model: str
    verdict: str
    unroll: int | None
    trace: list[str] = field(default_factory=list)  # the steps as text lines (step_text of ``steps``)
    steps: list[dict] = field(default_factory=list)  # the steps: thread, action, at (file:line:col), source
    failed: dict | None = None  # the failing assertion: at, text, thread
    values: dict = field(default_factory=dict)  # shared locations at the end of the failing execution
    blocked: list[Blocked] = field(default_factory=list)
    stats: dict = field(default_factory=dict)
    shortest: bool = True  # the trace is a shortest one (False: found by the depth-first probe)
    race: dict | None = None  # a data race: the model's check and the two accesses (graph_check)
    warnings: list[str] = field(default_factory=list)
    raw_steps: list = field(default_factory=list, repr=False)  # (explorer Step, its step dict), for diagrams

    @property
    def error(self) -> bool:
        return self.verdict in ("violation", "deadlock", "livelock", "race")

    def as_json(self) -> dict:
        return {"program": self.program, "model": self.model, "verdict": self.verdict, "unroll": self.unroll,
                "error": self.error, "assertion": self.failed, "trace": self.steps, "values": self.values,
                "blocked": [b.as_json() for b in self.blocked], "race": self.race, "warnings": self.warnings,
                "stats": self.stats}


def shared_values(values: dict) -> dict:
    """The program's shared locations in an end state's values (the handshake cells ``__*`` left out)."""
    return {k[1]: v for k, v in values.items() if k[0] == "mem" and not str(k[1]).startswith("__")}


def step_text(step: dict) -> str:
    """One trace step as a line: ``worker#1: perform W in_cs=1  [prog.c:20:5: in_cs = in_cs + 1;]``."""
    where = f"  [{step['at']}: {step['source']}]" if step["at"] and step["source"] else ""
    return f"{step['action']}{where}"


def waits_for(thread: str, ins, loc, values: dict, names: dict) -> Blocked:
    """Where ``thread`` waits at ``ins`` for location ``loc``: a join, a thread start, a mutex
    (with its holder, read from the lock's value) or any other value to change."""
    where = str(ins.pos)
    if isinstance(loc, str) and loc.startswith("__done"):
        other = names.get(int(loc[6:]), loc[6:])
        return Blocked(thread, where, f"thread {other} to end (pthread_join)", other)
    if isinstance(loc, str) and loc.startswith("__start"):
        return Blocked(thread, where, "to be created (pthread_create)", names.get(0, "main"))
    owner = values.get(("mem", loc))
    if isinstance(owner, int) and owner > 0 and "lock" in getattr(ins, "annots", ()):
        holder = names.get(owner - 1, f"thread {owner - 1}")
        return Blocked(thread, where, f"mutex '{loc}' held by {holder}", holder)
    return Blocked(thread, where, f"'{loc}' to change (now {owner})")
