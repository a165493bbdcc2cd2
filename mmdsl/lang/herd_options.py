"""herd's run options -variant, -skipcheck, -through (set by `mmdsl run`, read by the loaders) and its -conf files.

``mmdsl run --variant V --skipcheck NAME --through all`` sets them in the environment (so
worker processes see them, as ``--cat-path`` does), and ``load_model`` reads them:

* variants: the names a cat model's ``if "V" ... else ... end`` tests (herd's ``-variant``);
* skipchecks: checks named ``as NAME`` that are not applied -- each holds (herd's
  ``-skipcheck NAME``; herd's interpreter makes such a check pass without evaluating it);
* through: ``all`` or ``invalid`` let every execution through the model's checks (herd's
  ``-through``: its interpreter makes each ``Check`` pass; flags are still computed);
  ``none`` is the default.

In a ``.mm`` model the checks are its axioms (the default ones too), by name.

herd's configuration files (``-conf FILE``, ``read_conf``): ``key value`` lines, read into
`mmdsl run`'s options.

A line is a key, blanks, and the rest of the line as its value; ``#`` starts a comment
line; blank lines are skipped (herd's ``lexConf_herd.mll``). What mmdsl does with each key:

* ``model`` / ``cat``: the model (``-m``), a path searched in the file's folder, then as
  given, then in the ``include`` folders; ``bell``: must be the model's own ``M.bell``
  (mmdsl reads the bell beside ``M.cat``), any other bell is refused;
* ``include``: a folder for included cat files (``-I``, ``--cat-path``);
* ``variant``, ``skipchecks``, ``through``, ``show``, ``timeout``: as the options of the
  same names (``variant`` and ``skipchecks`` take comma-separated lists);
* ``conf`` / ``local-conf``: another configuration file, read where the key stands
  (``local-conf`` relative to this file's folder);
* the figure-layout keys (``graph``, ``showevents``, ``fontsize``, ``edgeattr`` ...): read
  and left alone -- mmdsl's drawings keep their own layout;
* any other key herd knows is refused by name; a key herd does not know is an error.
Every error names the file, line and column.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..core.errors import ModelError, SourcePos, UnsupportedError
from ..core.files import read_input
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

MAX_CONF_DEPTH = 8
LAYOUT_KEYS = frozenset((
    "showevents graph mono fontname fontsize edgefontsizedelta penwidth arrowsize splines overlap sep margin "
    "pad scale xscale yscale dsiy siwidth boxscale ptscale squished showpo relabel withbox labelbox "
    "showfinalrf showinitrf finalrfpos initrfpos oneinit labelinit initpos threadposy showinitwrites "
    "showthread showlegend brackets showobserved movelabel fixedsize extrachars dotheader doshow unshow "
    "noid symetric classes showraw edgeattr shift edgemerge showkind shortlegend texmacros hexa dotmode "
    "dotcom view verbose debug suffix").split())
HERD_ONLY_KEYS = frozenset((
    "names oknames excl nonames rename kinds conds macros machsize endian strictskip unroll optace "
    "archcheck initwrites speedcheck badexecs badflag dumpallfaults showflag nshow restrict "
    "outcomereads").split())


@dataclass
class HerdConf:
    """The options a configuration file gives (each None or empty when it gives none)."""

    models: list[str] = field(default_factory=list)
    cat_path: list[str] = field(default_factory=list)
    variants: list[str] = field(default_factory=list)
    skipchecks: list[str] = field(default_factory=list)
    through: str | None = None
    show: str | None = None
    timeout: float | None = None
    bells: list[tuple[str, SourcePos]] = field(default_factory=list)


def read_conf(path: str | Path, conf: HerdConf | None = None, depth: int = 0) -> HerdConf:
    """The options of the configuration file ``path`` (added to ``conf`` when given)."""
    conf = conf if conf is not None else HerdConf()
    path = Path(path)
    text = read_input(path, "herd configuration file", ModelError)
    for lineno, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        col = len(line) - len(line.lstrip()) + 1
        parts = stripped.split(None, 1)
        key, value = parts[0], (parts[1].strip() if len(parts) > 1 else "")
        _apply(conf, key, value, path, SourcePos(str(path), lineno, col), depth)
    for bell, pos in conf.bells:
        if not any(Path(m).with_suffix(".bell").name == Path(bell).name for m in conf.models):
            raise UnsupportedError(f"bell '{bell}' other than the model's own is not supported by mmdsl", pos,
                                   hint="mmdsl reads M.bell from beside M.cat")
    return conf


def _apply(conf: HerdConf, key: str, value: str, path: Path, pos: SourcePos, depth: int) -> None:
    here = path.parent
    if not value and key not in LAYOUT_KEYS:
        raise ModelError(f"key '{key}' without a value", pos, expected=f"{key} VALUE")
    if key == "through" and value not in THROUGH or key == "show" and value not in SHOW_MODES:
        choices = THROUGH if key == "through" else SHOW_MODES
        raise ModelError(f"unknown {key} '{value}'", pos, expected=", ".join(choices))
    if key in ("model", "cat"):
        conf.models.append(_locate(value, here, conf.cat_path))
    elif key == "bell":
        conf.bells.append((value, pos))
    elif key == "include":
        conf.cat_path.append(str(here / value) if (here / value).is_dir() else value)
    elif key == "variant":
        conf.variants += [v for v in value.split(",") if v]
    elif key == "skipchecks":
        conf.skipchecks += [v for v in value.split(",") if v]
    elif key == "through":
        conf.through = value
    elif key == "show":
        conf.show = value
    elif key == "timeout":
        try:
            conf.timeout = float(value)
        except ValueError:
            raise ModelError(f"timeout expects a number of seconds, not '{value}'", pos) from None
    elif key in ("conf", "local-conf"):
        if depth >= MAX_CONF_DEPTH:
            raise ModelError(f"configuration files nested more than {MAX_CONF_DEPTH} deep", pos)
        target = here / value if key == "local-conf" else Path(_locate(value, here, conf.cat_path))
        read_conf(target, conf, depth + 1)
    elif key in HERD_ONLY_KEYS:
        raise UnsupportedError(f"herd's configuration key '{key}' is not supported by mmdsl", pos,
                               hint="docs/cli.md lists the keys mmdsl reads")
    elif key not in LAYOUT_KEYS:
        raise ModelError(f"unknown key '{key}' in a herd configuration file", pos,
                         expected="model, include, variant, skipchecks, through, show, timeout, conf, ...")


def _locate(name: str, here: Path, dirs: list[str]) -> str:
    """A file named in a configuration file: in its folder, as given, or in the include folders."""
    for candidate in (here / name, Path(name), *(Path(d) / name for d in dirs)):
        if candidate.is_file():
            return str(candidate)
    return name
