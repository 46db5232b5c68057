"""A knockout's bracket (issue 26, "After the last round"): the page, the big screen's state, the
embed; rounds named by their size, the whole shape shown before the draw, winners marked."""

import re

import pytest
from django.urls import reverse

from scoring import services as scoring
from tournaments import services
from tournaments.bracket import bracket_state, knockout_round_label, round_name
from tournaments.models import Adjustment, Round, Tournament
from tournaments.screen import round_label, screen_state

pytestmark = pytest.mark.django_db

WIN_0 = {"maker": 0, "card_points": [90, 62], "last_trick": 0}


@pytest.fixture
def organizer(django_user_model):
    return django_user_model.objects.create_user(username="org", password="pw-org-12345")


def knockout(organizer, teams=8, **settings) -> Tournament:
    settings = {"swiss_rounds": 1, "knockout_size": 8, "third_place": True, "deals_per_match": 1, **settings}
    t = services.tournament_create(organizer=organizer, name="Cup night", **settings)
    for i in range(teams):
        services.entry_register(tournament=t, name=f"Team {i + 1}", players=[f"P{i}a", f"P{i}b"])
    return services.tournament_start(tournament=t, user=organizer)


def next_round(t, organizer) -> Round:
    return services.round_start(rnd=services.round_generate(tournament=t, user=organizer), user=organizer)


def finish(table, side=0):
    """Play the table's match to the target, ``side`` winning every deal."""
    deal = {"maker": side, "card_points": [152, 0] if side == 0 else [0, 152], "capot": side}
    while table.match.status != "finished":
        scoring.deal_record(match=table.match, deal=deal)
        table.match.refresh_from_db()


def names(state):
    return [c["name"] for c in state["columns"]]


def test_rounds_are_named_by_their_size():
    assert [round_name(n) for n in (2, 4, 8, 16, 32)] == [
        "Final", "Semi-finals", "Quarter-finals", "Round of 16", "Round of 32",
    ]  # fmt: skip


def test_the_whole_bracket_is_there_before_the_draw(organizer):
    t = knockout(organizer)
    state = bracket_state(tournament=t)
    assert names(state) == ["Quarter-finals", "Semi-finals", "Final"]
    assert [len(c["matches"]) for c in state["columns"]] == [4, 2, 1]
    assert all(
        m["state"] == "empty" and m["sides"] == [None, None] for c in state["columns"] for m in c["matches"]
    )
    assert state["third_place"]["state"] == "empty"
    assert state["consolation"] is None and state["champion"] is None
    no_third = knockout(organizer, third_place=False, knockout_size=6)
    state = bracket_state(tournament=no_third)
    assert state["places"] == 8 and state["third_place"] is None  # six teams: a bracket of 8, two byes
    assert bracket_state(tournament=knockout(organizer, knockout_size=0, third_place=False)) is None


