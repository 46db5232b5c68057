"""The deal pad and the correction page through Django's test client (issue 11): the errors said
beside Record in the pad's order, the contest asked only when needed, the correction's preview of
the whole sheet's new totals, the question before a deal is thrown in, the history's words.
The layout itself is measured in a browser: tests/functional/test_tablet_layout.py."""

import re
import uuid

import pytest
from django.urls import reverse

from scoring import selectors, services
from scoring.forms import DealForm
from scoring.models import Deal, Match
from tests.factories import TEAMS, made

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def keeper(client, match):
    """The client holds the match's table link (a tablet without an account)."""
    from scoring.permissions import SESSION_KEY

    session = client.session
    session[SESSION_KEY] = [match.pk]
    session.save()
    return client


def alert(html: str) -> list[str]:
    """The messages shown beside Record."""
    box = re.search(r'<div class="pad-alert"[^>]*>(.*?)</div>', html, re.S)
    return re.findall(r"<p[^>]*>(.*?)</p>", box.group(1)) if box else []


def test_the_errors_beside_record_follow_the_pad_order(db):
    form = DealForm(
        {"client_key": str(uuid.uuid4()), "maker": "1", "card_points": "90", "melds0_fourJ": "2"},
        ruleset="pilotta",
    )
    assert not form.is_valid()
    assert form.pad_errors == [
        ("bid", "Tap the bid (80, 90, 100 …) or type a higher one."),
        ("suit", "Tap the contract's suit."),
        ("melds", "four Jacks: at most 1"),
        ("last_trick", "Tap the team that won the last trick (or took capot)."),
    ]


def test_a_refused_deal_says_why_beside_record_and_at_the_field(keeper, match):
    response = keeper.post(
        reverse("scoring:deal_create", args=[match.pk]),
        {"client_key": str(uuid.uuid4()), "maker": "0", "points_team": "0", "last_trick": "0"},
        **HTMX,
    )
    assert response.status_code == 422
    html = response.text
    assert alert(html) == ["Type one team&#x27;s card points."]
    assert re.search(r'class="pad-row points-row has-error"', html)
    assert '<p class="error" data-for="card_points">Type one team&#x27;s card points.</p>' in html
    assert not Deal.objects.exists()


def test_the_pad_at_rest_has_no_alert(keeper, match):
    html = keeper.get(reverse("scoring:match", args=[match.pk])).text
    assert re.search(r'<div class="pad-alert" role="alert" data-testid="pad-alert" hidden>', html)
    assert alert(html) == []


@pytest.mark.parametrize(
    ("ruleset", "melds", "needed"),
    [
        ("bulgarian", {"melds0_seq3": 1, "melds1_seq3": 1}, True),  # equal sequences
        ("bulgarian", {"melds0_seq3": 1, "melds1_seq4": 1}, False),  # a longer one wins
        ("bulgarian", {"melds0_four": 1, "melds1_four": 1}, False),  # carrés are no sequence contest
        ("bulgarian", {}, False),
        ("pilotta", {"melds0_seq5": 1, "melds1_four": 1}, True),  # 100 and 100
        ("pilotta", {"melds0_seq4": 1, "melds1_seq3": 1}, False),
    ],
)
def test_the_contest_is_asked_only_when_the_best_melds_are_equal(db, ruleset, melds, needed):
    form = DealForm({"client_key": str(uuid.uuid4()), **melds}, ruleset=ruleset)
    assert form.contest_needed is needed


def test_the_contest_of_mpourloto_needs_the_best_melds_only_option(db):
    data = {"client_key": str(uuid.uuid4()), "melds0_seq3": 1, "melds1_seq3": 1}
    assert DealForm(data, ruleset="mpourloto").contest_needed is False
    assert DealForm(data, ruleset="mpourloto", options={"best_melds_only": True}).contest_needed is True


def test_the_bulgarian_pad_has_one_contract_row(keeper, db, user):
    match = services.match_create(teams=TEAMS, ruleset="bulgarian", created_by=user)
    from scoring.permissions import SESSION_KEY

    session = keeper.session
    session[SESSION_KEY] = [match.pk]
    session.save()
    html = keeper.get(reverse("scoring:match", args=[match.pk])).text
    labels = re.findall(r'<span class="pad-label">([^<]*)</span>', html)
    assert labels.count("Contract") == 1
    assert "Trumps" in labels
    # The sequence contest is in the page (for a pad without JavaScript) but not asked yet.
    assert re.search(r'class="pad-row contest-row" data-field="declarations_winner"', html)


