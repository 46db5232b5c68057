"""The rating's change over one tournament, for a player's own page (tournaments/personal.py): the
ratings are the league's, and a tournament module may not read them (the apps' layering)."""

from __future__ import annotations

from typing import Any

from django import template

from league.models import RatingPoint

register = template.Library()


@register.simple_tag
def rating_change(players: Any, tournament: Any) -> list[dict[str, Any]]:
    """Each player's rating before and after ``tournament`` and the change (two queries a player at
    most); a player without a rated match there is left out."""
    out = []
    ids = [p.pk for p in players if p is not None]
    points = RatingPoint.objects.filter(player_id__in=ids, match__table__round__tournament=tournament)
    found: dict[int, list[RatingPoint]] = {}
    for point in points.order_by("player_id", "position"):
        found.setdefault(point.player_id, []).append(point)
    for player in players:
        mine = found.get(player.pk) if player is not None else None
        if not mine:
            continue
        before = (
            RatingPoint.objects.filter(player_id=player.pk, position__lt=mine[0].position)
            .order_by("-position")
            .values_list("rating", flat=True)
            .first()
        )
        before = before if before is not None else 0.0
        after = mine[-1].rating
        out.append({"player": player, "before": before, "after": after, "change": after - before})
    return out
