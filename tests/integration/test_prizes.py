"""The prize-giving (tournaments/prizes.py): the organizer's editor and its refusals, edited lines kept
when the pot changes, categories and their winners, the public prize list, the certificates, the
exports' prize fields, the audit."""

import csv
import io
import json
import re

import pytest
from django.urls import reverse

from scoring import services as scoring
from tournaments import prizes, services
from tournaments.models import PlacePrize, PrizeCategory, PrizeSettings, Tournament

pytestmark = pytest.mark.django_db(transaction=True)

WIN_0 = {"maker": 0, "card_points": [90, 62], "last_trick": 0}


def win(cards: int) -> dict:
    """A deal side 0 makes with ``cards`` card points (and the last trick): cards + 10 v 152 − cards."""
    return {"maker": 0, "card_points": [cards, 152 - cards], "last_trick": 0}


APART = [110, 100, 90]  # 120 v 42, 110 v 52, 100 v 62: six teams the points rank 1 to 6
SECOND_AND_THIRD_TIED = [110, 90, 90]  # 120 v 42, 100 v 62 twice: ranks 1, 2, 2, 4, 4, 6


@pytest.fixture
def organizer(django_user_model):
    return django_user_model.objects.create_user(username="org", password="pw-org-12345")


def finished(organizer, teams=6, cards=APART):
    """A concours of one round, finished: table n's side 0 makes ``cards[n - 1]`` card points."""
    t = services.tournament_create(
        organizer=organizer, name="Club night", swiss_rounds=1, deals_per_match=1, format="concours"
    )
    for i in range(teams):
        services.entry_register(tournament=t, name=f"Team {i + 1}", players=[f"P{i}a", f"P{i}b"])
    t = services.tournament_start(tournament=t)
    rnd = services.round_start(rnd=services.round_generate(tournament=t))
    for table in rnd.tables.exclude(match=None).order_by("number"):
        scoring.deal_record(match=table.match, deal=win(cards[(table.number - 1) % len(cards)]))
    services.standings_refresh(tournament_id=t.pk)
    t = Tournament.objects.get(pk=t.pk)
    if t.status != Tournament.Status.FINISHED:
        services.tournament_finish(tournament=t, reason="Done", in_play="totals", user=organizer)
        t = Tournament.objects.get(pk=t.pk)
    return t


@pytest.fixture
def event(organizer):
    return finished(organizer)


def text(response):
    return re.sub(r"\s+", " ", response.content.decode()).replace("\u00a0", " ")


def edit(client, t, **data):
    return client.post(reverse("tournaments:prizes_edit", args=[t.slug]), data)


SPLIT = {"action": "split", "pot": "437", "percentages": "40 25 15 12 8", "rounding": "unit", "currency": "€"}


def test_only_the_organizer_opens_the_editor(client, event, django_user_model):
    url = reverse("tournaments:prizes_edit", args=[event.slug])
    assert client.get(url).status_code == 302  # to the sign-in page
    client.force_login(django_user_model.objects.create_user(username="x", password="pw-x-1234567"))
    assert client.get(url).status_code == 404
    assert edit(client, event, **SPLIT).status_code == 404
    assert not PrizeSettings.objects.exists()


def test_the_pot_is_split_and_shown_on_the_editor_and_the_prize_list(client, organizer, event):
    client.force_login(organizer)
    response = edit(client, event, **SPLIT)
    assert response.status_code == 302
    found = PrizeSettings.objects.get(tournament=event)
    assert (found.pot_cents, found.percentages, found.rounding) == (
        43700,
        ["40", "25", "15", "12", "8"],
        "unit",
    )
    page = text(client.get(reverse("tournaments:prizes_edit", args=[event.slug])))
    assert "100 % of the pot is shared out." in page
    listed = prizes.prize_list(tournament=event)
    assert [p["amount"] for p in listed["places"]] == [17700, 10900, 6500, 5200, 3400]
    assert listed["final"] is True
    ranking = client.get(reverse("tournaments:prizes", args=[event.slug]))
    page = text(ranking)
    assert 'data-testid="prize-list"' in page
    first = listed["places"][0]["team"]
    assert first["name"] == event.standings.ranking[0]["team"]
    row = page.split('data-testid="prize-place-1"')[1].split("</tr>")[0]
    assert first["name"] in row and "177 €" in row and f"{listed['places'][0]['points']}" in row
    assert "34 €" in page.split('data-testid="prize-place-5"')[1].split("</tr>")[0]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"percentages": "60 50"}, "The percentages add up to 110 %: at most 100 % in all."),
        ({"percentages": "40 -5"}, "A percentage is never negative."),
        ({"percentages": "40 abc"}, "“abc” is not a percentage: write numbers such as 40 25 15."),
        ({"percentages": "30 20 15 10 10 10 5"}, "7 places have a share but only 6 teams are entered."),
        ({"percentages": "33.333"}, "A percentage has at most two decimals."),
        ({"pot": "lots"}, "The pot is an amount, such as 437 or 437.50."),
        ({"currency": ""}, "This field is required."),
    ],
)
def test_the_editor_refuses_a_bad_split_with_a_clear_message(client, organizer, event, change, message):
    client.force_login(organizer)
    response = edit(client, event, **{**SPLIT, **change})
    assert response.status_code == 422
    assert message in text(response)
    assert not PrizeSettings.objects.exists()


