"""Players' ratings over tournaments played through the services: what counts (rated tournaments'
finished matches, merged records as their root), the stored ratings and history checked against
OpenSkill's own calculation, who sees the history, the pages, seeding round 1 by rating, and the
worker's task queued when a result changes."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.db import transaction
from django.urls import reverse
from openskill.models import PlackettLuce

from league import ratings
from league.models import RatingPoint
from league.tasks import ratings_recompute
from players.models import Player
from scoring import services as scoring
from scoring.models import Match
from tests.factories import WIN_0, WIN_1
from tournaments import after_response, services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def organizer(django_user_model):
    return django_user_model.objects.create_user(username="org", password="pw-org-12345")


def cup(organizer, name="Cup", teams=4, *, start=True, **settings) -> Tournament:
    """A Swiss of one-deal matches (unless ``settings`` say otherwise): ``teams`` teams of new
    players, ``name`` 0a, 0b, 1a …"""
    settings.setdefault("swiss_rounds", 3)
    settings.setdefault("deals_per_match", 1)
    t = services.tournament_create(organizer=organizer, name=name, **settings)
    for i in range(teams):
        services.entry_register(tournament=t, name=f"{name} {i}", players=[f"{name} {i}a", f"{name} {i}b"])
    return services.tournament_start(tournament=t, user=organizer) if start else t


def play(t, organizer, rounds=1, deals=(WIN_0, WIN_1)) -> list[Match]:
    """Rounds drawn, started and played: table k's match won as ``deals[k]`` says."""
    played = []
    for _ in range(rounds):
        rnd = services.round_start(rnd=services.round_generate(tournament=t, user=organizer), user=organizer)
        for k, table in enumerate(rnd.tables.filter(match__isnull=False).order_by("number")):
            scoring.deal_record(match=table.match, deal=deals[k % len(deals)], user=organizer)
            played.append(table.match)
        services.standings_refresh(tournament_id=t.pk)
    return played


def player(name) -> Player:
    return Player.objects.get(name=name)


def by_hand(matches, root=lambda pk: pk):
    """OpenSkill's own calculation: a PlackettLuce with its defaults, the matches rated in the order
    they finished (then by id), seats 0 and 2 against 1 and 3, the winner ranked first (a draw: level)."""
    model = PlackettLuce()
    held, counts = {}, {}
    for m in sorted(matches, key=lambda m: (m.finished_at, m.pk)):
        teams = [(root(m.seat0_id), root(m.seat2_id)), (root(m.seat1_id), root(m.seat3_id))]
        ranks = [1, 1] if m.winner is None else ([1, 2] if m.winner == 0 else [2, 1])
        new = model.rate([[held.setdefault(p, model.rating()) for p in team] for team in teams], ranks=ranks)
        for team, rated in zip(teams, new, strict=True):
            for p, r in zip(team, rated, strict=True):
                held[p], counts[p] = r, counts.get(p, 0) + 1
    return {p: (r.mu, r.sigma, r.ordinal(), counts[p]) for p, r in held.items()}


def finished(*tournaments) -> list[Match]:
    return list(Match.objects.filter(table__round__tournament__in=tournaments, status=Match.Status.FINISHED))


def assert_stored(expected):
    for pk, (mu, sigma, ordinal, count) in expected.items():
        p = Player.objects.get(pk=pk)
        assert (p.rating_mu, p.rating_sigma) == (pytest.approx(mu, abs=1e-9), pytest.approx(sigma, abs=1e-9))
        assert p.rating == pytest.approx(ordinal, abs=1e-9) and p.rated_matches == count


# The run ---------------------------------------------------------------------------------------


def test_a_played_tournament_rates_its_players_as_the_library_does(organizer):
    t = cup(organizer)
    play(t, organizer, rounds=2)
    run = ratings.ratings_refresh()
    expected = by_hand(finished(t))
    assert len(expected) == 8 and set(run.ratings) == set(expected)
    assert_stored(expected)
    assert RatingPoint.objects.count() == 4 * 4
    assert sorted(set(RatingPoint.objects.values_list("position", flat=True))) == [1, 2, 3, 4]
    some = player("Cup 0a")
    points = list(some.rating_points.order_by("position"))
    assert len(points) == 2 and points[-1].rating == pytest.approx(some.rating)
    assert points[-1].rating == pytest.approx(points[-1].mu - 3 * points[-1].sigma)
    assert points[0].at == Match.objects.get(pk=points[0].match_id).finished_at


