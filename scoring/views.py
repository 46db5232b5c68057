"""The tablet pages: thin views over the services and selectors.

Every form works without JavaScript (post, then redirect to the sheet);
htmx, when present, posts the same forms and swaps the match area in place
(a recorded deal: only the parts it changed).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import messages
from django.core.paginator import Paginator
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_ratelimit.decorators import ratelimit

from . import engine, selectors, services
from .forms import DealForm, MatchForm
from .messages import engine_message, engine_sentence
from .models import Deal, Match
from .permissions import (
    SESSION_KEY,
    can_check,
    can_confirm,
    can_end,
    can_keep,
    can_see,
    confirm_teams,
    settled_for,
    table_of,
)

if TYPE_CHECKING:
    from web.http import HtmxHttpRequest

INVALID = 422  # htmx is configured (base.html) to swap 422 responses: the form with its errors


def _user(request: HttpRequest):
    return request.user if request.user.is_authenticated else None


def _match_or_404(request: HttpRequest, pk: int) -> Match:
    """The match, if this person may see it: a private tournament's matches are its organizer's
    and its tables' (nothing is revealed to anyone else, not even that it exists)."""
    match = get_object_or_404(Match.objects.select_related(*selectors.MATCH_RELATED), pk=pk)
    if not can_see(request.user, match, request.session):
        raise Http404
    return match


def _posted_version(request: HttpRequest) -> int | None:
    """The sheet version a tablet's form was shown with (None: an old form without one)."""
    try:
        return int(request.POST["version"])
    except (KeyError, ValueError):
        return None


def _refused(request: HttpRequest, match: Match) -> HttpResponse | None:
    """Only the match's scorekeepers change it (its table's link, its creator, its organizer)."""
    if can_keep(request.user, match, request.session):
        return None
    return render(request, "scoring/not_keeper.html", {"match": match}, status=403)


def _sheet_context(request: HttpRequest, match: Match, sheet: engine.Sheet, dealt: int, form=None) -> dict:
    """What the sheet's match area shows (whole, or the parts a recorded deal changes)."""
    return {
        "can_keep": can_keep(request.user, match, request.session),
        "can_confirm": can_confirm(request.user, match, request.session),
        "confirm_teams": confirm_teams(request.user, match, request.session),
        "settled": settled_for(request.user, match, request.session),
        "match": match,
        "sheet": sheet,
        "dealt": dealt,
        "form": form
        or DealForm(ruleset=match.ruleset, options=match.options, initial={"version": match.version}),
        "seat_names": [p.name for p in match.seats],
        "team_names": [t.name for t in match.teams],
        "to_go": [sheet.to_go(0), sheet.to_go(1)],
        **_table_context(request, match, sheet),
    }


def _table_context(request: HttpRequest, match: Match, sheet: engine.Sheet) -> dict:
    """What a tournament table's sheet shows differently: ``tournament_table``, its place (event,
    round, table) and what happens next once the match is over; ``at_table``, the sheet opened from
    the table's link (no site menu); ``deals_of``, a match of a fixed number of deals: the deal in play
    of how many, and whether it is the last; ``can_end``, "End the match" (at a tournament table,
    the organizer's only); confirmation only where the tournament asks for it."""
    table = table_of(match)
    deals = match.options.get("deals") or 0
    played = sheet.state.progress.played if sheet.state is not None else 0
    context: dict = {
        "tournament_table": table is not None,
        "at_table": table is not None and match.pk in request.session.get(SESSION_KEY, []),
        "deals_of": {"number": min(played + 1, deals), "of": deals, "last": played + 1 >= deals}
        if deals
        else None,
        "can_end": can_end(request.user, match),
    }
    if table is not None and not table.confirmation_asked:
        context.update(can_confirm=False, confirm_teams=())
    return context


def _check_line(request: HttpRequest, match: Match, line: selectors.SheetLine | None):
    """The deal's line shown to the other team for its check (``_deal_check.html``): the newest deal,
    until it is checked or the next deal is recorded, where the match asks for it; else None."""
    if line is None or line.deal.checked_at is not None:
        return None
    return line if can_check(request.user, match, request.session) else None


def _sheet_response(request: HtmxHttpRequest, match: Match, form: DealForm | None = None, status: int = 200):
    """The sheet page, or only its match area for htmx."""
    data = selectors.match_sheet(match=match)
    context = {**_sheet_context(request, match, data.sheet, len(data.lines), form), "data": data}
    context["check"] = _check_line(request, match, data.lines[-1] if data.lines else None)
    template = "scoring/sheet.html#match-area" if request.htmx else "scoring/sheet.html"
    return render(request, template, context, status=status)