def test_the_correction_preview_gives_the_new_totals_and_saves_nothing(keeper, match):
    first = services.deal_record(match=match, deal=made())  # 100 / 62
    match.refresh_from_db()
    services.deal_record(match=match, deal=made(maker=1, cards=(50, 102), last_trick=1))  # 50 / 112
    match.refresh_from_db()
    assert list(match.totals) == [150, 174]
    url = reverse("scoring:deal_preview", args=[match.pk]) + f"?deal={first.pk}"
    fields = {"client_key": str(uuid.uuid4()), "maker": "0", "points_team": "0", "last_trick": "0"}
    # Deal 1 corrected: 70 + 10 = 80 v 82, a mesa: 0 / 162; the sheet 50 / 274.
    response = keeper.post(url, {**fields, "card_points": "70"}, **HTMX)
    assert "mesa" in response.text
    assert "+0 / +162" in response.text
    assert "Totals once corrected: Kafeneio A 50 · Kafeneio B 274 (now 150 · 174)" in response.text
    match.refresh_from_db()
    assert list(match.totals) == [150, 174]
    assert Deal.objects.get(pk=first.pk).data["card_points"] == [90, 62]
    # The pad's own preview (no ?deal) gives no totals.
    plain = keeper.post(reverse("scoring:deal_preview", args=[match.pk]), {**fields, "card_points": "70"})
    assert "Totals once corrected" not in plain.text


def test_the_correction_preview_says_when_the_result_changes(keeper, db, user):
    match = services.match_create(teams=TEAMS, created_by=user, options={"target": 300})
    from scoring.permissions import SESSION_KEY

    session = keeper.session
    session[SESSION_KEY] = [match.pk]
    session.save()
    first = services.deal_record(match=match, deal=made(cards=(152, 0)))  # 162 / 0
    match.refresh_from_db()
    services.deal_record(match=match, deal=made(cards=(152, 0)))  # 324 / 0: won
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    url = reverse("scoring:deal_preview", args=[match.pk]) + f"?deal={first.pk}"
    fields = {"client_key": str(uuid.uuid4()), "maker": "0", "points_team": "0", "last_trick": "0"}
    response = keeper.post(url, {**fields, "card_points": "90"})  # 100 + 162 = 262: not yet
    assert "the match would no longer be over" in response.text


def test_the_correction_preview_of_a_deleted_deal_is_not_found(keeper, match):
    deal = services.deal_record(match=match, deal=made())
    services.deal_delete(deal=deal)
    url = reverse("scoring:deal_preview", args=[match.pk]) + f"?deal={deal.pk}"
    assert keeper.post(url, {"client_key": str(uuid.uuid4())}).status_code == 404


def test_the_correction_page_asks_before_a_played_deal_is_thrown_in(keeper, match):
    played = services.deal_record(match=match, deal=made())
    match.refresh_from_db()
    thrown = services.deal_record(match=match, deal={"thrown_in": True})
    html = keeper.get(reverse("scoring:deal_edit", args=[match.pk, played.pk])).text
    assert 'data-question="Deal 1 was played: make it “all passed, thrown in”?' in html
    assert f'hx-post="{reverse("scoring:deal_preview", args=[match.pk])}?deal={played.pk}"' in html
    html = keeper.get(reverse("scoring:deal_edit", args=[match.pk, thrown.pk])).text
    assert "data-question=" not in html.split('id="thrown-in-form"')[1].split(">")[0]


def test_the_history_names_the_teams_and_the_table_tablet(keeper, match, user):
    services.deal_record(
        match=match, deal=made(maker=1, cards=(50, 102), last_trick=1, melds=((), ("seq3",)))
    )
    keeper.force_login(user)
    deal = match.deals.get()
    services.deal_correct(deal=deal, data=made(maker=1, cards=(52, 100), last_trick=1), user=user)
    html = keeper.get(reverse("scoring:match_history", args=[match.pk])).text
    assert "table tablet" in html and "anonymous" not in html
    assert "keeper" in html  # the account that corrected
    assert "Trumps: Kafeneio B · cards 52–100 · last trick: Kafeneio B · melds – / –" in html
    assert "Trumps: Kafeneio B · cards 50–102 · last trick: Kafeneio B · melds – / 20" in html
    assert "team 1" not in html and "team 2" not in html


def test_the_sheet_shows_the_newest_deal_first_and_the_print_keeps_playing_order(keeper, match):
    for cards in ((90, 62), (100, 52), (110, 42)):
        services.deal_record(match=match, deal=made(cards=cards))
        match.refresh_from_db()
    sheet = keeper.get(reverse("scoring:match", args=[match.pk])).text
    assert re.findall(r'data-testid="deal-row" data-number="(\d+)"', sheet) == ["3", "2", "1"]
    assert re.search(r'class="result-made newest" data-testid="deal-row" data-number="3"', sheet)
    printed = keeper.get(reverse("scoring:match_print", args=[match.pk])).text
    assert printed.index("90–62") < printed.index("100–52") < printed.index("110–42")
    assert selectors.match_sheet(match=match).sheet.totals == (330, 156)