def test_percentages_under_100_say_what_is_left_unassigned(client, organizer, event):
    client.force_login(organizer)
    edit(client, event, **{**SPLIT, "percentages": "50 30"})
    page = text(client.get(reverse("tournaments:prizes_edit", args=[event.slug])))
    assert "80 % of the pot is shared out." in page
    assert "87.40 € of the pot is not assigned to any place." in page
    assert prizes.prize_list(tournament=event)["unassigned"] == 8740


def test_an_edited_line_is_kept_as_edited_when_the_pot_changes(client, organizer, event):
    client.force_login(organizer)
    edit(client, event, **SPLIT)
    lines = {
        "action": "lines",
        "text_1": "Cup",
        "amount_1": "",
        "text_2": "",
        "amount_2": "120",
        "text_6": "A bottle of tsipouro",
        "amount_6": "",
    }
    assert edit(client, event, **lines).status_code == 302
    listed = prizes.prize_list(tournament=event)["places"]
    assert [(p["position"], p["amount"], p["text"], p["edited"]) for p in listed] == [
        (1, 17700, "Cup", False),
        (2, 12000, "", True),
        (3, 6500, "", False),
        (4, 5200, "", False),
        (5, 3400, "", False),
        (6, None, "A bottle of tsipouro", False),
    ]
    edit(
        client, event, **{**SPLIT, "pot": "500"}
    )  # a bigger pot: the computed lines follow, not the edited one
    listed = prizes.prize_list(tournament=event)["places"]
    assert [p["amount"] for p in listed[:3]] == [20000, 12000, 7500]
    assert listed[1]["computed"] == 12500
    # Emptied, the amount is the split's again.
    edit(client, event, action="lines", text_2="", amount_2="")
    assert prizes.prize_list(tournament=event)["places"][1]["amount"] == 12500
    assert not PlacePrize.objects.filter(place=2).exists()


def test_a_bad_line_is_refused_and_nothing_is_saved(client, organizer, event):
    client.force_login(organizer)
    response = edit(client, event, action="lines", text_1="Cup", amount_1="", text_2="", amount_2="12x")
    assert response.status_code == 422
    assert "Place 2: the amount is a number, such as 50 or 50.00." in text(response)
    response = edit(client, event, action="lines", text_1="Cup", amount_1="", text_9="Ham", amount_9="")
    assert response.status_code == 422 and "Place 9: only 6 teams are entered." in text(response)
    assert not PlacePrize.objects.exists()