def _deal_recorded(request: HttpRequest, match: Match, deal: Deal) -> HttpResponse:
    """htmx's answer to a recorded deal, made from the state the deal left (no deal is read again):
    the parts of the sheet it changed, each swapped out of band (sheet.html#deal-recorded), and no
    other swap (HX-Reswap)."""
    rules = engine.get_ruleset(match.ruleset)
    state = engine.MatchState.from_dict(match.state)
    sheet = engine.sheet_of(rules, rules.options(match.options), state)
    assert deal.row is not None  # a deal recorded now (not sent again) carries its row
    line = selectors.SheetLine(deal, deal.row)
    context = {
        **_sheet_context(request, match, sheet, state.dealt),
        "line": line,
        "check": _check_line(request, match, line),
    }
    response = render(request, "scoring/sheet.html#deal-recorded", context)
    response["HX-Reswap"] = "none"
    return response


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    matches = selectors.match_list(user=request.user)  # a private tournament's are its organizer's
    page = Paginator(matches, 30).get_page(request.GET.get("page"))
    return render(request, "scoring/home.html", {"page": page})


@require_safe
def help_page(request: HttpRequest) -> HttpResponse:
    return render(request, "scoring/help.html")


MATCHES_PER_HOUR = "20/h"  # started without an account, from one address (README)
RECENT_TEAMS_SHOWN = 6  # earlier teams offered at one tap each; the search finds the others
REMATCHES_SHOWN = 3  # "play again": this tablet's latest pairings


def _anonymous_rate(group: str, request: HttpRequest) -> str | None:
    """Matches started without an account are limited per address; an account's are not."""
    return None if request.user.is_authenticated else MATCHES_PER_HOUR


def _recent(request: HttpRequest) -> list[Match]:
    """The latest matches of this tablet (its session) and of this account."""
    return selectors.recent_matches(user=request.user, match_ids=request.session.get(SESSION_KEY, []))


@ratelimit(key="ip", rate=_anonymous_rate, method="POST", block=True)
@require_http_methods(["GET", "HEAD", "POST"])
def match_new(request: HttpRequest) -> HttpResponse:
    recent = _recent(request)
    recent_teams = selectors.recent_teams(matches=recent)[:RECENT_TEAMS_SHOWN]
    again = _again(recent, request.GET.get("again")) if request.method != "POST" else None
    form = MatchForm(
        request.POST or None, user=request.user, recent_teams=recent_teams, initial=_again_initial(again)
    )
    if request.method == "POST" and form.is_valid():
        try:
            match = services.match_create(
                teams=form.teams(),
                ruleset=form.cleaned_data["ruleset"],
                options=form.options(),
                preset=form.preset(),
                first_dealer=form.cleaned_data["first_dealer"],
                created_by=_user(request),
            )
        except engine.ScoringError as error:
            form.add_error(None, engine_sentence(error.message))
        else:
            # This tablet keeps the match it started, with or without an account.
            request.session[SESSION_KEY] = sorted({*request.session.get(SESSION_KEY, []), match.pk})
            return redirect("scoring:match", pk=match.pk)
    status = INVALID if form.errors else 200
    context = {
        "form": form,
        "again": _rematches(recent),
        "clockwise": [key for key, rules in engine.RULESETS.items() if rules.clockwise],
    }
    return render(request, "scoring/match_new.html", context, status=status)


def _rematches(recent: list[Match]) -> list[Match]:
    """This tablet's latest pairings, each once: "play again" starts the same teams at the same game."""
    seen, found = set(), []
    for match in recent:
        pairing = (match.team0_id, match.team1_id, match.ruleset)
        if pairing not in seen:
            seen.add(pairing)
            found.append(match)
    return found[:REMATCHES_SHOWN]


def _again(recent: list[Match], pk: str | None) -> Match | None:
    """The recent match asked for by ``?again=`` (only this tablet's or account's own)."""
    return next((match for match in recent if str(match.pk) == pk), None)


