"""Organizer pages for the evening's mishaps: a table's result typed from its paper sheet (the tablet
died), and a drawn round redrawn or deleted before it starts. The services decide
(``services.paper``, ``services.rounds``); these pages collect and show."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods, require_POST

from . import services, views
from .models import Round, Table, Tournament
from .services.paper import MAX_TOTAL, paper_counts_deals, table_paper
from .views import organizer_only

WINNER_CHOICES = [("", _("A draw")), ("0", "0"), ("1", "1")]


class PaperForm(forms.Form):
    """The two totals, the winner on a tie, the reason."""

    total0 = forms.IntegerField(min_value=0, max_value=MAX_TOTAL, label=_("Total"))
    total1 = forms.IntegerField(min_value=0, max_value=MAX_TOTAL, label=_("Total"))
    winner = forms.ChoiceField(choices=WINNER_CHOICES, required=False, label=_("If the totals are level"))
    reason = forms.CharField(max_length=300, required=False, label=_("Reason"))

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for name in ("total0", "total1"):
            self.fields[name].widget.attrs.update(
                inputmode="numeric", autocomplete="off", **{"class": "big-input"}
            )


def _manage(tournament: Tournament, view: str) -> str:
    """The manage page, at the section of the view's form (``views.MANAGE_ANCHORS``)."""
    anchor = getattr(views, "MANAGE_ANCHORS", {}).get(view, "rounds")
    return reverse("tournaments:manage", args=[tournament.slug]) + f"#{anchor}"


def _table(tournament: Tournament, number: int, table: int) -> Table:
    return get_object_or_404(
        Table.objects.select_related(
            "round__tournament", "match", "entry0__team", "entry0__player", "entry1__team", "entry1__player"
        ).select_related("partner0__player", "partner1__player"),
        round__tournament=tournament,
        round__number=number,
        number=table,
    )


@organizer_only
@require_http_methods(["GET", "HEAD", "POST"])
def table_paper_page(request, tournament: Tournament, number: int, table: int):
    """The table's result from its paper sheet: the two totals (and the winner on a tie) entered,
    the current one shown with "Remove"."""
    found = _table(tournament, number, table)
    status = 200
    if request.method == "POST" and request.POST.get("action") == "remove":
        try:
            services.table_paper_remove(table=found, user=request.user)
        except services.TournamentError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, gettext("The paper result is removed."))
        return redirect(_manage(tournament, "table_paper"))
    if request.method == "POST":
        form = PaperForm(request.POST)
        if form.is_valid():
            d = form.cleaned_data
            try:
                services.table_paper_result(
                    table=found,
                    totals=[d["total0"], d["total1"]],
                    winner=int(d["winner"]) if d["winner"] else None,
                    reason=d["reason"],
                    user=request.user,
                )
            except services.TournamentError as error:
                form.add_error(None, str(error))
            else:
                messages.success(
                    request,
                    gettext("Table %(table)s: the result from the paper sheet is recorded.")
                    % {"table": table},
                )
                return redirect(_manage(tournament, "table_paper"))
        status = 422
    else:
        form = PaperForm(initial={"reason": gettext("From the paper sheet")})
    context = {
        "tournament": tournament,
        "table": found,
        "round": found.round,
        "form": form,
        "paper": table_paper(found),
        "by_deals": paper_counts_deals(found),
        "knockout": found.round.kind == Round.Kind.KNOCKOUT,
    }
    return render(request, "tournaments/table_paper.html", context, status=status)


def _round_action(request, tournament: Tournament, number: int, action, success: str, view: str):
    rnd = get_object_or_404(tournament.rounds, number=number)
    try:
        action(rnd)
    except services.TournamentError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, success)
    return redirect(_manage(tournament, view))


@organizer_only
@require_POST
def round_redraw(request, tournament: Tournament, number: int):
    """Draw a drawn round again (not started, the last one)."""
    return _round_action(
        request,
        tournament,
        number,
        lambda rnd: services.round_redraw(rnd=rnd, user=request.user),
        gettext("Round %(number)s is drawn again: check the tables, then start it.") % {"number": number},
        "round_redraw",
    )


@organizer_only
@require_http_methods(["GET", "HEAD", "POST"])
def round_delete(request, tournament: Tournament, number: int):
    """Delete a drawn round (not started, the last one): a confirmation page, then the POST with its
    box ticked."""
    rnd = get_object_or_404(tournament.rounds, number=number)
    if request.method == "POST":
        if request.POST.get("confirm") != "1":
            context = {"tournament": tournament, "round": rnd, "unconfirmed": True}
            return render(request, "tournaments/round_delete.html", context, status=422)
        return _round_action(
            request,
            tournament,
            number,
            lambda rnd: services.round_delete(rnd=rnd, user=request.user),
            gettext("Round %(number)s is deleted: draw it again when you are ready.") % {"number": number},
            "round_delete",
        )
    return render(request, "tournaments/round_delete.html", {"tournament": tournament, "round": rnd})
