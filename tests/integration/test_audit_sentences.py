"""The audit page reads as sentences a director understands (issue 26, "After the last round"):
"21:42 table 3 (tablet): deal 7 corrected, 104–48 → 84–68", in local time, grouped by round, with
who acted: the organizer, an account by its name, a table's tablet."""

import datetime as dt
import re
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse
from django.utils import timezone

from scoring import services as scoring
from scoring.models import Deal
from tournaments import services
from tournaments.audit import audit_page
from tournaments.models import Adjustment, DirectorCall, Entry, Table, Tournament

pytestmark = pytest.mark.django_db

WIN_0 = {"maker": 0, "card_points": [90, 62], "last_trick": 0}  # 100 v 62
WIN_1 = {"maker": 1, "card_points": [62, 90], "last_trick": 1}  # 62 v 100


@pytest.fixture
def organizer(django_user_model):
    return django_user_model.objects.create_user(username="org", password="pw-org-12345")


@pytest.fixture
def assistant(django_user_model):
    return django_user_model.objects.create_user(username="eleni", password="pw-eleni-12345")


def evening(organizer, teams=4, rounds=2):
    t = services.tournament_create(organizer=organizer, name="Friday", swiss_rounds=rounds, deals_per_match=1)
    for i in range(teams):
        services.entry_register(
            tournament=t, name=f"Team {i + 1}", players=[f"P{i}a", f"P{i}b"], user=organizer
        )
    return t


def sentences(page) -> list[str]:
    return [f"{line.local:%H:%M} {line.sentence}" for g in page["groups"] for line in g["lines"]]


def groups(page) -> dict[str, list[str]]:
    return {g["title"]: [line.sentence for line in g["lines"]] for g in page["groups"]}


def entry(t, number) -> Entry:
    return t.entries.get(number=number)


def test_each_kind_of_change_is_a_sentence_with_who_did_it(organizer, assistant):
    t = evening(organizer)
    kyma = entry(t, 4)
    services.entry_edit(entry=entry(t, 3), name="Kima", user=organizer)
    services.entry_edit(entry=entry(t, 3), name="Kyma", user=organizer)  # a typo, put right
    services.checkin_open_set(tournament=t, open=True, user=organizer)
    services.checkin_self(token=entry(t, 1).checkin_token)  # the team's own link
    for e in t.entries.exclude(number=1):
        services.entry_set_status(entry=e, status=Entry.Status.CHECKED_IN, user=organizer)
    t = services.tournament_start(tournament=t, user=organizer)
    rnd = services.round_generate(tournament=t, user=organizer)
    services.round_swap(rnd=rnd, first=(1, 1), second=(2, 1), user=organizer)
    rnd = services.round_start(rnd=rnd, user=organizer)
    one, two = rnd.tables.order_by("number")
    deal = scoring.deal_record(match=one.match, deal=WIN_0)  # the tablet: no account
    scoring.deal_correct(deal=deal, data=WIN_1)  # corrected on the tablet
    other = scoring.deal_record(match=two.match, deal=WIN_0, user=assistant)
    scoring.deal_correct(deal=other, data=WIN_1, user=assistant)
    services.penalty_add(tournament=t, entry=kyma, points=50, reason="late", user=organizer)
    paper = Adjustment(tournament=t, kind=Adjustment.Kind.PAPER, table=two, winner=0, scores=[1012, 874],
                       reason="paper sheet", created_by=organizer)  # fmt: skip
    paper._history_user = organizer
    paper.save()
    call = DirectorCall.objects.create(tournament=t, table=one)
    call.acknowledged_at, call.acknowledged_by = timezone.now(), organizer
    call.save()
    services.entry_set_status(entry=kyma, status=Entry.Status.WITHDRAWN, user=organizer, reason="ill")
    services.entry_reinstate(entry=kyma, user=organizer)

    said = "\n".join(line.sentence for g in audit_page(tournament=t)["groups"] for line in g["lines"])
    assert "Team 4 (No. 4) entered (" in said  # who: entry_register keeps no user (see notes)
    assert "entry renamed Team 3 → Kima (the organizer)" in said
    assert "entry renamed Kima → Kyma (the organizer)" in said
    assert "check-in opened (the organizer)" in said
    assert "Team 1 (No. 1) checked in (the team's own link)" in said
    assert "Team 4 (No. 4) checked in (the organizer)" in said
    assert "tournament started (the organizer)" in said
    assert "round 1 drawn (the organizer)" in said
    assert "round 1 started (the organizer)" in said
    assert re.search(r"tables 1 ↔ 2 swapped: 1: .+ – .+; 2: .+ – .+ \(the organizer\)", said)
    assert "table 1 (tablet): deal 1 corrected, 100–62 → 62–100" in said
    assert "table 2: deal 1 recorded, 100–62 (eleni)" in said
    assert "table 2: deal 1 corrected, 100–62 → 62–100 (eleni)" in said
    assert "table 1 (tablet): match finished, 100–62" in said
    assert "penalty to Team 4 (No. 4): −50 points, ‘late’ (the organizer)" in said
    assert "table 2: result from the paper sheet 1012–874 (the organizer)" in said
    assert "table 1 (tablet): called the director" in said
    assert "call from table 1 answered (the organizer)" in said
    assert "Team 4 (No. 4) withdrawn, ‘ill’ (the organizer)" in said
    assert "Team 4 (No. 4) reinstated (the organizer)" in said
    assert "table 1 (tablet): deal 1 recorded" not in said  # ordinary play is on the match's history
    assert "reinstated (reinstated)" not in said