def test_an_eight_team_knockout_played_to_the_final_and_third_place(organizer):
    t = knockout(organizer)
    stage = next_round(t, organizer)
    for table in stage.tables.all():
        scoring.deal_record(match=table.match, deal=WIN_0)
    services.standings_refresh(tournament_id=t.pk)
    quarters = next_round(t, organizer)
    assert round_label(quarters) == "Quarter-finals" == knockout_round_label(quarters)
    state = bracket_state(tournament=t)
    first = state["columns"][0]["matches"]
    assert [m["table"] for m in first] == [1, 2, 3, 4]
    assert [[s["seed"] for s in m["sides"]] for m in first] == [[1, 8], [4, 5], [2, 7], [3, 6]]
    assert all(m["state"] == "playing" for m in first)
    assert all(s["number"] for m in first for s in m["sides"])
    assert all(m["state"] == "empty" for m in state["columns"][1]["matches"])

    tables = list(quarters.tables.order_by("number"))
    finish(tables[0], 0)
    finish(tables[1], 1)
    state = bracket_state(tournament=t)
    q1, q2 = state["columns"][0]["matches"][:2]
    assert q1["winner"] == 0 and q1["state"] == "finished" and q1["score"][0] > q1["score"][1]
    assert q2["winner"] == 1
    semi = state["columns"][1]["matches"][0]
    assert semi["state"] == "empty"  # not drawn yet, but the winners already known go through
    assert [s["name"] for s in semi["sides"]] == [q1["sides"][0]["name"], q2["sides"][1]["name"]]
    # A table's result typed from the paper sheet, and a director's decision, count in the bracket.
    services.table_decide(table=tables[2], kind=Adjustment.Kind.AWARD, winner=1, scores=[0, 1000],
                          reason="no show", user=organizer)  # fmt: skip
    finish(tables[3], 0)
    state = bracket_state(tournament=t)
    q3 = state["columns"][0]["matches"][2]
    assert q3["winner"] == 1 and q3["decided"] and q3["score"] == [0, 1000]

    semis = next_round(t, organizer)
    assert round_label(semis) == "Semi-finals"
    for table in semis.tables.all():
        finish(table, 0)
    final = next_round(t, organizer)
    assert round_label(final) == "Final"
    assert final.tables.count() == 2  # the final and the match for third place
    state = bracket_state(tournament=t)
    assert state["third_place"]["state"] == "playing" and state["third_place"]["table"] == 2
    for table in final.tables.order_by("number"):
        finish(table, 1)
    state = bracket_state(tournament=t)
    the_final = state["columns"][2]["matches"][0]
    assert the_final["winner"] == 1 and state["champion"] == the_final["sides"][1]
    assert state["third_place"]["winner"] == 1


def test_a_paper_result_shows_until_the_deals_replace_it(organizer):
    t = knockout(organizer, teams=4, knockout_size=4, third_place=False)
    stage = next_round(t, organizer)
    for table in stage.tables.all():
        scoring.deal_record(match=table.match, deal=WIN_0)
    services.standings_refresh(tournament_id=t.pk)
    semis = next_round(t, organizer)
    table = semis.tables.get(number=1)
    services.table_paper_result(table=table, totals=[874, 1012], user=organizer)
    m = bracket_state(tournament=t)["columns"][0]["matches"][0]
    assert m["paper"] and m["winner"] == 1 and m["score"] == [874, 1012]
    finish(table, 0)
    m = bracket_state(tournament=t)["columns"][0]["matches"][0]
    assert not m["paper"] and m["winner"] == 0


def test_the_bracket_page_is_public_and_the_nav_links_it(organizer, client):
    t = knockout(organizer)
    page = client.get(reverse("tournaments:bracket", args=[t.slug]))
    assert page.status_code == 200
    text = page.text
    for name in ("Quarter-finals", "Semi-finals", "Final", "Match for third place"):
        assert name in text
    assert text.count('data-state="empty"') == 8  # 4 + 2 + 1 and the third place
    assert (
        reverse("tournaments:bracket", args=[t.slug])
        in client.get(reverse("tournaments:standings", args=[t.slug])).text
    )
    swiss = knockout(organizer, knockout_size=0, third_place=False)
    assert client.get(reverse("tournaments:bracket", args=[swiss.slug])).status_code == 404
    assert (
        reverse("tournaments:bracket", args=[swiss.slug])
        not in client.get(reverse("tournaments:standings", args=[swiss.slug])).text
    )
    t.public = False
    t.save()
    assert client.get(reverse("tournaments:bracket", args=[t.slug])).status_code == 404


def test_the_page_marks_winners_and_matches_in_play(organizer, client):
    t = knockout(organizer, teams=4, knockout_size=4)
    for table in next_round(t, organizer).tables.all():
        scoring.deal_record(match=table.match, deal=WIN_0)
    services.standings_refresh(tournament_id=t.pk)
    semis = next_round(t, organizer)
    finish(semis.tables.get(number=1), 0)
    text = client.get(reverse("tournaments:bracket", args=[t.slug])).text
    assert text.count('data-testid="bracket-winner"') == 1
    assert "playing" in text
    winner = semis.tables.get(number=1).entry0.name
    marked = (
        r'is-winner" data-testid="bracket-winner">\s*<span class="bracket-seed"[^>]*>1</span>'
        r'<span class="bracket-team"><span class="entry-no">\d+</span> '
    )
    assert re.search(marked + re.escape(winner), text)


