"""What each event says: the ``data`` of a delivery's body, and the links in it.

The body of every delivery::

    {"id": "<the delivery's uuid>", "type": "match.finished", "created": "2026-05-02T21:14:03.120+00:00",
     "tournament": {"slug": …, "name": …, "url": <its page>}, "data": {…}}

``data`` carries what identifies the change and links to the API's answers (absolute, from
``TSOXA_SITE_URL``), never whole standings: a receiver fetches what it needs.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.urls import reverse

from players.models import Team
from scoring.models import Match
from tournaments.models import Round, StandingsSnapshot, Table, Tournament


def absolute(path: str) -> str:
    return settings.TSOXA_SITE_URL.rstrip("/") + path


def _api(name: str, **kwargs: Any) -> str:
    """An API answer's address, with its trailing slash (the API's routes make it optional)."""
    path = reverse(f"v1:{name}", kwargs=kwargs)
    return absolute(path if path.endswith("/") else path + "/")


def tournament_part(tournament: Tournament) -> dict[str, str]:
    return {
        "slug": tournament.slug,
        "name": tournament.name,
        "url": absolute(reverse("tournaments:home", args=[tournament.slug])),
    }


def _standings_links(tournament: Tournament) -> dict[str, str]:
    return {
        "standings": _api("tournament-standings", slug=tournament.slug),
        "ranking": _api("tournament-ranking", slug=tournament.slug),
    }


def _round(rnd: Round) -> dict[str, Any]:
    return {"number": rnd.number, "kind": rnd.kind, "status": rnd.status}


def round_data(tournament: Tournament, rnd: Round) -> dict[str, Any]:
    """round.started, round.finished: the round's number, kind and status, and where to read it."""
    return {
        "round": _round(rnd),
        "links": {
            "round": _api("tournament-round", slug=tournament.slug, number=rnd.number),
            "page": absolute(reverse("tournaments:round", args=[tournament.slug, rnd.number])),
            **_standings_links(tournament),
        },
    }


def match_data(tournament: Tournament, table: Table, match: Match) -> dict[str, Any]:
    """match.finished: the round (as round.* give it) and the table, the match's teams, totals and
    winner (0 or 1; none: a draw), the entries (the standings' ``entry``), and where to read the
    match and the standings."""
    teams = Team.objects.select_related("player_a", "player_b").in_bulk([match.team0_id, match.team1_id])
    sides = [teams[match.team0_id], teams[match.team1_id]]
    return {
        "round": _round(table.round),
        "table": table.number,
        "entries": [table.entry0_id, table.entry1_id],
        "match": {
            "id": match.pk,
            "teams": [
                {"name": team.name, "players": [team.player_a.name, team.player_b.name]} for team in sides
            ],
            "totals": list(match.totals or []),
            "winner": match.winner,
        },
        "links": {
            "match": _api("match-detail", pk=match.pk),
            "sheet": _api("match-sheet", pk=match.pk),
            **_standings_links(tournament),
        },
    }


def standings_data(tournament: Tournament, snapshot: StandingsSnapshot) -> dict[str, Any]:
    """standings.updated: the new version only (no rows) and where to read them."""
    return {"version": snapshot.version, "links": _standings_links(tournament)}


def finished_data(tournament: Tournament) -> dict[str, Any]:
    """tournament.finished: when, whether the organizer finished it early and why, and where to read
    the final ranking."""
    return {
        "finished_at": tournament.finished_at.isoformat() if tournament.finished_at else None,
        "early": bool(tournament.finish_reason),
        "reason": tournament.finish_reason,
        "links": {
            **_standings_links(tournament),
            "export": _api("tournament-export", slug=tournament.slug),
        },
    }
