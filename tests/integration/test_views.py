"""The tablet pages through Django's test client: with and without htmx."""

import re
import uuid

import pytest
from django.urls import reverse

from scoring import selectors, services
from scoring.models import Deal, Match
from tests.factories import TEAMS, made

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def referee(client, django_user_model):
    """These tests are about the pages, not about who may use them (tests/integration/test_keepers.py):
    the client is a superuser, who may keep every match."""
    client.force_login(django_user_model.objects.create_superuser("referee", password="pw-referee-1"))


def deal_post(**fields):
    data = {"client_key": str(uuid.uuid4()), "maker": "0", "points_team": "0", "card_points": "90",
            "last_trick": "0"}  # fmt: skip
    data.update({k: str(v) for k, v in fields.items()})
    return data


def totals(match):
    return selectors.match_sheet(match=Match.objects.get(pk=match.pk)).sheet.totals


def test_home_lists_matches(client, match):
    page = client.get(reverse("scoring:home"))
    assert page.status_code == 200
    assert "Kafeneio A – Kafeneio B" in page.text


def test_help_page_explains_mesa_and_capo(client):
    page = client.get(reverse("scoring:help"))
    assert "Mesa" in page.text and "capo" in page.text


def test_start_a_match_from_the_form(client, db):
    form = {
        "team0_name": "Kafeneio A", "team0_player_a": "Nikos", "team0_player_b": "Eleni",
        "team1_name": "Kafeneio B", "team1_player_a": "Giorgos", "team1_player_b": "Maria",
        "first_dealer": "2", "target": "751", "ties_hang": "on",
    }  # fmt: skip
    response = client.post(reverse("scoring:match_new"), form)
    match = Match.objects.get()
    assert response.status_code == 302
    assert response.url == reverse("scoring:match", args=[match.pk])
    assert (match.first_dealer, match.target, match.options["ties_hang"]) == (2, 751, True)
    sheet = client.get(response.url).text
    assert "Eleni" in sheet  # seat 2 deals first
    assert "ties hang" in sheet


def test_start_a_match_with_an_earlier_team(client, match):
    form = {"team0_pick": str(match.team1.pk), "team1_name": "New", "team1_player_a": "Kostas",
            "team1_player_b": "Sofia", "first_dealer": "0", "target": "1000"}  # fmt: skip
    assert client.post(reverse("scoring:match_new"), form).status_code == 302
    assert Match.objects.latest("pk").team0 == match.team1


def test_start_form_errors_are_shown_and_nothing_is_saved(client, db):
    form = {"team0_name": "A", "team0_player_a": "Nikos", "team0_player_b": "Eleni", "team1_name": "B",
            "team1_player_a": "Nikos", "team1_player_b": "", "first_dealer": "0", "target": "0"}  # fmt: skip
    response = client.post(reverse("scoring:match_new"), form)
    assert response.status_code == 422
    assert "Type a player" in response.text
    assert "greater than or equal to 1" in response.text
    assert Match.objects.count() == 0
    form.update(team1_player_b="Maria", target="1000")
    response = client.post(reverse("scoring:match_new"), form)
    assert response.status_code == 422
    assert "a player sits only once" in response.text
    assert Match.objects.count() == 0


def test_sheet_shows_totals_dealer_and_target(client, match):
    services.deal_record(match=match, deal=made(melds=(("seq3",), ())))
    page = client.get(reverse("scoring:match", args=[match.pk])).text
    assert re.search(r'data-testid="total-0">120<', page)
    assert re.search(r'data-testid="total-1">62<', page)
    assert "880 to go" in page
    assert re.search(r'data-testid="next-dealer">Giorgos<', page)


def test_record_a_deal_without_javascript_redirects_to_the_sheet(client, match):
    response = client.post(reverse("scoring:deal_create", args=[match.pk]), deal_post(melds0_seq3=1))
    assert response.status_code == 302
    assert totals(match) == (120, 62)


def test_record_a_deal_with_htmx_returns_the_parts_it_changed(client, match):
    """Not the whole match area: the new row, the scoreboard, a fresh pad, out of band
    (tests/integration/test_deal_path.py has the rest)."""
    response = client.post(reverse("scoring:deal_create", args=[match.pk]), deal_post(), **HTMX)
    assert response.status_code == 200
    assert response["HX-Reswap"] == "none"
    assert 'id="match-area"' not in response.text and "<html" not in response.text
    assert re.search(r'id="scoreboard"[^>]*hx-swap-oob="true"', response.text)
    assert re.search(r'data-testid="total-0">100<', response.text)


