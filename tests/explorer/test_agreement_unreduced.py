"""The agreement invariant over the x86 corpus without the partial-order reduction.

A file of its own so that the test runner's workers (pytest-xdist, one file per worker) can run
it beside the reduced half in test_agreement.py.
"""

from __future__ import annotations

import pytest
from test_agreement import whole_x86_corpus_agrees


@pytest.mark.slow
def test_whole_x86_corpus_agrees_under_every_model_without_the_reduction():
    whole_x86_corpus_agrees(por=False)
