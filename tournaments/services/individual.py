"""Individual events: players enter alone, partners and opponents change every round.

An entry is one player (``Entry.player``). A round's table seats four of them: ``entry0`` and
``partner0`` are one partnership (the match's team 0, seats 0 and 2), ``entry1`` and ``partner1``
the other (team 1, seats 1 and 3); a table with ``entry0`` alone is a sit-out, counted as a bye.
The movement (``pairing.individual``, pure code) says who sits where; this module feeds it the
rounds already played and saves what it returns. Each player scores what their partnership
scores: ``results`` counts a four-seat table as two results, one per pair of opponents.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext
from simple_history.utils import bulk_create_with_history

from players.errors import PlayerError
from players.models import Player
from players.services import player_create
from scoring import engine
from scoring import selectors as scoring_selectors
from scoring.messages import engine_sentence

from .. import live
from ..models import Entry, Round, Table, Tournament
from ..pairing import PairingError
from ..pairing import individual as movement
from ..pairing.check import check_individual
from .common import TournamentError

TEAM_NAME_MOST = 80  # players.Team.name


def is_individual(tournament: Tournament) -> bool:
    return tournament.format == Tournament.Format.INDIVIDUAL


# Set-up -------------------------------------------------------------------------------------

GROUP_METRICS = ("head_to_head", "buchholz")  # about one's opponents: they change with the partners


def check_settings(values: dict[str, Any]) -> None:
    """What an individual event cannot have: a knockout or play-offs (a player cannot play a match
    alone), tie-breaks by opponents (every player meets many, with different partners)."""
    if values.get("knockout_size"):
        raise TournamentError(gettext("An individual event has no knockout: set its size to 0."))
    if values.get("cuts"):
        raise TournamentError(
            gettext("An individual event has no play-offs: its tie-breaks separate the players.")
        )
    for key in values.get("tiebreaks") or ():
        if key in GROUP_METRICS:
            raise TournamentError(
                gettext(
                    "An individual event cannot rank by head-to-head or Buchholz: partners and "
                    "opponents change every round."
                )
            )


# Entries ------------------------------------------------------------------------------------


def _player(name: str, player_ids: Sequence[int | None] | None, user: Any) -> Player:
    """The entrant: the player picked by ``player_ids`` (one id or null, a player ``user`` may see,
    whose name is the one given), else a new player of that name. The same rules as a team's
    players (``scoring.selectors.team_entry`` decides; its second seat is not used here)."""
    if player_ids is not None:
        if isinstance(player_ids, str) or not isinstance(player_ids, Sequence) or len(player_ids) != 1:
            raise TournamentError(gettext("An individual entry picks one player: one id (or null)."))
        player_ids = [player_ids[0], None]
    try:
        _, (given, _) = scoring_selectors.team_entry(
            name=name, players=[name, name], player_ids=player_ids, user=user, field="players"
        )
        return given if isinstance(given, Player) else player_create(name=given)
    except (engine.ScoringError, PlayerError) as error:
        raise TournamentError(engine_sentence(error.message)) from None


def player_register(
    *,
    tournament: Tournament,
    players: Sequence[str],
    player_ids: Sequence[int | None] | None,
    status: str,
    contact: str,
    user: Any,
) -> Entry:
    """Enter one player in an individual event (``entry_register`` calls it); a player enters once."""
    if len(players) != 1:
        raise TournamentError(gettext("An individual event's entry is one player."))
    player = _player(players[0], player_ids, user)
    if Entry.objects.filter(tournament=tournament, player=player).exists():
        raise TournamentError(gettext("%(team)s is already entered.") % {"team": player.name})
    from .entries import entry_next_number

    number = entry_next_number(tournament)
    entry = Entry(tournament=tournament, player=player, status=status, contact=contact, number=number)
    entry._history_user = user
    entry.save()
    return entry


# Rounds -------------------------------------------------------------------------------------


def _history(tournament: Tournament) -> tuple[list[movement.IndividualRound], Counter[int]]:
    """The individual rounds drawn so far, as the movement reads them (in one query), and how often
    each player sat out."""
    rounds: dict[int, tuple[list[movement.Seat4], list[int]]] = {}
    rows = (
        Table.objects.filter(round__tournament=tournament, round__kind=Round.Kind.INDIVIDUAL)
        .order_by("round__number", "number")
        .values_list("round__number", "entry0_id", "partner0_id", "entry1_id", "partner1_id")
    )
    sat_out: Counter[int] = Counter()
    for number, a, b, c, d in rows:
        tables, out = rounds.setdefault(number, ([], []))
        if c is None:
            out.append(a)
            sat_out[a] += 1
        else:
            tables.append(movement.Seat4(north_south=(a, b), east_west=(c, d)))
    history = [
        movement.IndividualRound(tables=tuple(tables), sitting_out=tuple(out))
        for tables, out in (rounds[n] for n in sorted(rounds))
    ]
    return history, sat_out


def _same(a: movement.IndividualRound, b: movement.IndividualRound) -> bool:
    """Two rounds seat the same partnerships against each other and the same players out (in
    whatever order of tables and seats)."""

    def seating(rnd: movement.IndividualRound) -> tuple[set, set]:
        tables = {frozenset((frozenset(t.north_south), frozenset(t.east_west))) for t in rnd.tables}
        return tables, set(rnd.sitting_out)

    return seating(a) == seating(b)


def next_round(tournament: Tournament, playing: Sequence[int]) -> movement.IndividualRound:
    """The next round of the movement for the players still ``playing``, checked before anything is
    saved. While the field and the rounds drawn are the movement's own, it is the next round of
    the whole movement (``individual_schedule``, from the tournament's seed: the best one); once
    a player has withdrawn or a round was changed by a swap, it is drawn from the rounds played
    (``individual_next_round``: the withdrawn are out, what was played counts)."""
    if len(playing) < 4:
        raise TournamentError(gettext("An individual round needs at least four players."))
    history, sat_out = _history(tournament)
    done = len(history)
    # A late entry's missed rounds count as sat out: it does not sit out again before the others.
    late = Entry.objects.filter(pk__in=playing, joined_round__gt=1).values_list("pk", "joined_round")
    for entry, joined in late:
        assert joined is not None  # joined_round__gt=1 left out the entries without one
        sat_out[entry] += joined - 1
    # Pairs kept apart (a couple, a family): by preference never partners.
    avoid = {frozenset(pair) for pair in tournament.avoid if len(set(pair)) == 2}
    try:
        rnd = None
        if sorted(playing) == sorted(tournament.participants):
            # The whole movement for the event's length (a movement may differ by its length).
            length = max(tournament.swiss_rounds, done + 1)
            schedule = movement.individual_schedule(playing, length, seed=tournament.seed, avoid=avoid)
            if all(_same(a, b) for a, b in zip(history, schedule, strict=False)):
                rnd = schedule[done]
        if rnd is None:
            rnd = movement.individual_next_round(
                list(playing), history, seed=tournament.seed, sat_out_counts=dict(sat_out), avoid=avoid
            )
        check_individual(
            playing,
            [(t.north_south[0], t.north_south[1], t.east_west[0], t.east_west[1]) for t in rnd.tables],
            rnd.sitting_out,
            sat_out=sat_out,
        )
    except PairingError as error:
        raise TournamentError(
            gettext("The pairing was not valid, nothing was saved: %(error)s") % {"error": error}
        ) from None
    return rnd


def round_draw(*, tournament: Tournament, playing: Sequence[int], user: Any = None) -> Round:
    """Draw and save the next individual round (a draft until it starts): the tables in the
    movement's order, then a bye table for each player sitting out. ``rounds.round_generate`` has
    locked the tournament and checked that the last round is finished."""
    if tournament.rounds.filter(kind=Round.Kind.INDIVIDUAL).count() >= tournament.swiss_rounds:
        raise TournamentError(gettext("Every round has been played."))
    seats = next_round(tournament, playing)
    number = (tournament.rounds.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    rnd = Round(tournament=tournament, number=number, kind=Round.Kind.INDIVIDUAL)
    rnd._history_user = user
    rnd.save()
    tables = [
        Table(
            round=rnd,
            number=n,
            entry0_id=t.north_south[0],
            partner0_id=t.north_south[1],
            entry1_id=t.east_west[0],
            partner1_id=t.east_west[1],
        )
        for n, t in enumerate(seats.tables, start=1)
    ]
    tables += [
        Table(round=rnd, number=n, entry0_id=e)
        for n, e in enumerate(sorted(seats.sitting_out), start=len(tables) + 1)
    ]
    bulk_create_with_history(tables, Table, default_user=user)
    live.publish(tournament.pk, "round")
    return rnd


SEATS = ("entry0", "entry1", "partner0", "partner1")  # sides 0-3: the match's seats 0-3


def round_swap(*, rnd: Round, first: tuple[int, int], second: tuple[int, int], user: Any = None) -> Round:
    """Swap two players of a drawn individual round: (table number, seat 0-3) each, the seats as the
    match numbers them: 0 and 2 are one partnership, 1 and 3 the other; a sit-out is seat 0 of its
    table. ``rounds.round_swap`` has locked and checked the round."""
    tables = {t.number: t for t in rnd.tables.select_for_update()}
    try:
        (ta, sa), (tb, sb) = first, second
        a, b = tables[ta], tables[tb]
    except (KeyError, ValueError):
        raise TournamentError(gettext("No such table.")) from None
    if sa not in range(4) or sb not in range(4):
        raise TournamentError(gettext("A seat is 0, 1, 2 or 3 (A, B, C or D)."))
    ea, eb = getattr(a, f"{SEATS[sa]}_id"), getattr(b, f"{SEATS[sb]}_id")
    if ea is None or eb is None:
        raise TournamentError(gettext("Nobody sits there; swap the player who sits out (seat A)."))
    setattr(a, f"{SEATS[sa]}_id", eb)
    setattr(b, f"{SEATS[sb]}_id", ea)
    ordered = sorted(tables.values(), key=lambda t: t.number)
    seated = [_seats(t) for t in ordered if not t.is_bye]
    out = [t.entry0_id for t in ordered if t.is_bye]
    try:
        check_individual([e for seats in seated for e in seats] + out, seated, out)
    except PairingError as error:
        raise TournamentError(
            gettext("That swap makes no valid pairing: %(error)s") % {"error": error}
        ) from None
    for table in (a, b) if a.pk != b.pk else (a,):
        table._history_user = user
        table.save()
    live.publish(rnd.tournament_id, "round")
    return rnd


def _seats(table: Table) -> tuple[int, int, int, int]:
    """A drawn individual table's four players, in the order of its seats 0-3."""
    partner0, entry1, partner1 = table.partner0_id, table.entry1_id, table.partner1_id
    assert partner0 is not None and entry1 is not None and partner1 is not None  # no sit-out: all four seated
    return (table.entry0_id, partner0, entry1, partner1)


def partnership_name(first: str, second: str) -> str:
    """The match's team name, as "Nikos & Eleni", shortened to fit a team's name when it must."""
    name = f"{first} & {second}"
    if len(name) <= TEAM_NAME_MOST:
        return name
    half = (TEAM_NAME_MOST - 3) // 2
    cut = [n if len(n) <= half else n[: half - 1] + "…" for n in (first, second)]
    return f"{cut[0]} & {cut[1]}"


def match_teams(table: Table) -> list[tuple[str, tuple[Player, Player]]]:
    """The two partnerships of a four-seat table as ``match_create`` takes them: the entries' own
    people, so no new player is made."""
    teams = []
    for entry, partner in ((table.entry0, table.partner0), (table.entry1, table.partner1)):
        assert entry is not None and partner is not None  # a four-seat table: every seat taken
        first, second = entry.player, partner.player
        assert first is not None and second is not None  # an individual event's entries are players
        teams.append((partnership_name(first.name, second.name), (first, second)))
    return teams


MATCH_RELATED = ("entry0__player", "partner0__player", "entry1__player", "partner1__player")