def test_a_finished_match_without_its_moment_is_rated_at_its_last_change(organizer):
    t = cup(organizer)
    played = play(t, organizer, rounds=1)
    Match.objects.filter(pk=played[0].pk).update(finished_at=None)  # as rows written in bulk may be
    ratings.ratings_refresh()
    point = RatingPoint.objects.filter(match=played[0]).first()
    assert point is not None and point.at == Match.objects.get(pk=played[0].pk).updated_at
    assert RatingPoint.objects.count() == 2 * 4


def test_an_unrated_tournament_and_a_match_outside_a_tournament_count_for_nobody(organizer, match):
    rated, unrated = cup(organizer, "Rated"), cup(organizer, "Friendly", rated=False)
    play(rated, organizer)
    play(unrated, organizer)
    for _ in range(10):
        scoring.deal_record(match=match, deal=WIN_0)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    ratings.ratings_refresh()
    assert_stored(by_hand(finished(rated)))
    for name in ("Friendly 0a", *(p.name for p in match.seats)):
        nobody = player(name)
        assert (nobody.rating, nobody.rated_matches) == (None, 0)
        assert not nobody.rating_points.exists()


def test_a_run_again_changes_nothing_and_a_correction_is_rated_again(organizer):
    t = cup(organizer)
    first, _ = play(t, organizer)
    ratings.ratings_refresh()
    kept = set(RatingPoint.objects.values_list("pk", flat=True))
    ratings.ratings_refresh()  # safe to run twice: nothing is written again
    assert set(RatingPoint.objects.values_list("pk", flat=True)) == kept
    first.refresh_from_db()
    before = first.seat0.rating
    scoring.deal_correct(deal=first.deals.get(), data=WIN_1 if first.winner == 0 else WIN_0, user=organizer)
    ratings.ratings_refresh()
    assert_stored(by_hand(finished(t)))
    first.seat0.refresh_from_db()
    assert first.seat0.rating != pytest.approx(before)


def test_a_tournament_no_longer_rated_clears_its_players(organizer):
    t = cup(organizer)
    play(t, organizer)
    ratings.ratings_refresh()
    Tournament.objects.filter(pk=t.pk).update(rated=False)
    ratings.ratings_refresh()
    assert not RatingPoint.objects.exists()
    assert not Player.objects.filter(rating__isnull=False).exists()
    assert not Player.objects.filter(rated_matches__gt=0).exists()


def test_a_tournament_that_asks_for_confirmation_counts_confirmed_results_only(organizer):
    t = cup(organizer, confirmation=True)
    first, _ = play(t, organizer)
    first.refresh_from_db()
    scoring.match_confirm(match=first, team=1 - first.winner, user=organizer)
    ratings.ratings_refresh()
    assert set(RatingPoint.objects.values_list("match_id", flat=True)) == {first.pk}


def test_a_merged_record_counts_as_its_root(organizer):
    spring, autumn = cup(organizer, "Spring"), cup(organizer, "Autumn")
    play(spring, organizer)
    play(autumn, organizer)
    root, absorbed = player("Spring 0a"), player("Autumn 0a")  # one person, two records
    absorbed.merged_into = root
    absorbed.save()
    ratings.ratings_refresh()
    expected = by_hand(finished(spring, autumn), root=lambda pk: root.pk if pk == absorbed.pk else pk)
    assert_stored(expected)
    root.refresh_from_db()
    absorbed.refresh_from_db()
    assert root.rated_matches == 2 and (absorbed.rating, absorbed.rated_matches) == (None, 0)
    assert set(root.rating_points.values_list("match__table__round__tournament", flat=True)) == {
        spring.pk,
        autumn.pk,
    }
    assert not absorbed.rating_points.exists()
    absorbed.merged_into = None  # a split: run again, each record has its own matches back
    absorbed.save()
    ratings.ratings_refresh()
    assert_stored(by_hand(finished(spring, autumn)))


# Who sees the history ----------------------------------------------------------------------------


@pytest.fixture
def public_and_private(organizer):
    """Spring 0a plays a public cup, then a private one (picked there by id)."""
    public = cup(organizer, "Spring")
    play(public, organizer)
    ana = player("Spring 0a")
    private = services.tournament_create(organizer=organizer, name="Secret", deals_per_match=1, public=False)
    services.entry_register(
        tournament=private,
        name="Ana's",
        players=[ana.name, "Vaso"],
        player_ids=[ana.pk, None],
        user=organizer,
    )
    services.entry_register(tournament=private, name="Others", players=["Kostas", "Lena"])
    private = services.tournament_start(tournament=private, user=organizer)
    play(private, organizer)
    ratings.ratings_refresh()
    ana.refresh_from_db()
    return ana, public, private