def test_categories_are_added_with_winners_by_number_or_name_edited_and_deleted(client, organizer, event):
    client.force_login(organizer)
    entries = {e.number: e for e in event.entries.all()}
    response = edit(
        client,
        event,
        **{
            "action": "category_add",
            "new-name": "Best mixed team",
            "new-text": "Flowers",
            "new-amount": "20",
            "new-winners": "3, team 5",
        },
    )
    assert response.status_code == 302
    category = PrizeCategory.objects.get()
    assert set(category.winners.all()) == {entries[3], entries[5]}
    assert category.amount_cents == 2000
    listed = prizes.prize_list(tournament=event)["categories"]
    assert listed[0]["name"] == "Best mixed team"
    assert [w["number"] for w in listed[0]["winners"]] == [3, 5]
    assert listed[0]["winners"][0]["players"] == ["P2a", "P2b"]
    page = text(client.get(reverse("tournaments:prizes", args=[event.slug])))
    section = page.split('data-testid="prize-categories"')[1]
    assert "Best mixed team" in section and "Team 3" in section and "20 €" in section and "Flowers" in section

    prefix = f"c{category.pk}"
    edit(
        client,
        event,
        **{
            "action": "category_edit",
            "category": category.pk,
            f"{prefix}-name": "Best juniors",
            f"{prefix}-text": "",
            f"{prefix}-amount": "",
            f"{prefix}-winners": "Team 1",
        },
    )
    category.refresh_from_db()
    assert (category.name, category.amount_cents) == ("Best juniors", None)
    assert list(category.winners.all()) == [entries[1]]
    edit(client, event, action="category_delete", category=category.pk)
    assert not PrizeCategory.objects.exists()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"new-name": "Best pair", "new-winners": "Nobody"}, "No team is called or numbered “Nobody”."),
        ({"new-name": "Best pair", "new-winners": "99"}, "No team is called or numbered “99”."),
        (
            {"new-name": "Best pair", "new-winners": "Team"},
            "“Team” matches more than one team: type its number.",
        ),
        ({"new-name": "", "new-winners": "1"}, "This field is required."),
        ({"new-name": "Best pair", "new-amount": "much"}, "The amount is a number, such as 50 or 50.00."),
    ],
)
def test_a_bad_category_is_refused_with_a_clear_message(client, organizer, event, data, message):
    client.force_login(organizer)
    response = edit(client, event, action="category_add", **data)
    assert response.status_code == 422
    assert message in text(response)
    assert not PrizeCategory.objects.exists()


def test_two_categories_cannot_share_a_name(organizer, event):
    prizes.prize_category_save(tournament=event, name="Best pair")
    with pytest.raises(services.TournamentError, match="already a category called"):
        prizes.prize_category_save(tournament=event, name="best pair")


def test_the_certificates_one_page_per_prize(client, organizer, event):
    prizes.prizes_update(tournament=event, pot_cents=30000, percentages=[50, 30, 20], rounding="ten")
    prizes.prize_lines_update(tournament=event, lines=[(1, "The cup", None)])
    entries = {e.number: e for e in event.entries.all()}
    prizes.prize_category_save(
        tournament=event, name="Best mixed team", text="Flowers", winners=[entries[4], entries[6]]
    )
    response = client.get(reverse("tournaments:certificates", args=[event.slug]))
    assert response.status_code == 200
    page = text(response)
    assert page.count('data-testid="certificate"') == 5  # three places, two winners of the category
    first = page.split('data-testid="certificate"')[1]
    winner = event.standings.ranking[0]
    assert "Club night" in first and "Place 1" in first and winner["team"] in first
    assert " & ".join(winner["players"]) in first and "150 € · The cup" in first
    last = page.split('data-testid="certificate"')[-1]
    assert "Best mixed team" in last and "Team 6" in last and "Flowers" in last
    assert "tournaments/certificates.css" in page


def test_a_private_tournaments_certificates_are_not_found(client, organizer):
    t = services.tournament_create(organizer=organizer, name="Private", public=False)
    assert client.get(reverse("tournaments:certificates", args=[t.slug])).status_code == 404


def test_the_prize_list_before_the_end_follows_the_standings(organizer):
    t = services.tournament_create(organizer=organizer, name="Early", swiss_rounds=2, deals_per_match=1)
    for i in range(4):
        services.entry_register(tournament=t, name=f"Team {i + 1}", players=[f"P{i}a", f"P{i}b"])
    prizes.prizes_update(tournament=t, pot_cents=10000, percentages=[60, 40], rounding="unit")
    listed = prizes.prize_list(tournament=t)
    assert listed["final"] is False
    assert [(p["position"], p["team"], p["amount"]) for p in listed["places"]] == [
        (1, None, 6000),
        (2, None, 4000),
    ]