def test_the_big_screen_shows_the_bracket_during_the_knockout(organizer, client):
    t = knockout(organizer, teams=4, knockout_size=4)
    stage = next_round(t, organizer)
    assert screen_state(t)["bracket"] is None  # the stage: the standings
    for table in stage.tables.all():
        scoring.deal_record(match=table.match, deal=WIN_0)
    services.standings_refresh(tournament_id=t.pk)
    semis = next_round(t, organizer)
    data = screen_state(Tournament.objects.get(pk=t.pk))
    assert data["round"]["label"] == "Semi-finals"
    assert names(data["bracket"]) == ["Semi-finals", "Final"]
    page = client.get(reverse("tournaments:screen", args=[t.slug])).text
    assert 'data-panel="bracket"' in page and 'data-panel="standings"' not in page
    assert semis.number == 2


def test_the_embed_follows_the_frame_rules(organizer, client):
    t = knockout(organizer)
    t.embed_origins = "https://club.example"
    t.save()
    url = reverse("tournaments:embed_bracket", args=[t.slug])
    answer = client.get(url)
    assert answer.status_code == 200
    assert "X-Frame-Options" not in answer.headers
    policy = answer.headers["Content-Security-Policy"]
    assert re.search(r"frame-ancestors 'self' https://club\.example", policy)
    assert "Quarter-finals" in answer.text and 'class="site-header"' not in answer.text
    again = client.get(url, HTTP_IF_NONE_MATCH=answer.headers["ETag"])
    assert again.status_code == 304
    # Any other page keeps refusing frames.
    page = client.get(reverse("tournaments:bracket", args=[t.slug]))
    assert "frame-ancestors 'none'" in page.headers["Content-Security-Policy"]
    # A drawn round changes the answer.
    for table in next_round(t, organizer).tables.all():
        scoring.deal_record(match=table.match, deal=WIN_0)
    services.standings_refresh(tournament_id=t.pk)
    next_round(t, organizer)
    assert client.get(url, HTTP_IF_NONE_MATCH=answer.headers["ETag"]).status_code == 200
    swiss = knockout(organizer, knockout_size=0, third_place=False)
    assert client.get(reverse("tournaments:embed_bracket", args=[swiss.slug])).status_code == 404
    t.public = False
    t.save()
    assert client.get(url).status_code == 404


# A match in play, a match not begun, and what decided a result (issue 27) ---------------------------


def semi_finals(organizer, **settings) -> tuple[Tournament, Round]:
    """Four teams, one Swiss round played, the semi-finals drawn and started."""
    t = knockout(organizer, teams=4, knockout_size=4, third_place=False, **settings)
    for table in next_round(t, organizer).tables.all():
        finish(table, 0)
        if t.confirmation:
            scoring.match_confirm(match=table.match, team=1)
    services.standings_refresh(tournament_id=t.pk)
    return t, next_round(t, organizer)


def test_a_match_not_begun_shows_no_score_not_nil_nil(organizer, client):
    t = knockout(organizer, teams=4, knockout_size=4, third_place=False)
    for table in next_round(t, organizer).tables.all():
        scoring.deal_record(match=table.match, deal=WIN_0)
    services.standings_refresh(tournament_id=t.pk)
    drawn = services.round_generate(tournament=t, user=organizer)
    semis = bracket_state(tournament=t)["columns"][0]["matches"]
    assert [(m["state"], m["score"], m["running"], m["note"]) for m in semis] == [
        ("drawn", None, None, "")
    ] * 2
    services.round_start(rnd=drawn, user=organizer)  # the matches exist now, 0–0 in the database
    assert drawn.tables.get(number=1).match.totals == [0, 0]
    semis = bracket_state(tournament=t)["columns"][0]["matches"]
    assert [(m["state"], m["score"], m["running"], m["note"]) for m in semis] == [
        ("playing", None, None, "playing")
    ] * 2
    text = client.get(reverse("tournaments:bracket", args=[t.slug])).text
    assert "0–0" not in text
    assert re.findall(r'<span class="bracket-score">([^<]*)</span>', text) == [""] * 6  # 2 semis, the final