def test_the_number_typed_can_be_the_other_teams(client, match):
    client.post(reverse("scoring:deal_create", args=[match.pk]), deal_post(points_team=1, card_points=40))
    assert Deal.objects.get().data["card_points"] == [112, 40]


def test_capo_needs_no_number(client, match):
    post = deal_post(last_trick="capo0", card_points="")
    client.post(reverse("scoring:deal_create", args=[match.pk]), post)
    assert Deal.objects.get().data == {"maker": 0, "card_points": [152, 0], "capot": 0, "melds": [[], []]}
    assert totals(match) == (242, 0)


def test_capo_with_a_contradicting_number_is_refused(client, match):
    post = deal_post(last_trick="capo0", card_points="100")
    response = client.post(reverse("scoring:deal_create", args=[match.pk]), post, **HTMX)
    assert response.status_code == 422
    assert "With capo, team 1 has all 152" in response.text
    assert Deal.objects.count() == 0


def test_thrown_in_is_one_tap(client, match):
    post = {"client_key": str(uuid.uuid4()), "thrown_in": "true"}
    client.post(reverse("scoring:deal_create", args=[match.pk]), post)
    sheet = selectors.match_sheet(match=match).sheet
    assert [r.result for r in sheet.rows] == ["thrown_in"]
    assert sheet.next_dealer == 1


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"card_points": "153"}, "between 0 and 152"),
        ({"card_points": ""}, "Type one team&#x27;s card points"),
        ({"maker": ""}, "Tap the team that made trumps"),
        ({"last_trick": ""}, "Tap the team that won the last trick"),
        ({"melds0_mpourloto": "1", "melds1_mpourloto": "1"}, "only one mpourloto"),
        ({"melds0_seq3": "4", "melds0_seq4": "1"}, "at most 4 melds"),
    ],
    ids=["too-many-points", "no-points", "no-maker", "no-last-trick", "two-mpourloto", "five-melds"],
)
def test_bad_deal_gets_a_clear_message_and_changes_nothing(client, match, fields, message):
    services.deal_record(match=match, deal=made())
    response = client.post(reverse("scoring:deal_create", args=[match.pk]), deal_post(**fields), **HTMX)
    assert response.status_code == 422
    assert message in response.text
    assert Deal.objects.count() == 1
    assert totals(match) == (100, 62)


def test_resent_form_records_once(client, match):
    post = deal_post()
    for _ in range(3):
        client.post(reverse("scoring:deal_create", args=[match.pk]), post, **HTMX)
    assert Deal.objects.count() == 1


def test_after_recording_the_form_has_a_new_client_key(client, match):
    post = deal_post()
    response = client.post(reverse("scoring:deal_create", args=[match.pk]), post, **HTMX)
    keys = set(re.findall(r'name="client_key" value="([^"]+)"', response.text))
    assert len(keys) == 1 and post["client_key"] not in keys


def test_preview_shows_what_the_deal_gives(client, match):
    response = client.post(reverse("scoring:deal_preview", args=[match.pk]), deal_post(card_points=70))
    assert "mesa" in response.text
    assert "+0 / +162" in response.text
    assert Deal.objects.count() == 0


def test_undo_takes_back_the_last_deal(client, match):
    services.deal_record(match=match, deal=made())
    services.deal_record(match=match, deal=made(maker=1, cards=(50, 102), last_trick=1))
    response = client.post(reverse("scoring:deal_undo", args=[match.pk]), **HTMX)
    assert response.status_code == 200
    assert totals(match) == (100, 62)


def test_correct_a_deal_on_its_page(client, match, user):
    client.force_login(user)
    deal = services.deal_record(match=match, deal=made())
    url = reverse("scoring:deal_edit", args=[match.pk, deal.pk])
    page = client.get(url).text
    assert 'value="90"' in page  # the typed number, prefilled
    response = client.post(url, deal_post(card_points=60))
    assert response.status_code == 302
    assert totals(match) == (0, 162)
    history = client.get(url).text
    assert "corrected" in history and "recorded" in history and "keeper" in history


