"""``manage.py demo_data``: players, teams, a match in progress and a finished match, a club with its
members, a finished and a running tournament of the club, its season and the players' ratings.

All or nothing (one transaction, its tasks queued once it commits); refused under the production
settings."""

import datetime
import random

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import timezone

from league import ratings
from league.services import season_create
from players import club_services as clubs
from players.models import Club, Player
from players.services import player_create
from scoring import services
from scoring.models import Match
from tournaments import services as tournaments
from tournaments.models import Tournament

TEAMS = [
    ("Kafeneio A", ("Nikos", "Eleni")),
    ("Kafeneio B", ("Giorgos", "Maria")),
    ("Platanos", ("Kostas", "Sofia")),
    ("Limani", ("Yannis", "Katerina")),
]

NIGHT_TEAMS = [
    ("Agora", ["Dimitris", "Anna"]),
    ("Plateia", ["Stavros", "Vaso"]),
    ("Kastro", ["Manolis", "Irini"]),
    ("Molos", ["Petros", "Dora"]),
    ("Pyrgos", ["Lefteris", "Chryssa"]),
    ("Vrysi", ["Antonis", "Popi"]),
    ("Akti", ["Michalis", "Rena"]),
    ("Ammos", ["Thanos", "Lina"]),
]


def demo_deal(rng: random.Random, number: int) -> dict:
    """A plausible deal: mostly made, now and then mesa, capo or thrown in."""
    if number % 9 == 4:
        return {"thrown_in": True}
    maker = rng.randrange(2)
    if number % 11 == 7:
        return {"maker": maker, "card_points": [152, 0] if maker == 0 else [0, 152], "capot": maker,
                "melds": [["seq3"], []] if maker == 0 else [[], ["seq3"]]}  # fmt: skip
    makers = rng.randint(40, 130) if number % 5 else rng.randint(30, 70)
    cards = [makers, 152 - makers] if maker == 0 else [152 - makers, makers]
    melds: list[list[str]] = [[], []]
    if rng.random() < 0.4:
        melds[rng.randrange(2)].append(rng.choice(["seq3", "seq3", "seq4", "mpourloto"]))
    return {"maker": maker, "card_points": cards, "last_trick": rng.randrange(2), "melds": melds}


# Never here: the demo's made-up people and its demo / demo staff login are not for a real site.
PRODUCTION_SETTINGS = ("config.settings.prod",)


class Command(BaseCommand):
    help = (
        "Load demo data (idempotent): a demo login, four teams, a match in progress and a finished match. "
        "All or nothing, in one transaction; refused under the production settings."
    )

    def handle(self, *args, **options):
        if settings.SETTINGS_MODULE in PRODUCTION_SETTINGS:
            raise CommandError(
                f"demo_data refuses to run under the production settings ({settings.SETTINGS_MODULE}): it "
                "would add made-up players, matches and a staff login demo / demo to a real site. Run it "
                "with DJANGO_SETTINGS_MODULE=config.settings.dev on a development database."
            )
        # One transaction: a failure half-way leaves nothing, and the tasks the load asks for (the
        # standings, the ratings, webhooks) are queued on commit only, to a real broker too.
        with transaction.atomic():
            self.load()

    def load(self) -> None:
        User = get_user_model()
        user, created = User.objects.get_or_create(
            username="demo", defaults={"is_staff": True, "is_superuser": True}
        )
        if created:
            user.set_password("demo")
            user.save()
        if Match.objects.exists():
            self.stdout.write("Demo data already loaded.")
            return
        rng = random.Random(1000)
        finished = services.match_create(teams=TEAMS[2:], first_dealer=3, created_by=user)
        number = 0
        while Match.objects.get(pk=finished.pk).status != Match.Status.FINISHED:
            services.deal_record(match=finished, deal=demo_deal(rng, number), user=user)
            number += 1
        playing = services.match_create(
            teams=TEAMS[:2], options={"target": 1000}, first_dealer=0, created_by=user
        )
        for number in range(6):
            services.deal_record(match=playing, deal=demo_deal(rng, number), user=user)
        club = clubs.club_create(name="Demo club", by=user, city="Athens", about="Friday nights at the café.")
        self.demo_cup(user, rng, club)
        self.demo_tournament(user, rng, club)
        for player in Player.objects.filter(merged_into__isnull=True):
            clubs.member_add(club=club, player=player)
        today = timezone.localdate()
        season_create(
            user=user,
            club=club,
            name="Demo season",
            # from the first of January of last week's cup (last year's, in the first week of January)
            starts_on=(today - datetime.timedelta(days=7)).replace(month=1, day=1),
            ends_on=today.replace(month=12, day=31),
        )
        ratings.ratings_refresh()
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo data loaded: a finished match ({finished}), one in progress ({playing}) and a Swiss "
                "tournament in its second round, a finished round robin, the club, its season and the "
                "ratings. Log in as demo / demo."
            )
        )

    def people(self, names: list[str]) -> list[Player]:
        """The club's regulars of these names: one record each, made the first time."""
        known = getattr(self, "_people", {})
        self._people = known
        return [
            known.setdefault(name, player_create(name=name)) if name not in known else known[name]
            for name in names
        ]

    def enter(self, tournament: Tournament, name: str, names: list[str]) -> None:
        """The team of these regulars enters, its players picked (the same records in every event)."""
        people = self.people(names)
        tournaments.entry_register(
            tournament=tournament,
            name=name,
            players=[p.name for p in people],
            player_ids=[p.pk for p in people],
        )

    def demo_cup(self, user, rng: random.Random, club: Club) -> None:
        """Last week's round robin of the first four night teams, 2 deals a match, played to its end."""
        cup = tournaments.tournament_create(
            organizer=user,
            name="Last week's cup",
            format=Tournament.Format.ROUND_ROBIN,
            deals_per_match=2,
            club=club,
            starts_on=timezone.localdate() - datetime.timedelta(days=7),
        )
        for name, players in NIGHT_TEAMS[:4]:
            self.enter(cup, name, players)
        tournaments.tournament_start(tournament=cup, user=user)
        for _ in range(3):
            rnd = tournaments.round_start(
                rnd=tournaments.round_generate(tournament=cup, user=user), user=user
            )
            for table in rnd.tables.filter(match__isnull=False).select_related("match"):
                assert table.match is not None  # filtered above
                for number in range(2):
                    services.deal_record(match=table.match, deal=demo_deal(rng, number + 1), user=user)
            tournaments.standings_refresh(tournament_id=cup.pk)

    def demo_tournament(self, user, rng: random.Random, club: Club) -> None:
        """A club-night Swiss of 8 teams, 4 deals a match: round 1 played, round 2 under way."""
        night = tournaments.tournament_create(
            organizer=user, name="Friday club night", swiss_rounds=3, deals_per_match=4, cuts=[1], club=club
        )
        for name, players in NIGHT_TEAMS:  # the cup's players are the same people, picked
            self.enter(night, name, players)
        tournaments.tournament_start(tournament=night, user=user)
        for round_number in (1, 2):
            rnd = tournaments.round_generate(tournament=night, user=user)
            tournaments.round_start(rnd=rnd, user=user)
            for table in rnd.tables.select_related("match"):
                if table.match is None or (round_number == 2 and table.number > 2):
                    continue
                number = 0
                while Match.objects.get(pk=table.match.pk).status != Match.Status.FINISHED:
                    deal = demo_deal(rng, number)
                    services.deal_record(match=table.match, deal=deal, user=user)
                    number += 1
