"""herd's model options for a run: -variant, -skipcheck, -through (set by `mmdsl run`, read by the loaders).

``mmdsl run --variant V --skipcheck NAME --through all`` sets them in the environment (so
worker processes see them, as ``--cat-path`` does), and ``load_model`` reads them:

* variants: the names a cat model's ``if "V" ... else ... end`` tests (herd's ``-variant``);
* skipchecks: checks named ``as NAME`` that are not applied -- each holds (herd's
  ``-skipcheck NAME``; herd's interpreter makes such a check pass without evaluating it);
* through: ``all`` or ``invalid`` let every execution through the model's checks (herd's
  ``-through``: its interpreter makes each ``Check`` pass; flags are still computed);
  ``none`` is the default.

In a ``.mm`` model the checks are its axioms (the default ones too), by name.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace

from ..core.errors import ModelError
from .ir import Model

VARIANTS_ENV = "MMDSL_VARIANTS"
SKIPCHECKS_ENV = "MMDSL_SKIPCHECKS"
THROUGH_ENV = "MMDSL_THROUGH"
THROUGH = ("none", "all", "invalid")
SHOW_MODES = ("none", "prop", "neg", "cond", "wit", "all")  # herd's -show, for -o (render.herd_dot_out)


@dataclass(frozen=True)
class HerdOptions:
    variants: frozenset = frozenset()
    skipchecks: frozenset = frozenset()
    through: str = "none"

    def key(self) -> str:
        """A text that tells these options apart (for caches of loaded models)."""
        return f"{sorted(self.variants)}|{sorted(self.skipchecks)}|{self.through}"

    def lets_through(self) -> bool:
        return self.through != "none"


def split_names(values) -> list[str]:
    """herd's comma-separated lists (``-variant a,b``), given once or repeated."""
    return [w for v in values for w in str(v).split(",") if w]


def check_through(value: str) -> str:
    if value not in THROUGH:
        raise ModelError(f"unknown -through '{value}'", expected=", ".join(THROUGH))
    return value


def set_options(variants=(), skipchecks=(), through: str = "none") -> None:
    """Make these the options of the models loaded from now on (worker processes inherit them)."""
    for name, value in ((VARIANTS_ENV, ",".join(split_names(variants))),
                        (SKIPCHECKS_ENV, ",".join(split_names(skipchecks))),
                        (THROUGH_ENV, "" if through == "none" else check_through(through))):
        if value:
            os.environ[name] = value
        else:
            os.environ.pop(name, None)


def current() -> HerdOptions:
    """The options in force (none unless `mmdsl run` set some)."""
    return HerdOptions(frozenset(split_names([os.environ.get(VARIANTS_ENV, "")])),
                       frozenset(split_names([os.environ.get(SKIPCHECKS_ENV, "")])),
                       check_through(os.environ.get(THROUGH_ENV) or "none"))


def skips(options: HerdOptions, check_name: str | None) -> bool:
    """Whether a check (its name, None when it has none) is not applied under ``options``."""
    return options.lets_through() or (check_name is not None and check_name in options.skipchecks)


def without_skipped(model: Model, options: HerdOptions) -> Model:
    """A .mm model with the axioms the options skip left out (the model itself when none is)."""
    kept = [a for a in model.axioms if not skips(options, a.name)]
    if len(kept) == len(model.axioms):
        return model
    return replace(model, axioms=kept, derived={})
