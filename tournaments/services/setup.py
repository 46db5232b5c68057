"""Setting a tournament up: its rules, format and tie-breaks; the start."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext

from players import club_services as clubs
from scoring import engine, presets
from scoring.messages import engine_message

from .. import live, pairing, standings
from ..models import Entry, StandingsSnapshot, Tournament
from . import individual, queue, sync
from .common import ACTIVE, TournamentError


def _match_options(ruleset: str, options: dict[str, Any] | None, deals: int) -> dict[str, Any]:
    rules = engine.get_ruleset(ruleset)
    opts = rules.options({**(options or {}), "deals": deals})
    return rules.spelt_out(opts)


def _unique_slug(name: str) -> str:
    base = slugify(name)[:120] or "tournament"
    slug, n = base, 1
    while Tournament.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


SETTINGS = (
    "name",
    "ruleset",
    "options",
    "preset",
    "format",
    "swiss_rounds",
    "knockout_size",
    "third_place",
    "pool_size",
    "consolation",
    "seed",
    "time_limit",
    "bye_game_points",
    "tiebreaks",
    "deals_per_match",
    "points_win",
    "points_draw",
    "points_loss",
    "points_bye",
    "playoff_deals",
    "cuts",
    "public",
    "club",
    "signup_open",
    "starts_on",
    "confirmation",
    "deal_check",
    "rated",
    "seed_by_rating",
)


ON_POINTS = ("game_points", "wins", "point_difference")


def default_order(format: str | None) -> tuple[str, ...]:
    """The tie-breaks when the organizer names none: a concours or an individual event ranks on
    cumulative points (then wins, then the difference), the others on match points."""
    if format in (Tournament.Format.CONCOURS, Tournament.Format.INDIVIDUAL):
        return ON_POINTS
    return standings.DEFAULT_ORDER


def _check_settings(values: dict[str, Any], kept_preset: str = "") -> dict[str, Any]:
    try:
        standings.validate_order(values.get("tiebreaks") or standings.DEFAULT_ORDER)
    except ValueError as error:
        raise TournamentError(gettext("Tie-breaks: %(error)s") % {"error": error}) from None
    values["tiebreaks"] = list(values.get("tiebreaks") or default_order(values.get("format")))
    cuts = values.get("cuts") or []
    if any(not isinstance(c, int) or c < 1 for c in cuts):
        raise TournamentError(gettext("Cuts are places: whole numbers from 1."))
    values["cuts"] = sorted(set(cuts))
    if values.get("format") != Tournament.Format.ROUND_ROBIN and not values.get("swiss_rounds", 5):
        raise TournamentError(gettext("This format needs a number of rounds."))
    if values.get("knockout_size", 0) == 1:
        raise TournamentError(gettext("A knockout stage needs at least 2 teams (0 for none)."))
    if values.get("format") == Tournament.Format.POOLS and not 3 <= (values.get("pool_size") or 4) <= 8:
        raise TournamentError(gettext("A pool has 3 to 8 teams."))
    if values.get("third_place") and values.get("knockout_size", 0) < 4:
        raise TournamentError(gettext("A match for third place needs a knockout of at least 4 teams."))
    if values.get("format") == Tournament.Format.INDIVIDUAL:
        individual.check_settings(values)
    try:
        _preset_settings(values, kept_preset)
        ruleset = values["ruleset"]
        values["options"] = _match_options(ruleset, values.get("options"), values.get("deals_per_match") or 0)
    except engine.ScoringError as error:
        raise TournamentError(
            gettext("Rules: %(error)s") % {"error": engine_message(error.message)}
        ) from None
    return values


def _preset_settings(values: dict[str, Any], kept: str) -> None:
    """A named preset sets the game and the options (the options given go over its own), the minutes a
    round when none are set, and the deals a match when none are set; its name is kept, and every match
    of the tournament carries it (``round_start``). The preset the tournament already has (``kept``)
    may have been deleted since: its options are the tournament's own, spelt out."""
    preset = values.get("preset") or ""
    found = presets.preset_get(preset) if preset else None
    values["ruleset"], values["options"], values["preset"] = presets.preset_apply(
        preset=preset, ruleset=values.get("ruleset"), options=values.get("options"), must_exist=preset != kept
    )
    if found is not None and preset != kept:  # newly chosen: what the organizer left unset
        if not values.get("time_limit") and found.time_limit:
            values["time_limit"] = found.time_limit
        if not values.get("deals_per_match") and found.options.get("deals"):
            values["deals_per_match"] = found.options["deals"]


def _check_club(club: Any, user: Any) -> None:
    """A tournament belongs to a club its organizer runs (a superuser's to any club)."""
    if club is not None and not clubs.is_admin(club, user):
        raise TournamentError(
            gettext("%(club)s is not a club you run: a tournament belongs only to a club of yours.")
            % {"club": club.name}
        )


