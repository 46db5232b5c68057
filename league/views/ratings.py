"""Rating pages: the ratings' leaderboard, and the rating part of a player's page. Public, read only."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import forms
from django.core.paginator import Page, Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_safe

from league import ratings
from league.charts import rating_chart_svg
from league.models import RatingPoint
from players.models import Player

RECENT_POINTS = 10  # listed under the chart, newest first
PAGE_SIZE = 50


@dataclass(frozen=True)
class RatingPanel:
    """What a player's page shows of the rating: the player (their current rating), the history
    this person may see, its newest points, the chart, and whether points were left out."""

    player: Player
    points: list[RatingPoint]
    chart: str | None
    shown: bool = True  # False: a player with no rating and no finished match (nothing to say yet)

    @property
    def recent(self) -> list[RatingPoint]:
        return self.points[::-1][:RECENT_POINTS]

    @property
    def hidden(self) -> bool:
        """Some rated matches are not shown (private tournaments this person may not see)."""
        return len(self.points) < self.player.rated_matches


def rating_panel(*, player: Player, user: Any = None, played: int = 0) -> RatingPanel:
    """The rating part of ``player``'s page, for ``user``: one query for the history. A player
    without a rating who has ``played`` finished matches is told why they have none."""
    history = ratings.rating_history(player=player, user=user).select_related("match__team0", "match__team1")
    points = list(history)
    chart = None
    if points:
        # The model's starting belief at 0 when the whole history is shown (a new player's start).
        prior = ratings.rating_model()
        start = (prior.mu, prior.sigma, prior.mu - ratings.Z * prior.sigma)
        chart = rating_chart_svg(
            [(p.mu, p.sigma, p.rating) for p in points],
            start=start if len(points) == player.rated_matches else None,
            chart_id=f"rating-chart-{player.pk}",
            translate=gettext,
        )
    shown = player.rating is not None or bool(points) or played > 0
    return RatingPanel(player=player, points=points, chart=chart, shown=shown)


class MinimumForm(forms.Form):
    """The leaderboard's minimum of rated matches, as ``?min=N``."""

    min = forms.IntegerField(
        label=_("Minimum rated matches"),
        required=False,
        min_value=1,
        max_value=10_000,
        widget=forms.NumberInput(attrs={"placeholder": ratings.LEADERBOARD_MIN_MATCHES}),
    )


@require_safe
def rating_list(request: HttpRequest) -> HttpResponse:
    """The players by rating, best first, with their skill ± uncertainty and rated matches."""
    form = MinimumForm(request.GET)
    context: dict[str, Any] = {"form": form, "page": None, "min_matches": ratings.LEADERBOARD_MIN_MATCHES}
    if not form.is_valid():
        return render(request, "league/ratings.html", context, status=422)
    context["min_matches"] = form.cleaned_data["min"] or ratings.LEADERBOARD_MIN_MATCHES
    players = ratings.rating_leaderboard(user=request.user, min_matches=context["min_matches"])
    page: Page = Paginator(players, PAGE_SIZE).get_page(request.GET.get("page"))
    context["page"] = page
    context["rows"] = [(page.start_index() + i, player) for i, player in enumerate(page.object_list)]
    return render(request, "league/ratings.html", context)
