"""The new-match page in fewer taps: this tablet's recent teams first (one tap each), "play again"
for its latest pairings, and the way play goes round the table as the chosen game has it."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scoring import engine
from scoring.models import Match

pytestmark = pytest.mark.django_db
NEW = reverse("scoring:match_new")
LEFT = "(play goes seat 1 → 2 → 3 → 4, to the left)"
RIGHT = "(play goes seat 1 → 2 → 3 → 4, to the right)"


def form(**fields):
    data = {"team0_name": "Alpha", "team0_player_a": "Anna", "team0_player_b": "Chris", "team1_name": "Beta",
            "team1_player_a": "Babis", "team1_player_b": "Dora", "first_dealer": "0"}  # fmt: skip
    data.update({k: str(v) for k, v in fields.items()})
    return data


def shown(page: str, text: str) -> bool:
    """The direction text is in the page and its element is not hidden."""
    tag = re.search(rf'<small class="direction"[^>]*>{re.escape(text)}', page)
    return bool(tag) and " hidden" not in tag.group(0)


def test_only_mpourloto_is_played_to_the_left_as_the_rules_say():
    assert {key: rules.clockwise for key, rules in engine.RULESETS.items()} == {
        "mpourloto": True, "pilotta": False, "bulgarian": False, "french": False, "classic": False,
        "coinche": False,  # anticlockwise, as Pilotta and the French game
    }  # fmt: skip


def test_the_dealer_text_follows_the_game(client):
    page = client.get(NEW).text  # Mpourloto unless another game is chosen
    assert shown(page, LEFT) and not shown(page, RIGHT)
    assert 'class="seats to-left"' in page
    for game in ("pilotta", "bulgarian", "french", "classic", "coinche"):
        page = client.post(NEW, form(ruleset=game, target=0)).text  # an error: the page again
        assert shown(page, RIGHT) and not shown(page, LEFT), game
        assert 'class="seats to-right"' in page


def test_recent_teams_come_first_a_few_of_them(client):
    for i in range(5):
        assert client.post(NEW, form(team0_name=f"A{i}", team1_name=f"B{i}")).status_code == 302
    page = client.get(NEW).text
    cards = re.findall(r'name="team0_pick" value="(\d+)"', page)
    assert len(cards) == 6  # the latest six teams; the search finds the others
    assert (
        page.index('data-name="A4"') < page.index('data-name="B4"') < page.index('data-name="A3"')
    )  # latest first
    assert page.index('name="team0_pick"') < page.index('name="team0_name"')  # before the typing
    assert re.search(r'name="team0_pick" value=""[^>]* checked', page)  # a new team until one is tapped


def test_play_again_fills_in_the_last_pairing_and_its_game(client):
    client.post(NEW, form(ruleset="pilotta", target=251, capot_bonus=100))
    last = Match.objects.get()
    page = client.get(NEW).text
    assert f'href="?again={last.pk}"' in page
    again = client.get(NEW, {"again": last.pk}).text
    for t, team in enumerate(last.teams):
        assert re.search(rf'name="team{t}_pick" value="{team.pk}"[^>]* checked', again)
        assert f'name="team{t}_player_a_id" value="{team.player_a_id}"' in again
    assert re.search(r'name="ruleset" value="pilotta"[^>]* checked', again)
    assert 'name="target" min="1" max="100000" inputmode="numeric" value="251"' in again
    assert re.search(r'<option value="100" selected>', again)
    assert shown(again, RIGHT)
    # One tap on "Start the match": the same teams, the same game and options.
    fields = {
        "team0_pick": last.team0_id, "team1_pick": last.team1_id, "ruleset": "pilotta",
        "target": 251, "capot_bonus": 100, "first_dealer": 0,
    }  # fmt: skip
    assert client.post(NEW, fields).status_code == 302
    rematch = Match.objects.latest("pk")
    assert (rematch.team0, rematch.team1, rematch.ruleset) == (last.team0, last.team1, "pilotta")
    assert (rematch.options["target"], rematch.options["capot_bonus"]) == (251, 100)


def test_play_again_is_only_for_this_tablets_own_matches(client):
    client.post(NEW, form())
    theirs = Match.objects.get()
    other = client.__class__()
    page = other.get(NEW, {"again": theirs.pk}).text
    assert "Alpha" not in page and "Anna" not in page
    assert other.get(NEW, {"again": "nonsense"}).status_code == 200