def _again_initial(match: Match | None) -> dict:
    """A new match's form filled in as ``match`` was: its two teams picked, its game and options."""
    if match is None:
        return {}
    initial: dict = {"ruleset": match.ruleset}
    if match.preset:
        initial[f"preset_{match.ruleset}"] = match.preset  # offered only while it is this game's preset
    initial.update(MatchForm.initial_options(match.ruleset, match.options))
    for t, team in enumerate(match.teams):
        initial.update({
            f"team{t}_pick": team.pk, f"team{t}_name": team.name,
            f"team{t}_player_a": team.player_a.name, f"team{t}_player_a_id": team.player_a_id,
            f"team{t}_player_b": team.player_b.name, f"team{t}_player_b_id": team.player_b_id,
        })  # fmt: skip
    return initial


@require_safe
def match_new_search(request: HttpRequest) -> HttpResponse:
    """The pickers of a new match (htmx partial): the players (``?kind=player``) or teams
    (``?kind=team``) whose names hold ``q``, those this person may see, the latest to play first, a
    few at most. With fewer than two characters: those of this tablet's and account's recent matches."""
    kind = "team" if request.GET.get("kind") == "team" else "player"
    query = request.GET.get("q", "")[:80]
    recent = len(" ".join(query.split())) < selectors.SEARCH_MIN
    if recent:
        pick = selectors.recent_teams if kind == "team" else selectors.recent_players
        found = pick(matches=_recent(request))[: selectors.SEARCH_MOST]
    elif kind == "team":
        found = selectors.team_search(query=query, user=request.user)
    else:
        found = selectors.player_search(query=query, user=request.user)
    context = {"kind": kind, "found": found, "recent": recent, "query": query}
    return render(request, "scoring/match_new.html#picks", context)