def test_a_match_in_play_shows_its_running_score_and_how_far_it_is(organizer, client):
    t, semis = semi_finals(organizer)
    table = semis.tables.get(number=1)
    scoring.deal_record(match=table.match, deal=WIN_0)  # 100 v 62, played to the target
    m = bracket_state(tournament=t)["columns"][0]["matches"][0]
    target = table.match.target
    assert m["state"] == "playing" and m["winner"] is None and m["result_kind"] is None
    assert m["score"] is None and m["running"] == [100, 62]
    assert (m["deal"], m["deals"], m["target"]) == (None, None, target)  # a knockout: to its target
    assert m["note"] == f"100–62 of {target}"
    text = client.get(reverse("tournaments:bracket", args=[t.slug])).text
    assert re.search(rf'class="bracket-note is-playing" data-testid="bracket-note">100–62 of {target}<', text)
    finish(table, 1)  # then played out: its final score and its winner
    m = bracket_state(tournament=t)["columns"][0]["matches"][0]
    assert m["state"] == "finished" and m["winner"] == 1 and m["result_kind"] == "deals"
    assert m["score"] == table.match.totals[:2] and m["running"] is None and m["note"] == ""


def test_a_match_over_a_set_number_of_deals_says_which_deal_is_played(organizer):
    t, semis = semi_finals(organizer)
    table = semis.tables.get(number=2)
    # A match over 12 deals (a club's own knockout), its 6th deal recorded.
    table.match.options = {**table.match.options, "deals": 12}
    table.match.save()
    for _ in range(6):
        scoring.deal_record(match=table.match, deal=WIN_0)
    m = bracket_state(tournament=t)["columns"][0]["matches"][1]
    assert m["running"] == [600, 372] and (m["deal"], m["deals"], m["target"]) == (7, 12, None)
    assert m["note"] == "Deal 7 of 12 · 600–372"


def test_a_forfeit_an_award_and_a_paper_result_say_so(organizer, client):
    t, semis = semi_finals(organizer)
    one, two = semis.tables.order_by("number")
    scoring.deal_record(match=one.match, deal=WIN_0)  # begun, then forfeited: not its running score
    services.table_decide(table=one, kind=Adjustment.Kind.FORFEIT, winner=0, scores=[1000, 0],
                          reason="left early", user=organizer)  # fmt: skip
    services.table_paper_result(table=two, totals=[874, 1012], user=organizer)
    first, second = bracket_state(tournament=t)["columns"][0]["matches"]
    assert (first["result_kind"], first["note"], first["score"], first["winner"]) == (
        "forfeit", "Forfeit", [1000, 0], 0
    )  # fmt: skip
    assert first["decided"] and first["running"] is None and first["state"] == "finished"
    assert (second["result_kind"], second["note"], second["score"], second["paper"]) == (
        "paper", "From the paper sheet", [874, 1012], True
    )  # fmt: skip
    services.table_decide(table=two, kind=Adjustment.Kind.AWARD, winner=0, scores=[1000, 900],
                          reason="a misdeal", user=organizer)  # fmt: skip
    second = bracket_state(tournament=t)["columns"][0]["matches"][1]
    assert (second["result_kind"], second["note"], second["score"]) == ("award", "Match awarded", [1000, 900])
    text = client.get(reverse("tournaments:bracket", args=[t.slug])).text
    assert 'is-forfeit" data-testid="bracket-note">Forfeit<' in text
    assert 'is-award" data-testid="bracket-note">Match awarded<' in text


def test_a_bye_is_marked_as_such(organizer):
    t = knockout(organizer, teams=6, knockout_size=6, third_place=False)
    for table in next_round(t, organizer).tables.all():
        scoring.deal_record(match=table.match, deal=WIN_0)
    services.standings_refresh(tournament_id=t.pk)
    next_round(t, organizer)
    byes = [m for m in bracket_state(tournament=t)["columns"][0]["matches"] if m["state"] == "bye"]
    assert len(byes) == 2 and all(m["result_kind"] == "bye" and m["score"] is None for m in byes)


