"""Data for the REST API tests: a user (with a token) for every role, tournaments, a match.

The roles:

- ``anonymous``: no credentials;
- ``player``: a signed-in user linked to a ``Player`` (Nikos, who plays in the standalone match)
  with no special rights;
- ``scorekeeper``: the user who created the standalone match (``match_create`` makes its creator
  one of its keepers);
- ``organizer``: organizes the public and the private tournament (and so keeps their matches);
- ``club_reader`` / ``club_writer``: club accounts (``players.Club``) without / with ``can_write``.

Celery runs eagerly but ``transaction.on_commit`` only fires in transactional tests: the
fixtures call ``standings_refresh`` themselves, so the standings are there either way.
"""

import datetime

import pytest
from django.core.cache import cache
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from players.models import Club, Player
from scoring import services as scoring
from tests.factories import TEAMS, made
from tournaments import services
from tournaments.models import Tournament

ROLES = ("anonymous", "player", "scorekeeper", "organizer", "club_reader", "club_writer")
NOT_ORGANIZERS = ("anonymous", "player", "scorekeeper", "club_reader", "club_writer")

WIN_0 = {"maker": 0, "card_points": [90, 62], "last_trick": 0}  # 100 v 62: team 0 makes it
WIN_1 = {"maker": 1, "card_points": [62, 90], "last_trick": 1}  # 62 v 100: team 1 makes it

# The standalone match's deals: a throw-in, a made deal with a meld, a made deal for team 1.
MATCH_DEALS = [
    {"thrown_in": True},
    made(maker=0, cards=(90, 62), last_trick=0, melds=(("seq3",), ())),
    made(maker=1, cards=(62, 90), last_trick=1),
]

PUBLIC_TEAMS = [("Lions", ("Alexis", "Vaso")), ("Owls", ("Petros", "Rena")), ("Foxes", ("Stavros", "Toula"))]
PUBLIC_TEAMS.append(("Bears", ("Yannis", "Zoi")))
PRIVATE_TEAMS = [("Ghosts", ("Kostas", "Lena")), ("Shadows", ("Manos", "Nefeli"))]


@pytest.fixture(autouse=True)
def _fresh_cache():
    """The standings cache and the queue flags live in the (process-wide) cache: start clean."""
    cache.clear()
    yield
    cache.clear()


def _user(django_user_model, username):
    user = django_user_model.objects.create_user(username=username, password=f"pw-{username}-12345")
    user.token = Token.objects.create(user=user).key
    return user


@pytest.fixture
def organizer(db, django_user_model):
    return _user(django_user_model, "kafeneio")


@pytest.fixture
def rival(db, django_user_model):
    """Another club's organizer."""
    return _user(django_user_model, "rival")


@pytest.fixture
def scorekeeper(db, django_user_model):
    return _user(django_user_model, "keeper")


@pytest.fixture
def player_user(db, django_user_model):
    user = _user(django_user_model, "nikos")
    player, _ = Player.objects.get_or_create(name="Nikos")
    player.user = user
    player.save()
    return user


@pytest.fixture
def club_reader(db, django_user_model):
    user = _user(django_user_model, "reading-club")
    Club.objects.create(name="Reading club", user=user, can_write=False)
    return user


@pytest.fixture
def club_writer(db, django_user_model):
    user = _user(django_user_model, "writing-club")
    Club.objects.create(name="Writing club", user=user, can_write=True)
    return user


def client_for(user=None):
    client = APIClient()
    if user is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Token {user.token}")
    return client


@pytest.fixture
def anon():
    return APIClient()


@pytest.fixture
def users(organizer, scorekeeper, player_user, club_reader, club_writer):
    return {
        "anonymous": None,
        "player": player_user,
        "scorekeeper": scorekeeper,
        "organizer": organizer,
        "club_reader": club_reader,
        "club_writer": club_writer,
    }


@pytest.fixture
def api(users):
    """``api(role)``: an APIClient holding that role's token (none for ``anonymous``)."""
    return lambda role: client_for(users[role])