def test_a_swap_made_anyway_says_the_organizers_word(organizer):
    t = services.tournament_start(tournament=evening(organizer, teams=4, rounds=3), user=organizer)
    first = services.round_start(rnd=services.round_generate(tournament=t, user=organizer), user=organizer)
    for table in first.tables.all():
        scoring.deal_record(match=table.match, deal=WIN_0)
    rnd = services.round_generate(tournament=t, user=organizer)
    services.round_swap(rnd=rnd, first=(1, 1), second=(2, 0), user=organizer, force=True)
    said = groups(audit_page(tournament=t))["Round 2"]
    assert any(s.startswith("tables 1 ↔ 2 swapped anyway (Swapped anyway: ") for s in said), said
    assert sum("swapped" in s for s in said) == 1  # the two tables of one swap: one sentence


def test_times_are_local_and_changes_are_grouped_by_round(organizer, settings):
    settings.TIME_ZONE = "Europe/Athens"
    t = evening(organizer)
    t = services.tournament_start(tournament=t, user=organizer)
    r1 = services.round_start(rnd=services.round_generate(tournament=t, user=organizer), user=organizer)
    for table in r1.tables.all():
        scoring.deal_record(match=table.match, deal=WIN_0)
    services.penalty_add(tournament=t, entry=entry(t, 2), points=10, reason="slow", user=organizer)
    r2 = services.round_generate(tournament=t, user=organizer)
    deal = r1.tables.get(number=1).match.deals.get()
    scoring.deal_correct(deal=deal, data=WIN_1, user=organizer)  # a round 1 table, corrected later
    # The correction at 19:42 UTC tomorrow (after everything else, whenever the test runs): 21:42 in
    # Athens in winter (UTC+2), 22:42 in summer.
    tomorrow = timezone.now() + dt.timedelta(days=1)
    when = tomorrow.replace(hour=19, minute=42, second=0, microsecond=0)
    local = when.astimezone(ZoneInfo("Europe/Athens")).strftime("%H:%M")
    assert local in ("21:42", "22:42")
    Deal.history.filter(id=deal.pk, history_type="~").update(history_date=when)
    page = audit_page(tournament=t)
    by_round = groups(page)
    assert list(by_round)[:3] == ["Set-up", "Round 1", "Round 2"]
    assert any(s.startswith("Team 1 (No. 1) entered") for s in by_round["Set-up"])
    assert "round 1 drawn (the organizer)" in by_round["Round 1"]
    assert "penalty to Team 2 (No. 2): −10 points, ‘slow’ (the organizer)" in by_round["Round 1"]
    assert "round 2 drawn (the organizer)" in by_round["Round 2"]
    assert "table 1: deal 1 corrected, 100–62 → 62–100 (the organizer)" in by_round["Round 1"]
    assert f"{local} table 1: deal 1 corrected, 100–62 → 62–100 (the organizer)" in sentences(page)
    assert r2.number == 2
    # within a group, in the order things happened
    lines = [line for g in page["groups"] for line in g["lines"] if g["round"] == 1]
    assert [line.when for line in lines] == sorted(line.when for line in lines)