def test_the_exports_carry_the_prizes(client, organizer, event):
    prizes.prizes_update(tournament=event, pot_cents=43700, percentages=[40, 25, 15, 12, 8], rounding="unit")
    prizes.prize_lines_update(tournament=event, lines=[(1, "Cup", None)])
    entries = {e.number: e for e in event.entries.all()}
    prizes.prize_category_save(tournament=event, name="Best juniors", winners=[entries[2]])
    client.force_login(organizer)
    body = b"".join(client.get(f"/api/v1/tournaments/{event.slug}/export/").streaming_content)
    exported = json.loads(body)["prizes"]
    assert [p["amount"] for p in exported["places"]] == [17700, 10900, 6500, 5200, 3400]
    assert exported["places"][0]["text"] == "Cup" and exported["currency"] == "€"
    assert exported["categories"][0]["winners"][0]["number"] == 2
    rows = list(
        csv.DictReader(
            io.StringIO(client.get(f"/api/v1/tournaments/{event.slug}/ranking.csv").content.decode())
        )
    )
    assert [r["prize_amount"] for r in rows] == ["177.00", "109.00", "65.00", "52.00", "34.00", ""]
    assert rows[0]["prize"] == "Cup"
    won = [r for r in rows if r["special_prizes"]]
    assert [(r["team"], r["special_prizes"]) for r in won] == [("Team 2", "Best juniors")]


def test_the_prizes_are_audited_with_who_changed_them(client, organizer, event):
    client.force_login(organizer)
    edit(client, event, **SPLIT)
    edit(client, event, action="lines", text_1="Cup", amount_1="200")
    found = PrizeSettings.objects.get()
    assert found.history.first().history_user == organizer
    assert PlacePrize.objects.get().history.first().history_user == organizer


def test_the_manage_page_leads_to_the_prizes_editor_before_and_after_the_end(client, organizer, event):
    client.force_login(organizer)
    editor = reverse("tournaments:prizes_edit", args=[event.slug])
    assert f'href="{editor}"' in text(client.get(reverse("tournaments:manage", args=[event.slug])))
    running = services.tournament_create(organizer=organizer, name="Next week")
    editor = reverse("tournaments:prizes_edit", args=[running.slug])
    assert f'href="{editor}"' in text(client.get(reverse("tournaments:manage", args=[running.slug])))


# A tie the tie-breaks cannot break (issue 27) ---------------------------------------------------------


@pytest.fixture
def tied(organizer):
    """Six teams ranked 1, 2, 2, 4, 4, 6: second and third level on every tie-break, fourth and fifth
    too; a pot of 437 € at 40/25/15/12/8 %, down to the euro (177, 109, 65, 52, 34)."""
    t = finished(organizer, cards=SECOND_AND_THIRD_TIED)
    assert [row["rank"] for row in t.standings.ranking] == [1, 2, 2, 4, 4, 6]
    prizes.prizes_update(tournament=t, pot_cents=43700, percentages=[40, 25, 15, 12, 8], rounding="unit")
    return t


def places(t):
    return [(p["label"], p["amount"], p["pooled"]) for p in prizes.prize_list(tournament=t)["places"]]


def test_tied_teams_share_their_place_and_the_money_of_the_places_they_hold(tied):
    listed = prizes.prize_list(tournament=tied)
    # (109 + 65) / 2 = 87 € each for the second and third; (52 + 34) / 2 = 43 € each for the fourth
    # and fifth; the first's 177 € alone. Nothing of the pot lost or made.
    assert places(tied) == [
        ("1", 17700, False),
        ("=2", 8700, True),
        ("=2", 8700, True),
        ("=4", 4300, True),
        ("=4", 4300, True),
    ]
    assert [p["computed"] for p in listed["places"]] == [17700, 10900, 6500, 5200, 3400]
    assert [p["tied"] for p in listed["places"]] == [False, True, True, True, True]
    assert [p["rank"] for p in listed["places"]] == [1, 2, 2, 4, 4] and listed["shared"] is True
    ranking = tied.standings.ranking
    assert [p["team"]["entry"] for p in listed["places"]] == [row["entry"] for row in ranking[:5]]
    assert sum(p["amount"] for p in listed["places"]) == 43700


def test_the_cent_the_rounding_leaves_goes_to_the_first_of_the_tied_teams(tied):
    # 438 €: 177, 109, 65, 52, 35; fourth and fifth share 87 €: 43 € each, the euro left to the fourth.
    prizes.prizes_update(tournament=tied, pot_cents=43800)
    assert places(tied) == [
        ("1", 17700, False),
        ("=2", 8700, True),
        ("=2", 8700, True),
        ("=4", 4400, True),
        ("=4", 4300, True),
    ]
    assert prizes.prize_pool([5200, 3500], "unit") == [4400, 4300]