@require_safe
def match_detail(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    return _sheet_response(request, _match_or_404(request, pk))


@require_POST
def deal_create(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Record a deal from the pad. The match is read once, locked, with what the permission needs;
    the permission is asked once; the deal is scored from the match's stored state."""
    with transaction.atomic():
        match = services.match_lock(
            pk=pk, user=request.user, client_key=request.POST.get("client_key") or None
        )
        if match is None or not can_see(request.user, match, request.session):
            raise Http404  # a private tournament's match: nothing said, not even that it exists
        keeper = can_keep(request.user, match, request.session)
        form = DealForm(request.POST, ruleset=match.ruleset, options=match.options)
        recorded, form = _record(request, match, form) if keeper and form.is_valid() else (None, form)
    if not keeper:
        return render(request, "scoring/not_keeper.html", {"match": match}, status=403)
    if recorded is None:  # refused: the pad says why, on the sheet as it is now
        return _sheet_response(request, match, form, status=INVALID)
    if not request.htmx:
        return redirect("scoring:match", pk=match.pk)
    if not recorded.created:  # the same deal sent again: the sheet as it is
        return _sheet_response(request, match)
    return _deal_recorded(request, match, recorded)


def _record(request: HttpRequest, match: Match, form: DealForm) -> tuple[Deal | None, DealForm]:
    """The valid pad's deal recorded on the locked match; if refused, None and the pad saying why."""
    try:
        deal = services.deal_record(
            match=match,
            deal=form.cleaned_data["deal"],
            client_key=form.cleaned_data["client_key"],
            user=_user(request),
            expected_version=form.cleaned_data.get("version"),
        )
    except services.StaleSheet as error:
        form = form.refreshed(match.version)  # what was typed stays on the pad, on the sheet of now
        form.add_scoring_error(error)
    except engine.ScoringError as error:
        form.add_scoring_error(error)
    else:
        return deal, form
    return None, form


@require_POST
def deal_preview(request: HttpRequest, pk: int) -> HttpResponse:
    """What the deal being typed would give, before it is saved (htmx). With ``?deal=<id>`` (the
    correction page), what that deal would give corrected so, and the whole sheet's new totals."""
    match = _match_or_404(request, pk)
    replaced = None
    if request.GET.get("deal"):
        replaced = match.deals.filter(pk=request.GET["deal"], deleted_at__isnull=True).first()
        if replaced is None:
            raise Http404
    form = DealForm(request.POST, ruleset=match.ruleset, options=match.options)
    preview: engine.DealScore | engine.SheetRow | None = None  # the deal alone, or its corrected row
    problem, corrected = None, None
    if form.is_valid():
        try:
            deal = engine.Deal.from_dict(form.cleaned_data["deal"])
            if replaced is None:
                sheet = selectors.match_sheet(match=match).sheet
                preview = engine.score_deal(match.ruleset, deal, match.options, held=sheet.held)
            else:
                corrected = selectors.match_sheet_replacing(match=match, deal=replaced, data=deal)
                preview = next(row for row in corrected.rows if row.deal is deal)
        except engine.ScoringError as error:
            problem = engine_message(error.message)
    context = {
        "match": match,
        "preview": preview,
        "problem": problem,
        "corrected": corrected,
        "team_names": [t.name for t in match.teams],
    }
    return render(request, "scoring/sheet.html#preview", context)


@require_POST
def deal_undo(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    match = _match_or_404(request, pk)
    if refused := _refused(request, match):
        return refused
    try:
        undone = services.deal_undo_last(
            match=match, user=_user(request), expected_version=_posted_version(request)
        )
    except engine.ScoringError as error:
        messages.error(request, engine_message(error.message))
    else:
        if undone is not None:
            messages.success(request, gettext("The last deal was taken back. Its history keeps it."))
    if request.htmx:
        match.refresh_from_db()
        return _sheet_response(request, match)
    return redirect("scoring:match", pk=match.pk)


@require_POST
def match_end(request: HttpRequest, pk: int) -> HttpResponse:
    """End the match now by agreement (time called, the café closing): the totals decide."""
    match = _match_or_404(request, pk)
    if refused := _refused(request, match):
        return refused
    if not can_end(request.user, match):
        messages.error(request, gettext("At a tournament table, the organizer ends the match."))
        return redirect("scoring:match", pk=match.pk)
    try:
        services.match_finish(match=match, user=_user(request), expected_version=_posted_version(request))
    except engine.ScoringError as error:
        messages.error(request, engine_message(error.message))
    else:
        messages.success(request, gettext("The match was ended on its totals."))
    return redirect("scoring:match", pk=match.pk)


@require_http_methods(["GET", "HEAD", "POST"])
def deal_edit(request: HttpRequest, pk: int, deal_pk: int) -> HttpResponse:
    match = _match_or_404(request, pk)
    deal = get_object_or_404(match.deals, pk=deal_pk)
    data = selectors.match_sheet(match=match)
    line = next((line for line in data.lines if line.deal.pk == deal.pk), None)
    keeper = can_keep(request.user, match, request.session)
    if request.method == "POST" and (refused := _refused(request, match)):
        return refused
    if request.method == "POST" and deal.deleted_at is None:
        form = DealForm(request.POST, ruleset=match.ruleset, options=match.options)
        if form.is_valid():
            try:
                services.deal_correct(
                    deal=deal,
                    data=form.cleaned_data["deal"],
                    user=_user(request),
                    expected_version=form.cleaned_data.get("version"),
                )
            except services.StaleSheet as error:
                # Another tablet changed the sheet: show it as it is now, the correction kept as typed.
                match.refresh_from_db()
                data = selectors.match_sheet(match=match)
                line = next((line for line in data.lines if line.deal.pk == deal.pk), None)
                form = form.refreshed(match.version)
                form.add_scoring_error(error)
            except engine.ScoringError as error:
                form.add_scoring_error(error)
            else:
                assert line is not None  # the deal is not deleted: the sheet has its line
                messages.success(request, gettext("Deal %(number)s corrected.") % {"number": line.row.number})
                return redirect("scoring:match", pk=match.pk)
    else:
        initial = {
            **DealForm.initial_from(match.ruleset, deal.as_engine(), match.options),
            "version": match.version,
        }
        form = DealForm(initial=initial, ruleset=match.ruleset, options=match.options)
    context = {
        "match": match,
        "deal": deal,
        "line": line,
        "sheet": data.sheet,
        "preview_url": f"{reverse('scoring:deal_preview', args=[match.pk])}?deal={deal.pk}",
        "form": form,
        "history": selectors.deal_history(deal=deal),
        "can_keep": keeper,
        "seat_names": [p.name for p in match.seats],
        "team_names": [t.name for t in match.teams],
    }
    return render(request, "scoring/deal_edit.html", context, status=INVALID if form.errors else 200)


@require_POST
def deal_remove(request: HttpRequest, pk: int, deal_pk: int) -> HttpResponse:
    match = _match_or_404(request, pk)
    if refused := _refused(request, match):
        return refused
    deal = get_object_or_404(match.deals, pk=deal_pk)
    try:
        services.deal_delete(deal=deal, user=_user(request), expected_version=_posted_version(request))
    except services.StaleSheet as error:
        messages.error(request, engine_message(error.message))
        return redirect("scoring:match", pk=match.pk)
    except engine.ScoringError as error:
        reason = engine_message(error.message)
        messages.error(request, gettext("This deal cannot be deleted: %(reason)s.") % {"reason": reason})
        return redirect("scoring:deal_edit", pk=match.pk, deal_pk=deal.pk)
    messages.success(request, gettext("Deal deleted. Its history keeps it."))
    return redirect("scoring:match", pk=match.pk)


@require_safe
def match_history(request: HttpRequest, pk: int) -> HttpResponse:
    match = _match_or_404(request, pk)
    context = {
        "match": match,
        "history": selectors.match_deal_history(match=match)[:200],
        "team_names": [t.name for t in match.teams],
    }
    return render(request, "scoring/match_history.html", context)


@require_POST
def match_confirm(request: HttpRequest, pk: int) -> HttpResponse:
    """A team agrees with the finished result, on the tablet or with a player's own account."""
    match = _match_or_404(request, pk)
    teams = confirm_teams(request.user, match, request.session)
    if not teams and match.confirmed_at is None:
        return render(request, "scoring/not_keeper.html", {"match": match}, status=403)
    try:
        team = int(request.POST.get("team", -1))
        if match.confirmed_at is None and team in (0, 1) and team not in teams:
            raise engine.ScoringError("a player confirms for their own team only", field="team")
        services.match_confirm(match=match, team=team, user=_user(request))
    except (engine.ScoringError, ValueError) as error:
        reason = getattr(error, "message", None)
        messages.error(request, engine_message(reason) if reason else gettext("Tap the team that confirms."))
    else:
        messages.success(request, gettext("Result confirmed."))
    return redirect("scoring:match", pk=match.pk)


@require_POST
def deal_check(request: HtmxHttpRequest, pk: int, deal_pk: int) -> HttpResponse:
    """The other team's "OK" to a deal's line on the tablet. htmx: the line, now saying it was checked
    (nothing else on the page moves); without JavaScript: back to the sheet."""
    match = _match_or_404(request, pk)
    if not can_check(request.user, match, request.session):
        return render(request, "scoring/not_keeper.html", {"match": match}, status=403)
    deal = get_object_or_404(match.deals, pk=deal_pk)
    problem = None
    try:
        deal = services.deal_check(deal=deal, user=_user(request))
    except engine.ScoringError as error:
        problem = engine_message(error.message)
    if not request.htmx:
        if problem:
            messages.error(request, problem)
        else:
            messages.success(request, gettext("Deal checked."))
        return redirect("scoring:match", pk=match.pk)
    line = next((line for line in selectors.match_sheet(match=match).lines if line.deal.pk == deal.pk), None)
    team_names = [t.name for t in match.teams]
    context = {"match": match, "checked": line, "problem": problem, "team_names": team_names}
    return render(request, "scoring/_deal_check.html", context)


# Print and chart.


def _score_chart(match: Match, sheet: engine.Sheet, chart_id: str = "score-chart") -> str:
    """The match's running totals as an SVG line chart, its texts in the page's language."""
    from .charts import score_chart_svg  # imported here, with the views that use it

    target = None if match.options.get("deals") else sheet.target  # a fixed number of deals: no target
    return score_chart_svg(
        [row.totals for row in sheet.rows],
        [t.name for t in match.teams],
        target,
        chart_id=chart_id,
        translate=gettext,
    )


@require_safe
def match_print(request: HttpRequest, pk: int) -> HttpResponse:
    """The score sheet on A4, in black and white: every deal, the totals, the chart, room to sign."""
    match = _match_or_404(request, pk)
    data = selectors.match_sheet(match=match)
    context = {
        "match": match,
        "data": data,
        "sheet": data.sheet,
        "seat_names": [p.name for p in match.seats],
        "team_names": [t.name for t in match.teams],
        "chart": _score_chart(match, data.sheet, "print-chart") if len(data.sheet.rows) >= 2 else None,
    }
    return render(request, "scoring/print_sheet.html", context)


@require_safe
def match_chart_svg(request: HttpRequest, pk: int) -> HttpResponse:
    """The chart on its own, as an image (the sheet shows it with ``<img>``)."""
    match = _match_or_404(request, pk)
    sheet = selectors.match_sheet(match=match).sheet
    response = HttpResponse(_score_chart(match, sheet), content_type="image/svg+xml; charset=utf-8")
    # Only a picture: nothing in it may run, even opened on its own.
    response["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'"
    response["X-Content-Type-Options"] = "nosniff"
    return response
