"""herd's speculation sets SPEC and EXEC: no access is speculated in mmdsl's executions.

herd defines SPEC (accesses executed speculatively) and EXEC (the others) for every
model; without its speculation variants SPEC is empty and EXEC every access. herd's
ncos.cat (co generation over ``W \\ SPEC``, fr over ``[EXEC]``) and ctrl-bis.cat, which
includes it, were refused at ``unknown name 'SPEC'``. The stock files are read from
../shared/reference/herd-cats (herdtools7, CeCILL-B); the tests that need them skip when
that folder is absent.
"""

from __future__ import annotations

import pytest
from refdata import ROOT, SHARED_REFERENCE

from mmdsl.axiomatic import check
from mmdsl.lang.cat_lower import lower_cat_file
from mmdsl.litmus import load_litmus

HERD_CATS = SHARED_REFERENCE / "herd-cats"
needs_cats = pytest.mark.skipif(not (HERD_CATS / "ncos.cat").is_file(), reason=f"herd's ncos.cat is not in {HERD_CATS}")

# herd7 7.58, `herd7 -I herd-cats -model spec.cat litmus/classic/T.litmus` with SPEC_SC below
# as spec.cat: Observation T Never 0 3 on each of SB, MP, 2+2W, CoRR (3 states each)
SPEC_SC = ('"SC with ncos.cat"\ninclude "ncos.cat"\nlet fr = ([EXEC]; invrf ; co; [EXEC]) \\ id\n'
           'acyclic po | rf | co | fr as sc\nempty SPEC as nospec\n')


@needs_cats
@pytest.mark.parametrize("name", ["SB", "MP", "2+2W", "CoRR"])
def test_sc_over_ncos_gives_herds_results(tmp_path, name):
    path = tmp_path / "spec.cat"
    path.write_text(SPEC_SC)
    res = check(load_litmus(ROOT / "litmus" / "classic" / f"{name}.litmus"), lower_cat_file(path, [HERD_CATS]))
    assert (res.observation, res.positive, res.negative, len(res.states)) == ("Never", 0, 3, 3)


@needs_cats
@pytest.mark.parametrize("name", ["ncos.cat", "ctrl-bis.cat"])
def test_the_stock_files_using_spec_load(name):
    lower_cat_file(HERD_CATS / name, [HERD_CATS])


def test_spec_is_empty_and_exec_every_access(tmp_path):
    path = tmp_path / "m.cat"
    path.write_text('"s"\nempty SPEC as nospec\nempty M \\ EXEC as allexec\n')
    res = check(load_litmus(ROOT / "litmus" / "classic" / "SB.litmus"), lower_cat_file(path))
    assert res.observation == "Sometimes" and len(res.states) == 4
