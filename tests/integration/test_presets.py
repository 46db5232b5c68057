"""Named presets in use: a match and a tournament made from one keep its name and its options (spelt
out), every match of the tournament carries them, the match file names the preset and comes back as
the same sheet; the presets' pages, the copy with changes (refused input: 422, nothing saved), and the
owner's changes, which never alter a result."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scoring import engine, presets, selectors
from scoring import services as scoring
from scoring.models import Match, RulePreset
from tests.factories import TEAMS
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

CANNES = "Cannes 2001 points or 40 minutes"
CANNES_SLUG = "cannes-2001-points-or-40-minutes"
# docs/games/coinche.md, worked example 1: 100 hearts made with the belote (220–60).
COINCHE_DEAL = {
    "maker": 0,
    "contract": {"suit": "hearts", "bid": 100, "multiplier": 1},
    "card_points": [92, 60],
    "last_trick": 0,
    "belote": [1, 0],
}


@pytest.fixture
def organizer(django_user_model):
    return django_user_model.objects.create_user(username="org", password="pw-org-12345")


@pytest.fixture
def other(django_user_model):
    return django_user_model.objects.create_user(username="rival", password="pw-rival-12345")


@pytest.fixture
def club_preset(organizer):
    """The organizer's copy of Cannes: failed contracts give 162."""
    return presets.preset_create(owner=organizer, base=CANNES, name="Kafeneio contrée", changes={"base": 162})


# A match from a preset --------------------------------------------------------------------------


def test_a_match_from_a_preset_keeps_its_name_and_every_option_spelt_out(organizer):
    match = scoring.match_create(teams=TEAMS, preset=CANNES, options={"sa_ta": True}, created_by=organizer)
    match.refresh_from_db()
    cannes = presets.preset_get(CANNES)
    assert (match.ruleset, match.preset, match.target) == ("coinche", CANNES, 2001)
    assert match.options == {**cannes.options, "sa_ta": True}  # the options given go over the preset's


def test_a_preset_is_named_by_slug_too_and_an_unknown_or_another_games_is_refused(organizer):
    assert scoring.match_create(teams=TEAMS, preset="cypriot-cafe-351").preset == "Cypriot café 351"
    for preset, ruleset in (("No such rules", None), ("FFB 2016", "mpourloto")):
        with pytest.raises(engine.ScoringError) as refused:
            scoring.match_create(teams=TEAMS, preset=preset, ruleset=ruleset)
        assert refused.value.field == "preset"
    assert Match.objects.count() == 1


def test_the_new_match_page_offers_each_games_presets_and_uses_the_chosen_games(client):
    page = client.get(reverse("scoring:match_new")).text
    assert 'name="preset_coinche"' in page and f'<option value="{CANNES}">' in page
    assert 'name="preset_pilotta"' in page and '<option value="Cypriot café 351">' in page
    data = {
        "team0_name": "Alpha", "team0_player_a": "Anna", "team0_player_b": "Chris", "team1_name": "Beta",
        "team1_player_a": "Babis", "team1_player_b": "Dora", "first_dealer": "0", "ruleset": "coinche",
        "preset_coinche": CANNES, "preset_pilotta": "Cypriot café 351", "coinche_target": "1000",
        "coinche_litige": "failed", "coinche_base": "160", "coinche_made_scoring": "points_plus_bid",
        "coinche_surcoinche": "4", "coinche_max_bid": "160",
    }  # fmt: skip
    assert client.post(reverse("scoring:match_new"), data).status_code == 302
    match = Match.objects.get()
    # The game's preset only; the options left as the game usually has them do not undo the preset's.
    assert (match.ruleset, match.preset, match.target) == ("coinche", CANNES, 2001)
    assert match.options["timed_last_deal_exact"] is True
    changed = {**data, "coinche_base": "162", "target": "1500"}  # a change and a target typed go over it
    assert client.post(reverse("scoring:match_new"), changed).status_code == 302
    latest = Match.objects.latest("pk")
    assert (latest.preset, latest.options["base"], latest.target) == (CANNES, 162, 1500)


