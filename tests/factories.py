"""Test data in the shapes the app takes."""

TEAMS = [("Kafeneio A", ("Nikos", "Eleni")), ("Kafeneio B", ("Giorgos", "Maria"))]


def made(maker=0, cards=(90, 62), last_trick=0, melds=((), ())):
    """A Mpourloto deal dict in the FORMAT.md shape."""
    return {
        "maker": maker,
        "card_points": list(cards),
        "last_trick": last_trick,
        "melds": [list(m) for m in melds],
    }


WIN_0 = {"maker": 0, "card_points": [90, 62], "last_trick": 0}  # 100 v 62: team 0 makes it
WIN_1 = {"maker": 1, "card_points": [62, 90], "last_trick": 1}  # 62 v 100: team 1 makes it


def swiss_night(organizer, teams: int, rounds: int, *, first_player=None, more_rounds: int = 0):
    """A Swiss of ``teams`` one-deal matches with ``rounds`` rounds played through the services (the
    tables won alternately by their second and first team) and the standings computed; its first
    team's first player is ``first_player`` (a Player) if given. ``more_rounds`` are left to play."""
    from scoring import services as scoring
    from tournaments import services
    from tournaments.models import Tournament

    t = services.tournament_create(
        organizer=organizer, name=f"Night {teams}", swiss_rounds=rounds + more_rounds, deals_per_match=1
    )
    for n in range(teams):
        first = first_player if (n == 0 and first_player is not None) else f"a{teams}-{n}"
        services.entry_register(tournament=t, name=f"T{teams}-{n}", players=[first, f"b{teams}-{n}"])
    t = services.tournament_start(tournament=t, user=organizer)
    for _ in range(rounds):
        rnd = services.round_start(rnd=services.round_generate(tournament=t, user=organizer), user=organizer)
        for k, table in enumerate(rnd.tables.filter(match__isnull=False).order_by("number")):
            scoring.deal_record(match=table.match, deal=WIN_0 if k % 2 else WIN_1, user=organizer)
        services.standings_refresh(tournament_id=t.pk)
    return Tournament.objects.get(pk=t.pk)