@transaction.atomic
def tournament_create(*, organizer: Any, name: str, **settings: Any) -> Tournament:
    unknown = set(settings) - set(SETTINGS)
    if unknown:
        raise TournamentError(gettext("Unknown setting %(name)r.") % {"name": sorted(unknown)[0]})
    if not name.strip():
        raise TournamentError(gettext("A tournament needs a name."))
    values = _check_settings({"name": name.strip(), **settings})
    _check_club(values.get("club"), organizer)
    tournament = Tournament(organizer=organizer, slug=_unique_slug(name), **values)
    tournament._history_user = organizer
    tournament.save()
    return tournament


@transaction.atomic
def tournament_update(*, tournament: Tournament, user: Any, **settings: Any) -> Tournament:
    """Change the set-up; only before the start (the rules and tie-breaks never change silently)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status != Tournament.Status.REGISTRATION:
        raise TournamentError(
            gettext("The tournament has started: its rules, format and tie-breaks are fixed.")
        )
    current = {name: getattr(tournament, name) for name in SETTINGS}
    if settings.get("ruleset", tournament.ruleset) != tournament.ruleset and "options" not in settings:
        current["options"] = {}  # another game: its own options, at their defaults
    if settings.get("ruleset", tournament.ruleset) != tournament.ruleset:
        current["preset"] = ""  # the preset was the other game's
    if settings.get("preset", tournament.preset) not in ("", tournament.preset):
        current["ruleset"] = None  # another preset: its game
        if "options" not in settings:
            current["options"] = {}  # and its options
    values = _check_settings({**current, **settings}, kept_preset=tournament.preset)
    if values.get("club") is not None and values["club"] != tournament.club:  # kept as it was: no check
        _check_club(values["club"], user)
    was_public = tournament.public
    for name, value in values.items():
        setattr(tournament, name, value)
    tournament._history_user = user
    tournament.save()
    sync.visibility_changed(tournament=tournament, was_public=was_public)
    return tournament


@transaction.atomic
def tournament_start(*, tournament: Tournament, user: Any = None) -> Tournament:
    """Fix the teams that play: the checked-in ones if any team checked in, else every registered one."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status != Tournament.Status.REGISTRATION:
        raise TournamentError(gettext("The tournament has already started."))
    entries = tournament.entries.filter(status__in=ACTIVE)
    if entries.filter(status=Entry.Status.CHECKED_IN).exists():
        entries = entries.filter(status=Entry.Status.CHECKED_IN)
    ids = list(entries.order_by("seed", "pk").values_list("pk", flat=True))
    if len(ids) < 2:
        raise TournamentError(gettext("At least two teams are needed to start."))
    if tournament.format == Tournament.Format.INDIVIDUAL and len(ids) < 4:
        raise TournamentError(gettext("An individual event needs at least four players to start."))
    tournament.participants = ids
    if tournament.format == Tournament.Format.POOLS:
        _draw_pools(tournament, ids)
    tournament.status = Tournament.Status.RUNNING
    tournament.started_at = timezone.now()
    tournament._history_user = user
    tournament.save()
    StandingsSnapshot.objects.update_or_create(tournament=tournament, defaults={"rows": [], "playoffs": []})
    queue.standings_request(tournament.pk)
    live.publish(tournament.pk, "round")
    return tournament


@transaction.atomic
def tournament_avoid(
    *, tournament: Tournament, pairs: Sequence[Sequence[int]], user: Any = None
) -> Tournament:
    """The pairs of entries to keep apart from now on (replacing the earlier list): by preference,
    as if they had already met; never forced. Allowed until the tournament is finished."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status == Tournament.Status.FINISHED:
        raise TournamentError(gettext("The tournament is finished: only a result can still be corrected."))
    ids = set(tournament.entries.values_list("pk", flat=True))
    kept: list[list[int]] = []
    for pair in pairs:
        if len(pair) != 2 or len(set(pair)) != 2 or not set(pair) <= ids:
            raise TournamentError(gettext("Each pair names two different entries of this tournament."))
        key = sorted(pair)
        if key not in kept:
            kept.append(key)
    tournament.avoid = kept
    tournament._history_user = user
    tournament.save(update_fields=["avoid", "updated_at"])
    return tournament


def _draw_pools(tournament: Tournament, ids: list[int]) -> None:
    """Split the teams into pools by seed (a snake) and check that the knockout takes as many from
    each pool."""
    try:
        drawn = pairing.make_pools(ids, tournament.pool_size)
    except pairing.PairingError as error:
        raise TournamentError(gettext("The pools cannot be made: %(error)s") % {"error": error}) from None
    if tournament.knockout_size % len(drawn):
        raise TournamentError(
            gettext("A knockout of %(size)s from %(pools)s pools: take as many teams from each pool.")
            % {"size": tournament.knockout_size, "pools": len(drawn)}
        )
    for letter, members in drawn.items():
        Entry.objects.filter(pk__in=members).update(pool=letter)