def test_a_private_match_counts_but_its_point_is_shown_only_to_who_may_see_it(public_and_private, organizer):
    ana, public, private = public_and_private
    assert ana.rated_matches == 2
    seen_by_anyone = ratings.rating_history(player=ana, user=None)
    assert [p.match.table.round.tournament for p in seen_by_anyone] == [public]
    seen_by_organizer = ratings.rating_history(player=ana, user=organizer)
    assert [p.match.table.round.tournament for p in seen_by_organizer] == [public, private]


def test_the_players_page_hides_private_points_but_shows_the_rating(public_and_private, client, organizer):
    ana, _, private = public_and_private
    secret = ana.rating_points.get(match__table__round__tournament=private)
    page = client.get(reverse("players:detail", args=[ana.pk])).content.decode()
    assert f"{ana.rating:.1f}" in page and "2 rated matches" in page
    assert 'class="rating-chart"' in page and "Rated matches shown: 1." in page
    assert "left out of the history" in page
    assert reverse("scoring:match", args=[secret.match_id]) not in page
    client.force_login(organizer)
    page = client.get(reverse("players:detail", args=[ana.pk])).content.decode()
    assert "Rated matches shown: 2." in page and reverse("scoring:match", args=[secret.match_id]) in page
    assert "left out of the history" not in page


# The pages -------------------------------------------------------------------------------------


def test_the_players_page_shows_the_rating_its_uncertainty_and_history(organizer, client):
    t = cup(organizer)
    play(t, organizer, rounds=2)
    ratings.ratings_refresh()
    ana = player("Cup 0a")
    response = client.get(reverse("players:detail", args=[ana.pk]))
    page = response.content.decode()
    assert f"rating {ana.rating:.1f}" in page
    assert f"skill {ana.rating_mu:.1f} ± {ana.rating_sigma:.1f}" in page
    assert "2 rated matches" in page and 'data-testid="rating-chart"' in page
    assert page.count('data-testid="rating-history"') == 1
    assert "style=" not in page.split('data-testid="player-rating"')[1].split("</section>")[0]


def test_a_player_not_rated_yet_is_told_so_once_they_have_played(client, match):
    page = client.get(reverse("players:detail", args=[match.seat0_id])).content.decode()
    assert 'data-testid="player-rating"' not in page  # no match finished: nothing to say yet
    for _ in range(10):  # a match outside a tournament, finished: it counts in no rating
        scoring.deal_record(match=match, deal=WIN_0)
    page = client.get(reverse("players:detail", args=[match.seat0_id])).content.decode()
    assert "Not rated yet" in page and 'data-testid="rating-chart"' not in page


def test_the_ratings_page_ranks_players_with_enough_rated_matches(organizer, client):
    t = cup(organizer, teams=6)
    play(t, organizer, rounds=2)
    newcomer = cup(organizer, "Late", teams=2)
    play(newcomer, organizer)
    ratings.ratings_refresh()
    page = client.get(reverse("league:ratings")).content.decode()
    assert "Late 0a" not in page  # one rated match: under the default minimum of 3
    assert page.count('data-testid="rating-row"') == 0  # two rated matches each: under it too
    page = client.get(reverse("league:ratings"), {"min": 2}).content.decode()
    names = re.findall(r'data-testid="rating-row">\s*<td>\d+</td>\s*<td><a href="[^"]+">([^<]+)</a>', page)
    best_first = Player.objects.filter(rated_matches__gte=2).order_by("-rating", "name")
    assert names == [p.name for p in best_first] and len(names) == 12
    best = best_first[0]
    assert f"{best.rating_mu:.1f} ± {best.rating_sigma:.1f}" in page and f"{best.rating:.1f}" in page
    everyone = client.get(reverse("league:ratings"), {"min": 1}).content.decode()
    assert everyone.count('data-testid="rating-row"') == 16


def test_the_ratings_page_is_paginated(organizer, client, monkeypatch):
    from league.views import ratings as views

    monkeypatch.setattr(views, "PAGE_SIZE", 3)
    t = cup(organizer)
    play(t, organizer)
    ratings.ratings_refresh()
    first = client.get(reverse("league:ratings"), {"min": 1}).content.decode()
    second = client.get(reverse("league:ratings"), {"min": 1, "page": 2}).content.decode()
    assert first.count('data-testid="rating-row"') == 3 and second.count('data-testid="rating-row"') == 3
    assert "<td>4</td>" in second and "Page 2 of 3" in second and "min=1&amp;page=3" in second


