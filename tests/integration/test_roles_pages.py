"""The role matrix on the pages of every role; guessed ids reveal nothing."""

import uuid

import pytest
from django.urls import reverse

from players.models import Club, Player
from scoring import services as scoring
from tests.factories import TEAMS
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)

WIN_0 = {"maker": 0, "card_points": [90, 62], "last_trick": 0}


@pytest.fixture
def people(django_user_model):
    make = django_user_model.objects.create_user
    people = {
        name: make(name, password=f"pw-{name}-12345") for name in ("organizer", "player", "keeper", "club")
    }
    Club.objects.create(name="Club", user=people["club"], can_write=False)
    return people


@pytest.fixture
def night(people):
    """A private tournament with a started round; Nikos (the 'player' account) plays at table 1."""
    t = services.tournament_create(organizer=people["organizer"], name="Private night", public=False,
                                   swiss_rounds=1, deals_per_match=1, confirmation=True)  # fmt: skip
    for name, players in [*TEAMS, ("C", ("Kostas", "Sofia")), ("D", ("Yannis", "Katerina"))]:
        services.entry_register(tournament=t, name=name, players=players)
    services.tournament_start(tournament=t)
    rnd = services.round_generate(tournament=t)
    services.round_start(rnd=rnd)
    table = rnd.tables.get(number=1)
    Player.objects.filter(name__in=[table.match.seat0.name]).update(user=people["player"])
    table.match.keepers.add(people["keeper"])
    return t


def login(client, people, who):
    if who != "anonymous":
        client.force_login(people[who])


ROLES = ["anonymous", "player", "keeper", "club", "organizer"]


@pytest.mark.parametrize("who", ROLES)
def test_a_private_tournament_is_seen_by_its_organizer_only(client, people, night, who):
    login(client, people, who)
    expected = 200 if who == "organizer" else 404
    for name in ("home", "standings"):
        assert client.get(reverse(f"tournaments:{name}", args=[night.slug])).status_code == expected
    assert client.get(reverse("tournaments:round", args=[night.slug, 1])).status_code == expected
    listed = night.name in client.get(reverse("tournaments:list")).text
    assert listed == (who == "organizer")


@pytest.mark.parametrize("who", ROLES)
def test_organizer_pages_and_actions_are_the_organizers_only(client, people, night, who):
    login(client, people, who)
    for name, args, method in [
        ("manage", [night.slug], "get"),
        ("audit", [night.slug], "get"),
        ("round_links", [night.slug, 1], "get"),
        ("round_generate", [night.slug], "post"),
        ("entry_status", [night.slug, night.entries.first().pk], "post"),
    ]:
        response = getattr(client, method)(reverse(f"tournaments:{name}", args=args), {"status": "withdrawn"})
        if who == "organizer":
            assert response.status_code in (200, 302), name
        elif who == "anonymous":
            assert response.status_code == 302 and "/accounts/login/" in response.url, name
        else:
            assert response.status_code == 404, name  # nothing revealed about someone else's tournament
    if who != "organizer":
        assert not night.entries.filter(status="withdrawn").exists()


@pytest.mark.parametrize("who", ROLES)
def test_who_may_record_a_deal_on_a_tournament_table(client, people, night, who):
    login(client, people, who)
    match = night.rounds.get(number=1).tables.get(number=1).match
    data = {
        "client_key": str(uuid.uuid4()),
        "maker": "0",
        "points_team": "0",
        "card_points": "90",
        "last_trick": "0",
    }
    response = client.post(reverse("scoring:deal_create", args=[match.pk]), data)
    allowed = who in ("keeper", "organizer")
    # The player sees the sheet (they play at it) but may not write; the others do not even see it.
    assert response.status_code == (302 if allowed else 403 if who == "player" else 404)
    assert match.deals.count() == (1 if allowed else 0)


def test_a_player_confirms_their_own_result_only(client, people, night):
    first, second = night.rounds.get(number=1).tables.order_by("number")
    for table in (first, second):
        scoring.deal_record(match=table.match, deal=WIN_0)
    client.force_login(people["player"])
    assert (
        client.post(reverse("scoring:match_confirm", args=[second.match_id]), {"team": "0"}).status_code
        == 404  # another table of a private tournament: not even seen
    )
    assert (
        client.post(reverse("scoring:match_confirm", args=[first.match_id]), {"team": "0"}).status_code == 302
    )
    first.match.refresh_from_db()
    assert first.match.confirmed_by == people["player"]


def test_guessing_table_links_and_ids_reveals_nothing(client, people, night):
    assert client.get(reverse("tournaments:scorekeeper", args=["not-a-token"])).status_code == 404
    assert client.get(reverse("tournaments:home", args=["no-such-slug"])).status_code == 404
    other = Tournament.objects.create(organizer=people["keeper"], name="Other", slug="other", public=False)
    client.force_login(people["organizer"])
    assert client.get(reverse("tournaments:manage", args=[other.slug])).status_code == 404
    assert client.get(reverse("tournaments:entry", args=[night.slug, 99999])).status_code == 404
    token = night.rounds.get(number=1).tables.first().token
    assert len(token) >= 20  # a secret, not a counter


@pytest.mark.parametrize("who", ROLES)
def test_a_private_tournaments_match_is_not_reachable_by_its_id(client, people, night, who):
    login(client, people, who)
    table = night.rounds.get(number=1).tables.get(number=1)
    other = night.rounds.get(number=1).tables.get(number=2)
    seen = who in ("organizer", "keeper", "player")  # the keeper and the player are at table 1
    for url in (
        reverse("scoring:match", args=[table.match_id]),
        reverse("scoring:match_history", args=[table.match_id]),
        reverse("scoring:match_print", args=[table.match_id]),
    ):
        assert client.get(url).status_code == (200 if seen else 404), url
    assert client.get(reverse("scoring:match", args=[other.match_id])).status_code == (
        200 if who == "organizer" else 404
    )