def test_the_sheet_names_the_preset_with_a_link_to_its_page(client, organizer, club_preset):
    match = scoring.match_create(teams=TEAMS, preset=club_preset.name, created_by=organizer)
    client.force_login(organizer)
    page = client.get(reverse("scoring:match", args=[match.pk])).text
    link = reverse("scoring:preset", args=[club_preset.slug])
    assert re.search(rf'data-testid="preset">[^<]*<a href="{re.escape(link)}">Kafeneio contrée</a>', page)
    assert "Kafeneio contrée" in client.get(reverse("scoring:match_print", args=[match.pk])).text


# The match file ---------------------------------------------------------------------------------


def test_the_match_file_names_the_preset_and_comes_back_as_the_same_sheet(organizer, club_preset):
    match = scoring.match_create(teams=TEAMS, preset=club_preset.name, created_by=organizer)
    scoring.deal_record(match=match, deal=COINCHE_DEAL)
    scoring.deal_record(match=match, deal={"thrown_in": True})
    match.refresh_from_db()
    data = selectors.match_file(match=match)
    assert list(data)[:3] == ["ruleset", "options", "preset"] and data["preset"] == "Kafeneio contrée"
    assert data["options"] == match.options  # every option: the file scores the same without the preset
    again = scoring.match_import(data=data, created_by=organizer)
    assert (again.preset, again.options) == (match.preset, match.options)
    sheet, copy = selectors.match_sheet(match=match).sheet, selectors.match_sheet(match=again).sheet
    assert copy.to_dict() == sheet.to_dict() and copy.totals == (220, 60)


def test_a_hand_written_file_takes_the_presets_rules_and_an_unknown_preset_is_a_name_only(organizer):
    written = {"preset": "cypriot-cafe-351", "teams": [{"name": n, "players": list(p)} for n, p in TEAMS]}
    match = scoring.match_import(data=written, created_by=organizer)
    assert (match.ruleset, match.preset, match.target) == ("pilotta", "Cypriot café 351", 351)
    foreign = {**written, "preset": "Another site's rules", "ruleset": "french", "options": {"target": 1000}}
    match = scoring.match_import(data=foreign, created_by=organizer)
    assert (match.ruleset, match.preset, match.target) == ("french", "Another site's rules", 1000)
    with pytest.raises(engine.ScoringError) as refused:
        scoring.match_import(data={**written, "ruleset": "french"}, created_by=organizer)
    assert refused.value.field == "preset"


# A tournament from a preset --------------------------------------------------------------------


def _started(organizer, **settings):
    t = services.tournament_create(organizer=organizer, name="Contrée night", **settings)
    for i in range(4):
        services.entry_register(tournament=t, name=f"Team {i}", players=[f"P{i}a", f"P{i}b"])
    t = services.tournament_start(tournament=t, user=organizer)
    services.round_start(rnd=services.round_generate(tournament=t, user=organizer), user=organizer)
    return Tournament.objects.get(pk=t.pk)


def test_a_tournament_from_the_cannes_preset_is_timed_40_minutes_and_every_match_carries_it(organizer):
    t = _started(organizer, preset=CANNES_SLUG)
    cannes = presets.preset_get(CANNES)
    assert (t.ruleset, t.preset, t.time_limit) == ("coinche", CANNES, 40)
    assert t.options == {**cannes.options, "deals": 0}
    matches = Match.objects.filter(table__round__tournament=t)
    assert matches.count() == 2
    for match in matches:
        assert (match.ruleset, match.preset, match.options) == ("coinche", CANNES, t.options)


def test_a_tournaments_own_settings_go_over_its_preset(organizer):
    t = services.tournament_create(
        organizer=organizer, name="Quick", preset=CANNES, time_limit=30, options={"target": 1000}
    )
    assert (t.time_limit, t.options["target"], t.options["timed_last_deal_exact"]) == (30, 1000, True)
    with pytest.raises(services.TournamentError, match="Coinche"):
        services.tournament_create(organizer=organizer, name="Wrong", preset=CANNES, ruleset="pilotta")


def test_a_deleted_preset_changes_no_tournament_and_its_rounds_still_start(organizer, club_preset):
    t = services.tournament_create(organizer=organizer, name="Club cup", preset=club_preset.name)
    presets.preset_delete(preset=club_preset, user=organizer)
    t = services.tournament_update(tournament=t, user=organizer, swiss_rounds=3)  # the set-up still changes
    assert (t.preset, t.options["base"], t.time_limit) == ("Kafeneio contrée", 162, 40)
    for i in range(2):
        services.entry_register(tournament=t, name=f"Team {i}", players=[f"P{i}a", f"P{i}b"])
    t = services.tournament_start(tournament=t, user=organizer)
    services.round_start(rnd=services.round_generate(tournament=t, user=organizer), user=organizer)
    match = Match.objects.get(table__round__tournament=t)
    assert (match.preset, match.options["base"]) == ("Kafeneio contrée", 162)


