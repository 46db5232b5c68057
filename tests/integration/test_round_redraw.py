"""A drawn round redrawn or deleted before it starts: the last round only, audited; a concours's first
round drawn anew by lot, a Swiss round drawn the same (the swaps undone)."""

import re

import pytest
from django.urls import reverse

from scoring import services as scoring
from tournaments import services
from tournaments.models import Round, Table, Tournament

pytestmark = pytest.mark.django_db(transaction=True)

WIN0 = {"maker": 0, "card_points": [90, 62], "last_trick": 0}


@pytest.fixture
def organizer(django_user_model):
    return django_user_model.objects.create_user(username="org", password="pw-org-12345")


def start(organizer, *, teams=8, **settings):
    settings.setdefault("deals_per_match", 1)
    settings.setdefault("swiss_rounds", 3)
    t = services.tournament_create(organizer=organizer, name="Friday", **settings)
    for i in range(teams):
        services.entry_register(tournament=t, name=f"Team {i + 1}", players=[f"P{i}a", f"P{i}b"])
    return services.tournament_start(tournament=t, user=organizer)


def pairings(rnd):
    return {frozenset(p) for p in rnd.tables.values_list("entry0_id", "entry1_id")}


def text(response):
    return re.sub(r"\s+", " ", response.content.decode())


def test_deleting_a_drawn_round_removes_it_and_its_tables_audited(organizer):
    t = start(organizer)
    rnd = services.round_generate(tournament=t, user=organizer)
    table_ids = list(rnd.tables.values_list("pk", flat=True))
    services.round_delete(rnd=rnd, user=organizer)
    assert not Round.objects.filter(tournament=t).exists()
    assert not Table.objects.filter(pk__in=table_ids).exists()
    gone = Round.history.filter(id=rnd.pk, history_type="-").get()
    assert gone.history_user == organizer
    assert Table.history.filter(id__in=table_ids, history_type="-", history_user=organizer).count() == len(
        table_ids
    )
    assert services.round_generate(tournament=t, user=organizer).number == 1  # drawn again


def test_a_concours_first_round_redrawn_is_a_new_draw_from_a_new_seed(organizer):
    t = start(organizer, format="concours")
    rnd = services.round_generate(tournament=t, user=organizer)
    before, seed = pairings(rnd), t.seed
    again = services.round_redraw(rnd=rnd, user=organizer)
    t.refresh_from_db()
    assert again.number == 1 and again.status == Round.Status.DRAFT
    assert t.seed != seed and pairings(again) != before
    assert Tournament.history.filter(id=t.pk, seed=t.seed, history_user=organizer).exists()  # audited
    assert Round.objects.filter(tournament=t).count() == 1


def test_a_swiss_round_redrawn_gives_the_same_pairings_and_undoes_the_swaps(organizer):
    t = start(organizer)
    rnd = services.round_generate(tournament=t, user=organizer)
    drawn = pairings(rnd)
    services.round_swap(rnd=rnd, first=(1, 0), second=(2, 0), user=organizer)
    assert pairings(Round.objects.get(pk=rnd.pk)) != drawn
    seed = t.seed
    again = services.round_redraw(rnd=rnd, user=organizer)
    assert pairings(again) == drawn
    t.refresh_from_db()
    assert t.seed == seed


def test_refused_once_started_or_not_the_last(organizer):
    t = start(organizer)
    first = services.round_start(rnd=services.round_generate(tournament=t, user=organizer), user=organizer)
    for service in (services.round_delete, services.round_redraw):
        with pytest.raises(services.TournamentError, match="has started"):
            service(rnd=first, user=organizer)
    for table in first.tables.exclude(match=None):
        scoring.deal_record(match=table.match, deal=WIN0)
    services.standings_refresh(tournament_id=t.pk)
    second = services.round_generate(tournament=t, user=organizer)
    # Round 1 is finished, round 2 drawn: round 1 is neither a draft nor the last.
    with pytest.raises(services.TournamentError, match="has started"):
        services.round_delete(rnd=first, user=organizer)
    assert Round.objects.filter(tournament=t).count() == 2
    services.round_delete(rnd=second, user=organizer)
    assert list(Round.objects.filter(tournament=t).values_list("number", flat=True)) == [1]


def test_a_finished_tournament_is_refused(organizer):
    t = start(organizer)
    rnd = services.round_generate(tournament=t, user=organizer)
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.FINISHED)
    with pytest.raises(services.TournamentError, match="finished"):
        services.round_delete(rnd=rnd, user=organizer)
    assert Round.objects.filter(pk=rnd.pk).exists()


def test_the_manage_page_offers_both_and_the_delete_asks_for_a_confirmation(client, organizer):
    t = start(organizer, format="concours")
    services.round_generate(tournament=t, user=organizer)
    client.force_login(organizer)
    manage = text(client.get(reverse("tournaments:manage", args=[t.slug])))
    assert 'data-testid="round-redraw"' in manage and 'data-testid="round-delete"' in manage
    assert "new draw by lot" in manage
    redraw = client.post(reverse("tournaments:round_redraw", args=[t.slug, 1]))
    assert redraw.status_code == 302 and redraw["Location"].endswith("#rounds")
    assert Round.objects.get(tournament=t).status == Round.Status.DRAFT
    url = reverse("tournaments:round_delete", args=[t.slug, 1])
    confirm = text(client.get(url))
    assert 'name="confirm"' in confirm and "Delete round 1?" in confirm
    unticked = client.post(url, {})
    assert unticked.status_code == 422 and Round.objects.filter(tournament=t).exists()
    done = client.post(url, {"confirm": "1"}, follow=True)
    assert "Round 1 is deleted" in text(done) and not Round.objects.filter(tournament=t).exists()


def test_a_refusal_on_the_page_is_a_message(client, organizer):
    t = start(organizer)
    services.round_start(rnd=services.round_generate(tournament=t, user=organizer), user=organizer)
    client.force_login(organizer)
    answer = client.post(reverse("tournaments:round_redraw", args=[t.slug, 1]), follow=True)
    assert "has started" in text(answer)
    assert Round.objects.get(tournament=t).status == Round.Status.STARTED


def test_an_individual_first_round_redrawn_seats_the_players_anew(organizer):
    t = services.tournament_create(
        organizer=organizer, name="Whist drive", format="individual", swiss_rounds=3, deals_per_match=1
    )
    for i in range(8):
        services.entry_register(tournament=t, name=f"P{i + 1}", players=[f"P{i + 1}"])
    t = services.tournament_start(tournament=t, user=organizer)
    rnd = services.round_generate(tournament=t, user=organizer)

    def seats(r):
        rows = r.tables.values_list("entry0_id", "partner0_id", "entry1_id", "partner1_id")
        return {frozenset((frozenset((a, pa)), frozenset((b, pb)))) for a, pa, b, pb in rows}

    before = seats(rnd)
    again = services.round_redraw(rnd=rnd, user=organizer)
    assert again.kind == Round.Kind.INDIVIDUAL and seats(again) != before
