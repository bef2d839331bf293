"""Exception parity with scipy.linalg, routine by routine (see ``exceptions.py`` for the rule)."""

from __future__ import annotations

import pytest

from torchbridge import linalg as tl

from . import exceptions
from .cases import ROUTINES


@pytest.fixture(scope="module")
def table():
    return exceptions.cells()


def test_every_cell_follows_the_rule_or_a_stated_deviation(table):
    broken = [f"{c.routine} / {c.bad}: torchbridge {c.ours}, SciPy {c.theirs}"
              for c in table if not c.same and c.deviation is None]
    assert not broken, "\n".join(broken)


def test_each_deviation_is_still_needed(table):
    used = {c.deviation.key for c in table if c.deviation is not None}
    assert used == {d.key for d in exceptions.DEVIATIONS}


def test_the_table_covers_the_routines_and_the_bad_inputs(table):
    assert {c.routine for c in table} == set(ROUTINES)
    assert len(ROUTINES) >= 80 and set(ROUTINES) <= set(tl.__all__)
    assert {c.bad for c in table} == set(exceptions.BAD_INPUTS)


def test_the_committed_table_is_generated_from_this_module(table):
    assert exceptions.TABLE.read_text() == exceptions.markdown(table), (
        "tests/python/linalg/exceptions.md is stale: run `python .ci/exception_table.py --write`")