def test_a_bad_minimum_is_a_form_error(client):
    response = client.get(reverse("league:ratings"), {"min": "lots"})
    assert response.status_code == 422 and "Enter a whole number." in response.content.decode()


def test_the_leaderboard_and_the_players_list_link_the_ratings(client):
    for name in ("players:leaderboard", "players:list"):
        assert reverse("league:ratings") in client.get(reverse(name)).content.decode()
    page = client.get(reverse("league:ratings")).content.decode()
    assert 'aria-current="true">Leaderboard' in page.replace("\n", "")


# Seeding round 1 by rating -----------------------------------------------------------------------


def rate(entry, *values):
    for p, value in zip(entry.team.players, values, strict=True):
        Player.objects.filter(pk=p.pk).update(rating=value)


def round_one(t, organizer) -> list[tuple[int, int | None]]:
    rnd = services.round_generate(tournament=t, user=organizer)
    return [(table.entry0_id, table.entry1_id) for table in rnd.tables.order_by("number")]


@pytest.mark.parametrize("format", ["swiss", "concours"])
def test_round_one_seeded_by_rating_puts_the_best_half_against_the_other(organizer, format):
    t = cup(organizer, teams=7, start=False, seed_by_rating=True, format=format)
    entries = list(t.entries.order_by("pk"))
    # By rating: e3 (20), e5 (15, a merged record's root has it), e0 (10), e6 (10, its partner unrated:
    # counts 0, so 5 — under e0's 10), e2 (4 and 2 → 3), then the unrated e1, e4 (the seeds' order).
    rate(entries[0], 10, 10)
    rate(entries[2], 4, 2)
    rate(entries[3], 20, 20)
    rate(entries[6], 10, None)
    root = Player.objects.create(name="Root", rating=15)
    for p in entries[5].team.players:
        Player.objects.filter(pk=p.pk).update(merged_into=root)
    t = services.tournament_start(tournament=t, user=organizer)
    e = [entry.pk for entry in entries]
    # Ranked e3 e5 e0 e6 e2 e1 e4: 1 v 4, 2 v 5, 3 v 6 and the bye to the last, e4.
    assert sorted(round_one(t, organizer), key=lambda pair: pair[1] is None) == [
        (e[3], e[6]),
        (e[5], e[2]),
        (e[0], e[1]),
        (e[4], None),
    ]


@pytest.mark.parametrize("format", ["swiss", "concours"])
def test_an_unrated_entry_seeds_as_a_new_players_zero_above_negative_ratings(organizer, format):
    """A new player's rating is 0 (the help): an entry with no rated player sits where 0 does,
    between the positive ratings and the negative ones, not after every rated entry."""
    t = cup(organizer, teams=4, start=False, seed_by_rating=True, format=format)
    entries = list(t.entries.order_by("pk"))
    rate(entries[0], -2, -4)  # -3
    rate(entries[1], 6, 2)  # 4
    rate(entries[2], -4, None)  # an unrated partner counts 0: -2
    # entries[3]: nobody rated, 0
    t = services.tournament_start(tournament=t, user=organizer)
    e = [entry.pk for entry in entries]
    # Ranked e1 (4), e3 (0), e2 (-2), e0 (-3): folded, 1 v 3 and 2 v 4.
    assert sorted(round_one(t, organizer)) == sorted([(e[1], e[2]), (e[3], e[0])])


def test_without_seeding_by_rating_round_one_ignores_the_ratings(organizer):
    t = cup(organizer, teams=4, start=False)
    entries = list(t.entries.order_by("pk"))
    rate(entries[3], 20, 20)
    rate(entries[2], 10, 10)
    t = services.tournament_start(tournament=t, user=organizer)
    e = [entry.pk for entry in entries]
    assert round_one(t, organizer) == [(e[0], e[1]), (e[2], e[3])]