def test_an_amount_the_organizer_typed_stays_as_typed_and_a_prize_in_words_stays_per_place(tied):
    prizes.prize_lines_update(tournament=tied, lines=[(2, "The silver cup", None), (3, "Medals", None)])
    listed = prizes.prize_list(tournament=tied)["places"]
    assert [(p["label"], p["amount"], p["text"]) for p in listed[1:3]] == [
        ("=2", 8700, "The silver cup"),
        ("=2", 8700, "Medals"),
    ]
    prizes.prize_lines_update(tournament=tied, lines=[(3, "Medals", 10000)])
    assert places(tied)[1:3] == [("=2", 10900, False), ("=2", 10000, False)]  # nothing left to pool


def test_a_tie_across_the_last_prize_shares_it_with_the_place_after(organizer):
    t = finished(organizer, cards=[90, 100, 100])  # 110 v 52 twice, 100 v 62: ranks 1, 1, 3, 4, 5, 5
    assert [row["rank"] for row in t.standings.ranking] == [1, 1, 3, 4, 5, 5]
    prizes.prizes_update(tournament=t, pot_cents=43700, percentages=[40, 25, 15, 12, 8], rounding="unit")
    # (177 + 109) / 2 = 143 € each for the two first; the fifth's 34 € shared with the sixth: 17 € each.
    assert places(t) == [
        ("=1", 14300, True),
        ("=1", 14300, True),
        ("3", 6500, False),
        ("4", 5200, False),
        ("=5", 1700, True),
        ("=5", 1700, True),
    ]


def test_the_prize_page_the_certificates_and_the_exports_show_the_shared_place(client, organizer, tied):
    page = text(client.get(reverse("tournaments:prizes", args=[tied.slug])))
    for place in (2, 3):
        row = page.split(f'data-testid="prize-place-{place}"')[1].split("</tr>")[0]
        assert 'data-testid="prize-label">=2<' in row and "87 €" in row
    assert 'data-testid="prize-label">1<' in page.split('data-testid="prize-place-1"')[1].split("</tr>")[0]
    assert 'data-testid="prize-shared"' in page
    podium = page.split('data-testid="podium"')[1].split("</ol>")[0]
    assert re.findall(r'data-testid="podium-place">([^<]*)<', podium) == ["1", "=2", "=2"]
    certificates = text(client.get(reverse("tournaments:certificates", args=[tied.slug])))
    assert certificates.count("Place =2") == 2 and certificates.count("Place =4") == 2
    assert certificates.count("87 €") == 2
    client.force_login(organizer)
    body = b"".join(client.get(f"/api/v1/tournaments/{tied.slug}/export/").streaming_content)
    exported = json.loads(body)["prizes"]["places"]
    assert [(p["label"], p["amount"]) for p in exported] == [
        ("1", 17700), ("=2", 8700), ("=2", 8700), ("=4", 4300), ("=4", 4300),
    ]  # fmt: skip
    ranking = client.get(f"/api/v1/tournaments/{tied.slug}/ranking.csv").content.decode()
    rows = list(csv.DictReader(io.StringIO(ranking)))
    assert [r["prize_amount"] for r in rows] == ["177.00", "87.00", "87.00", "43.00", "43.00", ""]


def test_without_a_tie_nothing_is_pooled_and_no_note_is_shown(client, event):
    prizes.prizes_update(tournament=event, pot_cents=43700, percentages=[40, 25, 15, 12, 8], rounding="unit")
    assert places(event) == [
        ("1", 17700, False), ("2", 10900, False), ("3", 6500, False), ("4", 5200, False), ("5", 3400, False),
    ]  # fmt: skip
    assert prizes.prize_list(tournament=event)["shared"] is False
    page = text(client.get(reverse("tournaments:prizes", args=[event.slug])))
    assert 'data-testid="prize-shared"' not in page and "=" not in "".join(
        re.findall(r'data-testid="podium-place">([^<]*)<', page)
    )


def test_the_big_screens_prize_panel_shows_the_shared_place(tied):
    from tournaments.screen import screen_state

    panel = screen_state(Tournament.objects.get(pk=tied.pk))["prizes"]["places"]
    assert [(p["place"], p["amount"].replace("\u00a0", " ")) for p in panel] == [
        ("1", "177 €"), ("=2", "87 €"), ("=2", "87 €"), ("=4", "43 €"), ("=4", "43 €"),
    ]  # fmt: skip
