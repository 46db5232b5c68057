"""Who lost a deal as a committed side: the count behind "mesa/inside suffered"."""

import pytest

from scoring.engine import sufferer


@pytest.mark.parametrize(
    ("result", "maker", "team"),
    [
        ("mesa", 0, 0),
        ("failed", 1, 1),
        ("inside", 0, 0),
        ("dedans", 1, 1),
        ("inside_defenders", 0, 1),  # doubled Bulgarian: the defenders are inside
        ("made", 0, None),
        ("hanging", 1, None),
        ("litige", 0, None),
        ("thrown_in", None, None),
    ],
)
def test_the_team_that_suffered_a_deal(result, maker, team):
    assert sufferer(result, maker) == team
