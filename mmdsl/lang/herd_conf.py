"""herd's configuration files (``-conf FILE``): ``key value`` lines, read into `mmdsl run`'s options.

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

from dataclasses import dataclass, field
from pathlib import Path

from ..core.errors import ModelError, SourcePos, UnsupportedError
from ..core.files import read_input
from .herd_options import SHOW_MODES, THROUGH

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