def test_older_changes_are_on_the_next_page(organizer):
    t = services.tournament_start(tournament=evening(organizer, teams=6), user=organizer)
    everything = sentences(audit_page(tournament=t))
    first = audit_page(tournament=t, limit=4)
    assert first["count"] == 4 and first["older"] is not None
    earlier = audit_page(tournament=t, before=first["older"], limit=100)
    assert sentences(earlier) + sentences(first) == everything


def test_the_number_of_queries_does_not_grow_with_the_changes(organizer, django_assert_max_num_queries):
    def corrections(t, n):
        rnd = services.round_start(rnd=services.round_generate(tournament=t, user=organizer), user=organizer)
        for table in rnd.tables.all():
            deal = scoring.deal_record(match=table.match, deal=WIN_0)
            for k in range(n):
                scoring.deal_correct(deal=deal, data=WIN_1 if k % 2 == 0 else WIN_0)

    small = services.tournament_start(tournament=evening(organizer, teams=4), user=organizer)
    corrections(small, 1)
    big = services.tournament_start(tournament=evening(organizer, teams=12), user=organizer)
    corrections(big, 6)
    with django_assert_max_num_queries(25) as few:
        audit_page(tournament=small)
    with django_assert_max_num_queries(len(few.captured_queries)):
        page = audit_page(tournament=big)
    assert sum("corrected" in s for s in sentences(page)) == 36


def test_the_page_is_the_organizers_and_says_it_in_sentences(organizer, client, django_user_model):
    t = services.tournament_start(tournament=evening(organizer), user=organizer)
    rnd = services.round_start(rnd=services.round_generate(tournament=t, user=organizer), user=organizer)
    deal = scoring.deal_record(match=rnd.tables.get(number=1).match, deal=WIN_0)
    scoring.deal_correct(deal=deal, data=WIN_1)
    client.force_login(organizer)
    page = client.get(reverse("tournaments:audit", args=[t.slug]))
    assert page.status_code == 200
    text = page.text
    assert "table 1 (tablet): deal 1 corrected, 100–62 → 62–100" in text
    assert "<h2>Set-up</h2>" in text and "<h2>Round 1</h2>" in text
    older = client.get(reverse("tournaments:audit", args=[t.slug]), {"before": "2000-01-01T00:00:00+00:00"})
    assert older.status_code == 200 and "Nothing yet." in older.text
    assert client.get(reverse("tournaments:audit", args=[t.slug]), {"before": "nonsense"}).status_code == 200
    client.force_login(django_user_model.objects.create_user(username="nosy", password="pw-nosy-12345"))
    assert client.get(reverse("tournaments:audit", args=[t.slug])).status_code in (302, 403, 404)
    assert Tournament.objects.filter(pk=t.pk).exists() and Table.objects.exists()


@pytest.mark.parametrize("limit", [2, 3, 5, 7])
def test_walking_the_pages_back_tells_every_change_once(organizer, limit):
    t = services.tournament_start(tournament=evening(organizer, teams=8), user=organizer)
    rnd = services.round_start(rnd=services.round_generate(tournament=t, user=organizer), user=organizer)
    for table in rnd.tables.all():
        deal = scoring.deal_record(match=table.match, deal=WIN_0)  # the tablets: left out
        scoring.deal_correct(deal=deal, data=WIN_1, user=organizer)
        services.penalty_add(tournament=t, entry=table.entry0, points=5, reason="noise", user=organizer)
    everything = sentences(audit_page(tournament=t))
    walked, before, pages = [], None, 0
    while True:
        page = audit_page(tournament=t, before=before, limit=limit)
        walked = sentences(page) + walked
        pages += 1
        if page["older"] is None:
            break
        before = page["older"]
        assert pages < 100
    assert walked == everything
    assert pages > 1


def test_the_older_link_carries_the_exact_bound(organizer):
    from django.template.defaultfilters import date as date_filter

    from tournaments.audit import parse_before

    t = services.tournament_start(tournament=evening(organizer, teams=6), user=organizer)
    older = audit_page(tournament=t, limit=3)["older"]
    assert parse_before(date_filter(older, "c")) == older
    assert parse_before("nonsense") is None and parse_before("") is None