def test_another_preset_chosen_before_the_start_brings_its_own_game_and_options(organizer):
    t = services.tournament_create(organizer=organizer, name="Undecided", preset=CANNES)
    t = services.tournament_update(tournament=t, user=organizer, preset="Cypriot café 351")
    assert (t.ruleset, t.preset, t.options["target"]) == ("pilotta", "Cypriot café 351", 351)
    assert t.time_limit == 40  # set by the first preset: the second has none to bring
    t = services.tournament_update(tournament=t, user=organizer, ruleset="french")
    assert (t.ruleset, t.preset) == ("french", "")


def test_the_new_tournament_form_creates_it_from_a_preset_and_its_page_links_the_preset(client, organizer):
    client.force_login(organizer)
    assert f'<option value="{CANNES}">' in client.get(reverse("tournaments:new")).text
    form = {
        "name": "Contrée du vendredi", "ruleset": "mpourloto", "preset": CANNES, "format": "concours",
        "swiss_rounds": "5", "knockout_size": "0", "deals_per_match": "0", "points_win": "2",
        "points_draw": "1", "points_loss": "0", "points_bye": "2", "playoff_deals": "2", "public": "on",
    }  # fmt: skip
    response = client.post(reverse("tournaments:new"), form)
    assert response.status_code == 302, response.text
    t = Tournament.objects.get()
    assert (t.ruleset, t.preset, t.time_limit, t.options["target"]) == ("coinche", CANNES, 40, 2001)
    page = client.get(reverse("tournaments:home", args=[t.slug])).text
    assert f'<a href="{reverse("scoring:preset", args=[CANNES_SLUG])}">{CANNES}</a>' in page
    refused = client.post(reverse("tournaments:new"), {**form, "preset": "Nothing of the kind"})
    assert refused.status_code == 422 and Tournament.objects.count() == 1


# The pages ----------------------------------------------------------------------------------------


def test_the_presets_page_lists_every_preset_by_game(client, club_preset):
    page = client.get(reverse("scoring:presets")).text
    for preset in presets.BUILT_IN:
        assert reverse("scoring:preset", args=[preset.slug]) in page
    assert "Kafeneio contrée" in page and 'data-testid="presets-coinche"' in page
    assert "?from=coinche" not in page  # copies are for signed-in organizers


def test_a_presets_page_says_every_option_in_words_and_what_differs(client):
    page = client.get(reverse("scoring:preset", args=[CANNES_SLUG])).text
    assert "The last deal of a match ended by the clock is counted exactly, not rounded" in page
    assert page.count('data-testid="differs"') == 2  # the target and the exact last deal
    assert "Timed: 40 minutes a match or round" in page
    assert f'href="{reverse("scoring:help")}#coinche"' in page
    assert 'data-testid="copy"' not in page and 'data-testid="edit"' not in page
    assert client.get(reverse("scoring:preset", args=["no-such-preset"])).status_code == 404


def test_a_copy_with_changes_through_its_form(client, organizer):
    client.force_login(organizer)
    new = reverse("scoring:preset_new")
    form = client.get(new, {"from": CANNES_SLUG}).text
    assert re.search(r'name="timed_last_deal_exact"[^>]* checked', form)  # a box to tick, as Cannes has it
    assert re.search(r'<select name="rounding"[^>]*>\s*<option value="half_up" selected>', form)
    assert re.search(r'type="number" name="target" value="2001"', form)
    fields = _posted(form) | {"name": "Club contrée", "base": "162", "annonces": ""}
    response = client.post(new, fields)
    assert response.status_code == 302
    saved = presets.preset_get("Club contrée")
    assert response.url == reverse("scoring:preset", args=[saved.slug])
    assert (saved.based_on, saved.time_limit, saved.owner) == (CANNES, 40, organizer)
    assert (saved.options["base"], saved.options["annonces"], saved.options["target"]) == (162, False, 2001)
    page = client.get(response.url).text
    assert f'href="{reverse("scoring:preset", args=[CANNES_SLUG])}">{CANNES}</a>' in page  # based on