def test_a_result_waiting_for_its_confirmation_shows_its_score_but_no_winner(organizer, client):
    t, semis = semi_finals(organizer, confirmation=True)
    table = semis.tables.get(number=1)
    finish(table, 0)
    m = bracket_state(tournament=t)["columns"][0]["matches"][0]
    assert m["state"] == "playing" and m["winner"] is None and m["result_kind"] is None
    assert m["score"] == table.match.totals[:2] and m["note"] == "Waiting for confirmation"
    scoring.match_confirm(match=table.match, team=1)
    m = bracket_state(tournament=t)["columns"][0]["matches"][0]
    assert m["state"] == "finished" and m["winner"] == 0 and m["note"] == ""


def test_the_bracket_is_a_constant_number_of_queries(organizer):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def reads(teams: int) -> int:
        t = knockout(organizer, teams=teams, knockout_size=teams, third_place=True)
        for table in next_round(t, organizer).tables.all():
            scoring.deal_record(match=table.match, deal=WIN_0)
        services.standings_refresh(tournament_id=t.pk)
        first = next_round(t, organizer).tables.order_by("number")
        scoring.deal_record(match=first[0].match, deal=WIN_0)  # one in play
        finish(first[1], 0)  # one played out
        services.table_paper_result(table=first[2], totals=[874, 1012], user=organizer)
        t = Tournament.objects.get(pk=t.pk)
        with CaptureQueriesContext(connection) as seen:
            state = bracket_state(tournament=t)
        assert state["columns"][0]["matches"][0]["running"] == [100, 62]
        return len(seen)

    assert reads(8) == reads(16) <= 4


def test_the_big_screen_follows_a_knockout_deal_by_deal(
    organizer, client, django_capture_on_commit_callbacks
):
    from tournaments import live, presence

    t, semis = semi_finals(organizer)
    screen_data = reverse("tournaments:screen_data", args=[t.slug])
    before = client.get(screen_data).json()
    assert before["bracket"]["columns"][0]["matches"][0]["running"] is None
    embed = client.get(reverse("tournaments:embed_bracket", args=[t.slug]))
    stamp, count = before["version"].split("~")
    with django_capture_on_commit_callbacks(execute=True):
        scoring.deal_record(match=semis.tables.get(number=1).match, deal=WIN_0)
    # The screen's version moves (its counter of deals: what="tables"), and its tables part carries
    # the bracket with the running score.
    assert live.stamp(t.pk) == stamp and presence.changes(t.pk) == int(count) + 1
    part = client.get(screen_data + "?part=tables").json()
    assert part["count"] == int(count) + 1
    m = part["bracket"]["columns"][0]["matches"][0]
    assert m["running"] == [100, 62] and m["note"].startswith("100–62 of ")
    assert part["tables"][0]["running"] == [100, 62]  # the pairings say the same
    assert client.get(screen_data).json()["bracket"]["columns"][0]["matches"][0]["running"] == [100, 62]
    # The embed's version too: a new answer, not a 304.
    url = reverse("tournaments:embed_bracket", args=[t.slug])
    again = client.get(url, HTTP_IF_NONE_MATCH=embed.headers["ETag"])
    assert again.status_code == 200 and "100–62 of " in again.text


def test_the_notes_are_in_the_pages_language(organizer, client):
    t, semis = semi_finals(organizer)
    one, two = semis.tables.order_by("number")
    scoring.deal_record(match=one.match, deal=WIN_0)
    services.table_decide(table=two, kind=Adjustment.Kind.FORFEIT, winner=0, scores=[1000, 0],
                          reason="left early", user=organizer)  # fmt: skip
    text = client.get(reverse("tournaments:bracket", args=[t.slug]), HTTP_ACCEPT_LANGUAGE="el").text
    notes = re.findall(r'data-testid="bracket-note">([^<]*)<', text)
    assert notes == [f"100–62 από {one.match.target}", "Εκ παραιτήσεως"]