# Matches ------------------------------------------------------------------------------


@pytest.fixture
def standalone(scorekeeper, player_user):
    """A Mpourloto match to 1000 (not in a tournament), kept by ``scorekeeper``: three deals. Nikos is
    ``player_user``'s player (picked: a name typed would be a new Nikos)."""
    (team0, (_, eleni)), team1 = TEAMS
    match = scoring.match_create(
        teams=[(team0, (player_user.player, eleni)), team1], first_dealer=0, created_by=scorekeeper
    )
    for deal in MATCH_DEALS:
        scoring.deal_record(match=match, deal=deal, user=scorekeeper)
    match.refresh_from_db()
    return match


# Tournaments --------------------------------------------------------------------------


def tournament(organizer, name, teams, **settings):
    t = services.tournament_create(organizer=organizer, name=name, **settings)
    for team, players in teams:
        services.entry_register(tournament=t, name=team, players=list(players))
    return t


def round_play(rnd, deals):
    """Record one deal per match of the round: ``deals`` in table order."""
    tables = rnd.tables.select_related("match").filter(match__isnull=False).order_by("number")
    for table, deal in zip(tables, deals, strict=True):
        scoring.deal_record(match=table.match, deal=deal, user=rnd.tournament.organizer)


def round_next(t, user):
    rnd = services.round_generate(tournament=t, user=user)
    return services.round_start(rnd=rnd, user=user)


@pytest.fixture
def public_tournament(organizer):
    """Four teams, Swiss over three rounds of one deal: round 1 played (table 1 won by its first
    team, table 2 by its second), round 2 under way; the standings computed."""
    t = tournament(
        organizer,
        "Spring Cup",
        PUBLIC_TEAMS,
        deals_per_match=1,
        swiss_rounds=3,
        starts_on=datetime.date(2025, 4, 12),
    )
    t = services.tournament_start(tournament=t, user=organizer)
    round_play(round_next(t, organizer), [WIN_0, WIN_1])
    services.standings_refresh(tournament_id=t.pk)
    round_next(t, organizer)
    services.standings_refresh(tournament_id=t.pk)
    return Tournament.objects.get(pk=t.pk)


@pytest.fixture
def private_tournament(organizer):
    """Not public: two teams, Pilotta, round 1 under way."""
    t = tournament(
        organizer,
        "Secret Cup",
        PRIVATE_TEAMS,
        ruleset="pilotta",
        public=False,
        swiss_rounds=1,
        starts_on=datetime.date(2025, 6, 1),
    )
    t = services.tournament_start(tournament=t, user=organizer)
    round_next(t, organizer)
    services.standings_refresh(tournament_id=t.pk)
    return Tournament.objects.get(pk=t.pk)


@pytest.fixture
def rival_tournament(rival):
    """Another organizer's private tournament, round 1 under way."""
    t = tournament(rival, "Rival Cup", [("Red", ("R1", "R2")), ("Blue", ("B1", "B2"))], public=False)
    t = services.tournament_start(tournament=t, user=rival)
    round_next(t, rival)
    return Tournament.objects.get(pk=t.pk)


@pytest.fixture
def draft_tournament(organizer):
    """Four teams (two of them new), started, round 1 drawn but not started: swaps are open."""
    teams = [*PUBLIC_TEAMS[:2], ("Wolves", ("Dimitra", "Fotis")), ("Hawks", ("Giannis", "Ioanna"))]
    t = tournament(organizer, "Autumn Cup", teams, deals_per_match=1, starts_on=datetime.date(2025, 10, 4))
    t = services.tournament_start(tournament=t, user=organizer)
    services.round_generate(tournament=t, user=organizer)
    return Tournament.objects.get(pk=t.pk)


@pytest.fixture
def open_tournament(organizer):
    """Still taking entries: two teams registered."""
    return tournament(
        organizer,
        "Summer Cup",
        [("Sharks", ("Aris", "Bettina")), ("Eagles", ("Christos", "Danae"))],
        ruleset="bulgarian",
        starts_on=datetime.date(2025, 7, 20),
    )
