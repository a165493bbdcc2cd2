"""Counts how many of herd's stock .cat models mmdsl loads, and what stops each of the others.

    python bench/count_stock_cats.py [HERD_CATS_DIR] [--herd HERD7] [--csv OUT]
                                                        (default ../shared/reference/herd-cats)

Prints one line per model that does not load (its first error, at its file:line:col), then
the count docs/cat.md quotes. With ``--herd``, each model is also run through herd7 on the
first test of each bundled set (x86, classic, aarch64, ppc, arm, riscv, c11, linux; the
stock folder as herd's library, linux-kernel.def's macros on the Linux tests): each
refusal line then says whether herd7 refuses the model too (on every set, with its first
message) or on which sets herd7 runs it -- with the folder as herd's library, and with
herd7's own library (the files of herd7's version, which may differ: herd7 7.58 with the
7.58+1 folder refuses aarch64.cat, "unbound var: ADDR") -- and ``--csv OUT`` writes that
for every model (tests/axiomatic/data/stock-cats/stock-cat-loads.csv was made so).

Loading is lowering the model (with stdlib.cat and its includes, the folder itself as the
cat path, and M.bell when one is beside M.cat); it says nothing of agreement with herd.

Measured (herd 7.58's library with the Linux-kernel model, 89 files): 48 when the loader
landed, 61 with the AArch64 and C built-ins, 62 with linux-kernel.cat, 67 with
linearisations, 73 with the models that compute co themselves, 74 with herd's si, 75 with pco (2026-11-26);
75 with a statement's `let ... in` (deps-instances.cat) and the register names read by the
model's `catdep` option (aarch64hwreqs.cat alone declares none and is refused) (2026-11-28);
76 with lock.cat on its own (a model naming herd's spinlock sets reads them the kernel way;
`with x from S` over sets of relations in general) (2026-11-28); 77 with herd's register relations
as the terms of an acyclic union (asl-pseudo-arch.cat; lang/cat_registers.py) (2026-11-28).
"""

from __future__ import annotations

import argparse
import csv
import subprocess
import sys
from pathlib import Path

from mmdsl.core.errors import MmdslError
from mmdsl.lang.cat_lower import lower_cat_file

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ROOT.parent / "shared" / "reference" / "herd-cats"
sys.path.insert(0, str(Path(__file__).resolve().parent))


def count(folder: Path) -> tuple[list[str], dict[str, str]]:
    """(models that load, {model: first error}) over the folder's .cat files."""
    loaded, refused = [], {}
    for path in sorted(folder.glob("*.cat")):
        try:
            lower_cat_file(path, [folder])
            loaded.append(path.name)
        except MmdslError as err:
            where = f"{Path(err.pos.file).name}:{err.pos.line}:{err.pos.col}" if err.pos and err.pos.file else "?"
            refused[path.name] = f"{where}: {err.message}"
    return loaded, refused


def herd_verdict(herd: str, folder: Path, model: Path, own_library: bool = False) -> tuple[list[str], str]:
    """(the bundled sets herd7 runs ``model`` on, herd7's first message where it refuses it);
    ``own_library``: herd7's own library folder and its model of that name, not ``folder``'s."""
    from stock_cat_sweep import SETS, herd_cmd, set_files

    runs, first_error = [], ""
    for set_name, root in SETS.items():
        cmd = herd_cmd(herd, None if own_library else folder, model, set_name, set_files(root, 1))
        proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=120)
        if "\nObservation " in "\n" + proc.stdout:
            runs.append(set_name)
        elif not first_error:
            text = (proc.stderr or proc.stdout).strip().splitlines()
            first_error = text[0] if text else f"exit {proc.returncode}, no output"
            first_error = first_error.replace(str(folder) + "/", "").replace(str(ROOT) + "/", "")
    return runs, first_error


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", nargs="?", default=str(DEFAULT))
    ap.add_argument("--herd", default=None, help="herd7 to run each model through")
    ap.add_argument("--csv", default=None, help="with --herd: write model,mmdsl,herd7 sets,herd7 error")
    args = ap.parse_args(argv)
    folder = Path(args.folder)
    if not folder.is_dir():
        print(f"no folder {folder}", file=sys.stderr)
        return 2
    loaded, refused = count(folder)
    herd, own = {}, {}
    if args.herd:  # with this folder as herd's library, and with herd7's own (its version's files)
        herd = {m.name: herd_verdict(args.herd, folder, m) for m in sorted(folder.glob("*.cat"))}
        own = {m.name: herd_verdict(args.herd, folder, m, own_library=True) for m in sorted(folder.glob("*.cat"))}
    for name, why in refused.items():
        note = ""
        if name in herd:
            sets, error = herd[name]
            note = f"  [herd7 runs it on: {', '.join(sets)}]" if sets else f"  [herd7 refuses it too: {error[:120]}]"
            if own[name][0] and not sets:
                note += f" [but with its own library herd7 runs it on: {', '.join(own[name][0])}]"
        print(f"{name:28} {why[:150]}{note}")
    print(f"{len(loaded)} of {len(loaded) + len(refused)} .cat files in {folder} load")
    if herd:
        too = sum(1 for m in refused if not herd[m][0])
        print(f"of the {len(refused)} refused, herd7 refuses {too} too on every bundled set")
    if args.csv and herd:
        with open(args.csv, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["model", "mmdsl", "herd7_sets", "herd7_error", "herd7_own_library_sets", "herd7_own_library_error"])
            for m, (sets, error) in herd.items():
                w.writerow([m, "loads" if m in loaded else "refused", " ".join(sets), error, " ".join(own[m][0]), own[m][1]])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