@pytest.mark.parametrize(
    ("change", "error"),
    [
        ({"name": "ffb 2016"}, "A preset of that name exists already"),
        ({"name": ""}, "This field is required."),
        ({"rounding": "sideways"}, "Select a valid choice."),
        ({"target": "0"}, "The target is between 1 and"),
        ({"target": "many"}, "Enter a whole number."),
        ({"time_limit": "601"}, "less than or equal to 600"),
    ],
)
def test_a_bad_copy_is_refused_with_its_message_and_nothing_is_saved(client, organizer, change, error):
    client.force_login(organizer)
    new = reverse("scoring:preset_new")
    fields = _posted(client.get(new, {"from": "ffb-2016"}).text) | {"name": "Mine"} | change
    response = client.post(new, fields)
    assert response.status_code == 422 and error in response.text
    assert not RulePreset.objects.exists()


def test_a_copy_of_a_games_usual_rules_and_an_unknown_base(client, organizer):
    client.force_login(organizer)
    new = reverse("scoring:preset_new")
    fields = _posted(client.get(new, {"from": "bulgarian"}).text) | {"name": "Sofia club", "kirtik": "on"}
    assert client.post(new, fields).status_code == 302
    saved = presets.preset_get("Sofia club")
    assert (saved.ruleset, saved.based_on, saved.options["kirtik"]) == ("bulgarian", "", True)
    assert client.get(new, {"from": "nothing"}).status_code == 404
    assert client.get(new).status_code == 302  # nothing to copy: the list


def test_only_the_owner_changes_or_deletes_a_preset_and_a_result_never_changes(
    client, organizer, other, club_preset
):
    edit = reverse("scoring:preset_edit", args=[club_preset.slug])
    delete = reverse("scoring:preset_delete", args=[club_preset.slug])
    assert client.get(edit).status_code == 302  # to the login page
    client.force_login(other)
    assert client.get(edit).status_code == 403 and client.post(delete).status_code == 403
    assert client.get(reverse("scoring:preset_edit", args=["ffb-2016"])).status_code == 403  # built in
    client.force_login(organizer)
    match = scoring.match_create(teams=TEAMS, preset=club_preset.name, created_by=organizer)
    page = client.get(edit).text
    assert 'name="name"' not in page  # a preset keeps its name
    response = client.post(edit, _posted(page) | {"base": "160", "about": "Back to 160"})
    assert response.status_code == 302
    assert presets.preset_get(club_preset.slug).options["base"] == 160
    assert client.post(edit, _posted(page) | {"max_bid": "170"}).status_code == 422
    assert client.post(delete).status_code == 302
    assert presets.preset_get(club_preset.slug) is None
    match.refresh_from_db()
    assert (match.preset, match.options["base"]) == ("Kafeneio contrée", 162)  # as it was played
    client.force_login(organizer)
    sheet = client.get(reverse("scoring:match", args=[match.pk])).text
    assert re.search(r'data-testid="preset">[^<]*Kafeneio contrée</p>', sheet)  # no link any more


def _posted(page: str) -> dict[str, str]:
    """The form's fields as the page fills them in (inputs, ticked boxes, selected options)."""
    fields = {}
    for tag in re.findall(r"<input[^>]*>", page):
        name = re.search(r'name="([^"]+)"', tag)
        if not name or name.group(1) == "csrfmiddlewaretoken":
            continue
        kind = re.search(r'type="([^"]+)"', tag)
        if kind and kind.group(1) == "checkbox":
            if " checked" in tag:
                fields[name.group(1)] = "on"
            continue
        value = re.search(r'value="([^"]*)"', tag)
        fields[name.group(1)] = value.group(1) if value else ""
    for name, body in re.findall(r'<select name="([^"]+)"[^>]*>(.*?)</select>', page, re.S):
        chosen = re.search(r'<option value="([^"]*)" selected>', body)
        fields[name] = chosen.group(1) if chosen else ""
    for name, body in re.findall(r'<textarea name="([^"]+)"[^>]*>(.*?)</textarea>', page, re.S):
        fields[name] = body.strip()
    return fields