def test_the_form_and_the_tournament_page_say_rated_and_seeded(client, organizer):
    client.force_login(organizer)
    data = {
        "name": "Seeded night",
        "ruleset": "mpourloto",
        "format": "swiss",
        "swiss_rounds": 3,
        "knockout_size": 0,
        "deals_per_match": 0,
        "points_win": 2,
        "points_draw": 1,
        "points_loss": 0,
        "points_bye": 2,
        "playoff_deals": 2,
        "public": "on",
        "seed_by_rating": "on",
    }
    response = client.post(reverse("tournaments:new"), data)
    assert response.status_code == 302
    t = Tournament.objects.get(name="Seeded night")
    assert (t.rated, t.seed_by_rating) == (False, True)  # "rated" left unticked
    page = client.get(reverse("tournaments:home", args=[t.slug])).content.decode()
    assert "round 1 seeded by rating" in page and 'data-testid="not-rated"' in page
    form = client.get(reverse("tournaments:new")).content.decode()
    assert 'name="rated"' in form and 'name="seed_by_rating"' in form


# The worker --------------------------------------------------------------------------------------


def test_the_task_rates_and_can_run_twice(organizer):
    t = cup(organizer)
    play(t, organizer)
    cache.set(ratings.QUEUE_KEY, 1)
    assert ratings_recompute.delay().get() == 2
    assert cache.get(ratings.QUEUE_KEY) is None  # cleared when it started: a later change queues again
    assert ratings_recompute.delay().get() == 2
    assert_stored(by_hand(finished(t)))


@pytest.mark.django_db(transaction=True)
def test_a_finished_rated_match_queues_one_run_after_the_commit(organizer, monkeypatch):
    cache.clear()
    runs = []
    real = ratings.ratings_refresh
    monkeypatch.setattr(ratings, "ratings_refresh", lambda: runs.append(1) or real())
    t = cup(organizer)
    rnd = services.round_start(rnd=services.round_generate(tournament=t, user=organizer), user=organizer)
    first, second = [table.match for table in rnd.tables.order_by("number")]
    scoring.deal_record(match=first, deal=WIN_0)  # outside a request: the run follows at once
    assert runs == [1] and player(first.seat0.name).rated_matches == 1
    with after_response.held() as work:  # as in a request: held until the response has gone
        scoring.deal_record(match=second, deal=WIN_1)
        scoring.deal_correct(deal=second.deals.get(), data=WIN_0)
    queued = [w for w in work if w is ratings._send]
    assert len(queued) == 1 and runs == [1]  # a burst of changes queues one run
    queued[0]()
    assert runs == [1, 1]
    assert_stored(by_hand(finished(t)))


@pytest.mark.django_db(transaction=True)
def test_what_queues_a_run_and_what_does_not(organizer, match, monkeypatch):
    cache.clear()
    asked = []
    monkeypatch.setattr(ratings, "_queue", lambda: asked.append(1))
    for _ in range(10):  # a match outside a tournament, to its end
        scoring.deal_record(match=match, deal=WIN_0)
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED and asked == []
    friendly = cup(organizer, "Friendly", rated=False)
    rnd = services.round_start(
        rnd=services.round_generate(tournament=friendly, user=organizer), user=organizer
    )
    scoring.deal_record(match=rnd.tables.first().match, deal=WIN_0)  # finished, but not rated
    assert asked == []
    t = cup(organizer, "Long", deals_per_match=2)
    rnd = services.round_start(rnd=services.round_generate(tournament=t, user=organizer), user=organizer)
    table_match = rnd.tables.order_by("number").first().match
    scoring.deal_record(match=table_match, deal=WIN_0)  # a deal of a match in play
    assert asked == []
    scoring.deal_record(match=table_match, deal=WIN_0)  # its last deal: finished
    assert asked == [1]
    last = table_match.deals.order_by("position").last()
    bigger = {"maker": 0, "card_points": [120, 32], "last_trick": 0}  # other totals, the same winner
    scoring.deal_correct(deal=last, data=bigger)
    assert asked == [1]
    scoring.deal_correct(deal=table_match.deals.order_by("position").last(), data=WIN_1)  # 162–162
    assert Match.objects.get(pk=table_match.pk).winner is None and asked == [1, 1]


@pytest.mark.django_db(transaction=True)
def test_ratings_request_runs_once_the_transaction_commits(organizer, monkeypatch):
    """What a merge or a split calls: the run follows the commit, never a rolled-back change."""
    cache.clear()
    runs = []
    monkeypatch.setattr(ratings, "ratings_refresh", lambda: runs.append(1))
    with transaction.atomic():
        ratings.ratings_request()
        assert runs == []
    assert runs == [1]
    with pytest.raises(RuntimeError), transaction.atomic():
        ratings.ratings_request()
        raise RuntimeError
    assert runs == [1]