def test_bad_correction_is_refused_and_the_deal_stays(client, match):
    deal = services.deal_record(match=match, deal=made())
    response = client.post(reverse("scoring:deal_edit", args=[match.pk, deal.pk]), deal_post(maker=""))
    assert response.status_code == 422
    deal.refresh_from_db()
    assert deal.data == made()


def test_delete_a_deal(client, match):
    deal = services.deal_record(match=match, deal=made())
    response = client.post(reverse("scoring:deal_remove", args=[match.pk, deal.pk]))
    assert response.status_code == 302
    assert totals(match) == (0, 0)
    assert "deleted" in client.get(reverse("scoring:match_history", args=[match.pk])).text


def test_finished_match_shows_the_winner_and_no_form(client):
    match = services.match_create(teams=TEAMS, options={"target": 200})
    services.deal_record(match=match, deal={"maker": 0, "card_points": [152, 0], "capot": 0})
    page = client.get(reverse("scoring:match", args=[match.pk])).text
    assert "Kafeneio A win 242–0" in page
    assert "Record deal" not in page


def test_tie_break_deals_are_marked(client):
    match = services.match_create(teams=TEAMS, options={"target": 150})
    services.deal_record(match=match, deal=made(maker=0, cards=(90, 62), last_trick=0))
    services.deal_record(match=match, deal=made(maker=1, cards=(62, 90), last_trick=1))
    page = client.get(reverse("scoring:match", args=[match.pk])).text
    assert "two tie-break deals" in page
    services.deal_record(match=match, deal=made())
    page = client.get(reverse("scoring:match", args=[match.pk])).text
    assert page.count('title="tie-break deal"') == 1


def test_unknown_match_is_404(client, db):
    assert client.get(reverse("scoring:match", args=[999])).status_code == 404


def test_undo_message_is_shown_in_the_swapped_area(client, match):
    services.deal_record(match=match, deal=made())
    response = client.post(reverse("scoring:deal_undo", args=[match.pk]), **HTMX)
    assert "The last deal was taken back" in response.text
    assert "The last deal was taken back" not in client.get(reverse("scoring:match", args=[match.pk])).text


def test_a_drawn_match_of_fixed_deals(client):
    match = services.match_create(teams=TEAMS, options={"deals": 2})
    services.deal_record(match=match, deal=made(maker=0, cards=(90, 62), last_trick=0))
    services.deal_record(match=match, deal=made(maker=1, cards=(62, 90), last_trick=1))
    page = client.get(reverse("scoring:match", args=[match.pk])).text
    assert "Draw 162–162 after 2 deals" in page
    assert "Mpourloto to 1000 or 2 deals" in page
    assert "Draw" in client.get(reverse("scoring:home")).text


def test_a_deal_entered_on_a_stale_sheet_is_refused_and_kept_on_the_pad(client, match):
    page = client.get(reverse("scoring:match", args=[match.pk])).text
    version = re.search(r'name="version" value="(\d+)"', page).group(1)
    services.deal_record(match=match, deal=made())  # another tablet records a deal meanwhile
    response = client.post(
        reverse("scoring:deal_create", args=[match.pk]), deal_post(card_points=77, version=version), **HTMX
    )
    assert response.status_code == 422
    assert "The sheet changed since this deal was entered" in response.text
    assert 'value="77"' in response.text  # the typed number is still there
    assert re.search(r'data-testid="total-0">100<', response.text)  # the sheet as it is now
    assert Deal.objects.count() == 1
    fresh = re.search(r'name="version" value="(\d+)"', response.text).group(1)
    response = client.post(
        reverse("scoring:deal_create", args=[match.pk]), deal_post(card_points=77, version=fresh), **HTMX
    )
    assert response.status_code == 200
    assert Deal.objects.count() == 2


def test_a_resent_deal_is_not_refused_as_stale(client, match):
    post = deal_post(version=0)
    client.post(reverse("scoring:deal_create", args=[match.pk]), post, **HTMX)
    response = client.post(reverse("scoring:deal_create", args=[match.pk]), post, **HTMX)
    assert response.status_code == 200
    assert Deal.objects.count() == 1
