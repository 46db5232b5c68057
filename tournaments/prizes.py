"""The prize-giving: a pot split over the first places, each place's prize, the organizer's own
categories with their winners; the prize list (page, certificates, export, API, big screen) and
the organizer's editor.

``prize_split`` is pure: the pot (in cents) and the percentages in, the amounts out. Money is kept
as integer cents everywhere; the split rounds each share down to the chosen step (a cent, a unit,
5 or 10 units) and gives what the rounding left over to the first place.

A tie (teams the standings cannot separate share a ``rank``): each tied line shows the shared place
("=2"); the money of the places they hold is pooled and split equally between them (``prize_pool``,
rounded as the split is, what the rounding leaves to the first of them in the ranking's order),
except a line whose amount the organizer typed, which stays as typed; a prize in words stays with
its place. 437 € at 40/25/15/12/8 down to the euro, second and third tied: (109 + 65) / 2 = 87 €
each.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from decimal import ROUND_FLOOR, Decimal, InvalidOperation
from typing import Any

from django import forms
from django.contrib import messages
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext, gettext_lazy, pgettext
from django.views.decorators.http import require_http_methods, require_safe

from . import live, selectors
from .models import Entry, PlacePrize, PrizeCategory, PrizeSettings, Tournament
from .services.common import TournamentError

STEPS: dict[str, int] = {  # cents a rounded share is a multiple of
    PrizeSettings.Rounding.CENT: 1,
    PrizeSettings.Rounding.UNIT: 100,
    PrizeSettings.Rounding.FIVE: 500,
    PrizeSettings.Rounding.TEN: 1000,
}
ROUNDING_LABELS = {
    PrizeSettings.Rounding.CENT: gettext_lazy("To the cent"),
    PrizeSettings.Rounding.UNIT: gettext_lazy("Down to the unit (1 €, 1 $ …)"),
    PrizeSettings.Rounding.FIVE: gettext_lazy("Down to 5"),
    PrizeSettings.Rounding.TEN: gettext_lazy("Down to 10"),
}
HUNDRED = Decimal(100)
MAX_POT_CENTS = 100_000_000  # a million units: more is a typing mistake


# The split (pure) -------------------------------------------------------------


def prize_split(
    pot_cents: int, percentages: Sequence[Decimal | int | float | str], rounding: str
) -> list[int]:
    """Each place's amount in cents: its percent of the pot rounded down to the step of ``rounding``
    (``cent``, ``unit``, ``five``, ``ten``); what the rounding leaves of the assigned part goes to the
    first place. With percentages under 100 % in all, the rest of the pot stays unassigned.

    >>> prize_split(43700, [40, 25, 15, 12, 8], "unit")
    [17700, 10900, 6500, 5200, 3400]
    """
    if pot_cents < 0:
        raise ValueError("a pot is never negative")
    shares = [Decimal(str(p)) for p in percentages]
    if any(p < 0 for p in shares) or sum(shares, Decimal(0)) > HUNDRED:
        raise ValueError("percentages are non-negative and at most 100 in all")
    if not shares:
        return []
    step = STEPS[rounding]
    exact = [Decimal(pot_cents) * p / HUNDRED for p in shares]
    amounts = [int((e / step).to_integral_value(ROUND_FLOOR)) * step for e in exact]
    assigned = int((Decimal(pot_cents) * sum(shares, Decimal(0)) / HUNDRED).to_integral_value(ROUND_FLOOR))
    amounts[0] += assigned - sum(amounts)
    return amounts


def unassigned_cents(pot_cents: int, percentages: Sequence[Any]) -> int:
    """What percentages under 100 % in all leave of the pot (0 with 100 %)."""
    total = sum((Decimal(str(p)) for p in percentages), Decimal(0))
    return pot_cents - int((Decimal(pot_cents) * total / HUNDRED).to_integral_value(ROUND_FLOOR))


def prize_pool(amounts: Sequence[int], rounding: str) -> list[int]:
    """Tied places' amounts (cents, in the ranking's order) pooled and split equally: each share
    rounded down to the step of ``rounding``, what the rounding leaves to the first, as the split.

    >>> prize_pool([10900, 6500], "unit")
    [8700, 8700]
    >>> prize_pool([10900, 6600], "unit")
    [8800, 8700]
    """
    if not amounts:
        return []
    pot = sum(amounts)
    step = STEPS[rounding]
    share = pot // len(amounts) // step * step
    shares = [share] * len(amounts)
    shares[0] += pot - share * len(amounts)
    return shares


def place_label(rank: int | None, position: int, tied: bool) -> str:
    """A place as the prize list writes it: "2", or "=2" for a place teams share."""
    if not tied or rank is None:
        return str(position)
    return pgettext("shared place", "=%(place)s") % {"place": rank}


def money(cents: int | None, currency: str = "€") -> str:
    """``17700`` → ``177 €``; ``17750`` → ``177.50 €`` (cents shown only when there are some)."""
    if cents is None:
        return ""
    units, rest = divmod(cents, 100)
    number = f"{units}" if not rest else f"{units}.{rest:02d}"
    return f"{number}\u00a0{currency}".strip()


def parse_money(text: str, currency: str = "") -> int:
    """An amount typed by the organizer ("437", "437.50", "437,5", "437 €") as cents; else a
    ``ValueError``. The symbols €, $, £ (and ``currency``) and spaces around are allowed."""
    cleaned = (text or "").strip()
    for symbol in (currency, "€", "$", "£"):
        if symbol:
            cleaned = cleaned.replace(symbol, "")
    cleaned = cleaned.replace("\u00a0", "").replace(" ", "")
    if not re.fullmatch(r"\d+([.,]\d{1,2})?", cleaned):
        raise ValueError(text)
    return int((Decimal(cleaned.replace(",", ".")) * 100).to_integral_value(ROUND_FLOOR))


def parse_percentages(text: str) -> list[Decimal]:
    """ "40 25 15 12 8" (spaces, commas, semicolons or slashes between them, "%" allowed, decimals
    with a point) as decimals; a ``ValueError`` names the piece that is not a number."""
    pieces = [p for p in re.split(r"[\s,;/+]+", (text or "").replace("%", " ")) if p]
    values = []
    for piece in pieces:
        try:
            values.append(Decimal(piece))
        except InvalidOperation as error:
            raise ValueError(piece) from error
    return values


def _percent_text(value: Decimal) -> str:
    """A percentage as stored: "40", "12.5" (no trailing zeros)."""
    text = format(value.normalize(), "f")
    return text


# Reads -----------------------------------------------------------------------


def prize_settings(tournament: Tournament) -> PrizeSettings:
    """The tournament's settings (unsaved defaults if the organizer has set none)."""
    found = PrizeSettings.objects.filter(tournament=tournament).first()
    return found or PrizeSettings(tournament=tournament)


def _placed_rows(tournament: Tournament) -> tuple[list[dict[str, Any]], dict[int, dict[str, Any]], bool]:
    """The places in order (the final ranking once there is one, else the standings), the standings
    rows by entry, and whether the order is the final ranking."""
    standings = selectors.standings_get(tournament=tournament)
    rows = standings.get("rows", [])
    by_entry = {row["entry"]: row for row in rows}
    ranking = standings.get("ranking", [])
    if ranking:
        return ranking, by_entry, True
    placed = [
        {
            "position": n,
            "rank": row["rank"],
            "entry": row["entry"],
            "team": row["team"],
            "players": row["players"],
            "withdrawn": row.get("withdrawn", False),
        }
        for n, row in enumerate(rows, start=1)
    ]
    return placed, by_entry, False


def _team(row: dict[str, Any] | None, numbers: dict[int, int]) -> dict[str, Any] | None:
    if row is None:
        return None
    return {
        "entry": row["entry"],
        "number": numbers.get(row["entry"]),
        "name": row["team"],
        "players": list(row["players"]),
    }


def prize_list(*, tournament: Tournament) -> dict[str, Any]:
    """The prize list as pages, the certificates, the export, the API and the big screen show it.

    ``places``: one per place that has a prize (text or money), from the first: ``position`` (1, 2 …),
    ``rank`` (shared on a tie), ``tied`` (its team shares that rank with another), ``label`` (the
    place as written: "2", "=2" on a tie), ``team`` (entry, number, name, players; null while nobody
    holds the place), ``points`` (the value of the format's first ranking metric, ``points_key``),
    ``values`` (every ranking metric's value), ``text``, ``amount`` (cents or null: what the team
    gets), ``computed`` (the split's amount of the place), ``edited`` (the organizer typed the
    amount), ``pooled`` (the amount is an equal share of the money of the places tied teams hold,
    ``prize_pool``); ``shared``: a place on the list is shared. ``categories``: id, name, text,
    amount, ``winners`` (teams). Amounts are integer cents; ``currency`` is the symbol.

    One query when the organizer has set no prize (every write saves the settings' row first).
    """
    found = prize_settings(tournament)
    split = prize_split(found.pot_cents, found.percentages, found.rounding)
    touched = found.pk is not None
    lines = {line.place: line for line in tournament.place_prizes.all()} if touched else {}
    count = max([len(split), *lines])
    placed, by_entry, final = _placed_rows(tournament)
    numbers = selectors.entry_numbers(tournament=tournament) if touched else {}
    keys = list(tournament.tiebreaks or [])
    points_key = keys[0] if keys else None
    at = {row["position"]: row for row in placed}
    ties: dict[Any, list[int]] = {}  # the positions of each rank, in the ranking's order
    for placed_row in placed:
        ties.setdefault(placed_row["rank"], []).append(placed_row["position"])
    tied = {position: group for group in ties.values() if len(group) > 1 for position in group}
    # A tie across the last place with a prize shares its money with the places after it.
    count = max([count, *(max(tied[p]) for p in range(1, count + 1) if p in tied)])
    edited = {p for p, line in lines.items() if line.amount_cents is not None}
    amounts: dict[int, int | None] = {}
    for position in range(1, count + 1):
        computed = split[position - 1] if position <= len(split) else None
        amounts[position] = lines[position].amount_cents if position in edited else computed
    pooled: set[int] = set()
    for group in {tuple(g) for g in tied.values()}:
        shared = [p for p in group if p <= count and p not in edited]  # a typed amount stays as typed
        if len(shared) > 1 and any(amounts[p] for p in shared):
            for position, share in zip(
                shared, prize_pool([amounts[p] or 0 for p in shared], found.rounding), strict=True
            ):
                amounts[position] = share
            pooled.update(shared)
    places = []
    for position in range(1, count + 1):
        line = lines.get(position)
        computed = split[position - 1] if position <= len(split) else None
        amount = amounts[position]
        text = line.text if line is not None else ""
        if not text and not amount:
            continue
        row = at.get(position)
        values = by_entry.get(row["entry"], {}).get("values", {}) if row else {}
        rank = row["rank"] if row else None
        places.append(
            {
                "position": position,
                "rank": rank,
                "tied": position in tied,
                "label": place_label(rank, position, position in tied),
                "team": _team(row, numbers),
                "withdrawn": bool(row and row.get("withdrawn")),
                "points": values.get(points_key) if points_key else None,
                "values": {key: values.get(key) for key in keys} if row else {},
                "text": text,
                "amount": amount,
                "computed": computed,
                "edited": position in edited,
                "pooled": position in pooled,
            }
        )
    categories = []
    if touched:
        names = {row["entry"]: row for row in placed}
        for category in tournament.prize_categories.prefetch_related(
            "winners__team__player_a", "winners__team__player_b", "winners__player"
        ):
            winners = []
            for entry in sorted(category.winners.all(), key=lambda e: (e.number or 0, e.pk)):
                row = names.get(entry.pk) or {
                    "entry": entry.pk,
                    "team": entry.name,
                    "players": _players(entry),
                }
                winners.append(_team(row, numbers))
            categories.append(
                {
                    "id": category.pk,
                    "name": category.name,
                    "text": category.text,
                    "amount": category.amount_cents,
                    "winners": winners,
                }
            )
    return {
        "currency": found.currency,
        "pot": found.pot_cents,
        "percentages": [str(p) for p in found.percentages],
        "rounding": found.rounding,
        "unassigned": unassigned_cents(found.pot_cents, found.percentages),
        "final": final,
        "points_key": points_key,
        "shared": any(place["tied"] for place in places),
        "places": places,
        "categories": categories,
    }


def _players(entry: Entry) -> list[str]:
    if entry.team is not None:
        return [entry.team.player_a.name, entry.team.player_b.name]
    assert entry.player is not None  # entry_team_or_player: no team, so a player
    return [entry.player.name]


def certificates(prizes: dict[str, Any]) -> list[dict[str, Any]]:
    """One certificate per prize given: each place held by a team, each winner of each category."""
    pages = [
        {
            "place": p["position"],
            "label": p["label"],
            "category": "",
            "team": p["team"],
            "text": p["text"],
            "amount": p["amount"],
        }
        for p in prizes["places"]
        if p["team"]
    ]
    for category in prizes["categories"]:
        pages += [
            {
                "place": None,
                "label": "",
                "category": category["name"],
                "team": team,
                "text": category["text"],
                "amount": category["amount"],
            }
            for team in category["winners"]
        ]
    return pages


# Writes ----------------------------------------------------------------------


def _entry_count(tournament: Tournament) -> int:
    return tournament.entries.exclude(status=Entry.Status.PENDING).count()


def _changed(tournament: Tournament) -> None:
    if tournament.status != Tournament.Status.REGISTRATION:
        live.publish(tournament.pk, "standings")  # open big screens read the prize list again


def _settings_row(tournament: Tournament, user: Any) -> None:
    """The settings' row, saved (with the defaults) before any prize: ``prize_list`` reads nothing
    more of a tournament without it."""
    if not PrizeSettings.objects.filter(tournament=tournament).exists():
        found = PrizeSettings(tournament=tournament)
        found._history_user = user
        found.save()


@transaction.atomic
def prizes_update(
    *,
    tournament: Tournament,
    user: Any = None,
    pot_cents: int | None = None,
    percentages: Iterable[Any] | None = None,
    rounding: str | None = None,
    currency: str | None = None,
) -> PrizeSettings:
    """Set the pot, the percentages per place, the rounding, the currency (what is given)."""
    found = PrizeSettings.objects.select_for_update().filter(tournament=tournament).first()
    found = found or PrizeSettings(tournament=tournament)
    if pot_cents is not None:
        if pot_cents < 0 or pot_cents > MAX_POT_CENTS:
            raise TournamentError(gettext("The pot is an amount from 0 to 1,000,000."))
        found.pot_cents = pot_cents
    if percentages is not None:
        try:
            values = [Decimal(str(p)) for p in percentages]
        except InvalidOperation as error:
            raise TournamentError(gettext("Each percentage is a number, such as 40 or 12.5.")) from error
        if any(not v.is_finite() or v < 0 for v in values):
            raise TournamentError(gettext("A percentage is never negative."))
        exponents = [v.as_tuple().exponent for v in values]  # finite (checked above): whole numbers
        if any(isinstance(e, int) and e < -2 for e in exponents):
            raise TournamentError(gettext("A percentage has at most two decimals."))
        total = sum(values, Decimal(0))
        if total > HUNDRED:
            raise TournamentError(
                gettext("The percentages add up to %(total)s %%: at most 100 %% in all.")
                % {"total": _percent_text(total)}
            )
        entries = _entry_count(tournament)
        if len(values) > entries:
            raise TournamentError(
                gettext("%(places)s places have a share but only %(entries)s teams are entered.")
                % {"places": len(values), "entries": entries}
            )
        found.percentages = [_percent_text(v) for v in values]
    if rounding is not None:
        if rounding not in STEPS:
            raise TournamentError(gettext("Choose how the amounts are rounded."))
        found.rounding = rounding
    if currency is not None:
        currency = currency.strip()
        if not currency or len(currency) > 8:
            raise TournamentError(gettext("The currency is a symbol of at most 8 characters, such as €."))
        found.currency = currency
    found._history_user = user
    found.save()
    _changed(tournament)
    return found


@transaction.atomic
def prize_lines_update(
    *, tournament: Tournament, lines: Iterable[tuple[int, str, int | None]], user: Any = None
) -> None:
    """Each place's text and edited amount (``None``: the split's amount); a line with neither
    is removed. Places not named are left as they are."""
    _settings_row(tournament, user)
    entries = _entry_count(tournament)
    existing = {line.place: line for line in tournament.place_prizes.select_for_update()}
    for place, text, amount in lines:
        text = (text or "").strip()
        if place < 1 or place > max(entries, 1):
            raise TournamentError(
                gettext("Place %(place)s: only %(entries)s teams are entered.")
                % {"place": place, "entries": entries}
            )
        if amount is not None and (amount < 0 or amount > MAX_POT_CENTS):
            raise TournamentError(
                gettext("Place %(place)s: the amount is from 0 to 1,000,000.") % {"place": place}
            )
        if len(text) > 200:
            raise TournamentError(
                gettext("Place %(place)s: the prize's text is too long.") % {"place": place}
            )
        line = existing.get(place)
        if not text and amount is None:
            if line is not None:
                line._history_user = user
                line.delete()
            continue
        if line is None:
            line = PlacePrize(tournament=tournament, place=place)
        elif line.text == text and line.amount_cents == amount:
            continue
        line.text, line.amount_cents = text, amount
        line._history_user = user
        line.save()
    _changed(tournament)


def entries_named(tournament: Tournament, text: str) -> list[Entry]:
    """The entries a typed list names (numbers or names, separated by commas, semicolons or new
    lines); a ``TournamentError`` names what matches no entry, or more than one."""
    wanted = [w.strip() for w in re.split(r"[,;\n]+", text or "") if w.strip()]
    entries = list(tournament.entries.select_related("team", "player").exclude(status=Entry.Status.PENDING))
    found: list[Entry] = []
    for word in wanted:
        key = word.lstrip("#№").strip()
        if key.isdigit():
            matches = [e for e in entries if e.number == int(key)]
        else:
            matches = [e for e in entries if e.name.casefold() == key.casefold()]
            if not matches:
                matches = [e for e in entries if key.casefold() in e.name.casefold()]
        if not matches:
            raise TournamentError(gettext("No team is called or numbered “%(word)s”.") % {"word": word})
        if len(matches) > 1:
            raise TournamentError(
                gettext("“%(word)s” matches more than one team: type its number.") % {"word": word}
            )
        if matches[0] not in found:
            found.append(matches[0])
    return found


@transaction.atomic
def prize_category_save(
    *,
    tournament: Tournament,
    name: str,
    text: str = "",
    amount_cents: int | None = None,
    winners: Iterable[Entry] = (),
    category: PrizeCategory | None = None,
    user: Any = None,
) -> PrizeCategory:
    """Add a category (``category`` None) or change one: its name, prize, winners."""
    name = (name or "").strip()
    if not name:
        raise TournamentError(gettext("Give the category a name, such as “Best mixed team”."))
    if len(name) > 120 or len(text or "") > 200:
        raise TournamentError(gettext("The category's name or prize is too long."))
    if amount_cents is not None and (amount_cents < 0 or amount_cents > MAX_POT_CENTS):
        raise TournamentError(gettext("The category's amount is from 0 to 1,000,000."))
    winners = list(winners)
    if any(w.tournament_id != tournament.pk for w in winners):
        raise TournamentError(gettext("A winner is not an entry of this tournament."))
    clash = tournament.prize_categories.filter(name__iexact=name)
    if category is not None:
        clash = clash.exclude(pk=category.pk)
    if clash.exists():
        raise TournamentError(gettext("There is already a category called “%(name)s”.") % {"name": name})
    _settings_row(tournament, user)
    if category is None:
        last = tournament.prize_categories.order_by("-order").values_list("order", flat=True).first()
        category = PrizeCategory(tournament=tournament, order=(last or 0) + 1)
    category.name, category.text, category.amount_cents = name, (text or "").strip(), amount_cents
    category._history_user = user
    category.save()
    category.winners.set(winners)
    _changed(tournament)
    return category


@transaction.atomic
def prize_category_delete(*, category: PrizeCategory, user: Any = None) -> None:
    tournament = category.tournament
    category._history_user = user
    category.delete()
    _changed(tournament)


# Pages -----------------------------------------------------------------------


class SplitForm(forms.Form):
    pot = forms.CharField(label=gettext_lazy("Pot"), required=False)
    percentages = forms.CharField(
        label=gettext_lazy("Percent of the pot per place"),
        required=False,
        help_text=gettext_lazy("From the first place: 40 25 15 12 8 (decimals with a point: 12.5)."),
    )
    rounding = forms.ChoiceField(label=gettext_lazy("Rounding"), choices=list(ROUNDING_LABELS.items()))
    currency = forms.CharField(label=gettext_lazy("Currency"), max_length=8)

    def clean_pot(self) -> int:
        try:
            return parse_money(self.cleaned_data["pot"] or "0")
        except ValueError as error:
            raise forms.ValidationError(gettext("The pot is an amount, such as 437 or 437.50.")) from error

    def clean_percentages(self) -> list[Decimal]:
        try:
            return parse_percentages(self.cleaned_data["percentages"])
        except ValueError as error:
            raise forms.ValidationError(
                gettext("“%(piece)s” is not a percentage: write numbers such as 40 25 15.") % {"piece": error}
            ) from error


class CategoryForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Category"), max_length=120)
    text = forms.CharField(label=gettext_lazy("Prize"), max_length=200, required=False)
    amount = forms.CharField(label=gettext_lazy("Amount"), required=False)
    winners = forms.CharField(
        label=gettext_lazy("Winners"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=gettext_lazy("Their numbers or names, separated by commas."),
    )

    def clean_amount(self) -> int | None:
        raw = (self.cleaned_data["amount"] or "").strip()
        if not raw:
            return None
        try:
            return parse_money(raw)
        except ValueError as error:
            raise forms.ValidationError(gettext("The amount is a number, such as 50 or 50.00.")) from error


def _editor_context(tournament: Tournament, **extra: Any) -> dict[str, Any]:
    found = prize_settings(tournament)
    prizes = prize_list(tournament=tournament)
    split = prize_split(found.pot_cents, found.percentages, found.rounding)
    lines = {line.place: line for line in tournament.place_prizes.all()}
    entries = _entry_count(tournament)
    count = min(max([len(split), *lines, 0]) + 3, max(entries, 1))
    rows = []
    for place in range(1, count + 1):
        line = lines.get(place)
        rows.append(
            {
                "place": place,
                "text": line.text if line else "",
                "amount": money(line.amount_cents, "").strip()
                if line and line.amount_cents is not None
                else "",
                "computed": split[place - 1] if place <= len(split) else None,
            }
        )
    split_form = extra.pop("split_form", None) or SplitForm(
        initial={
            "pot": money(found.pot_cents, "").strip(),
            "percentages": " ".join(found.percentages),
            "rounding": found.rounding,
            "currency": found.currency,
        }
    )
    categories = [
        (
            category,
            CategoryForm(
                prefix=f"c{category['id']}",
                initial={
                    "name": category["name"],
                    "text": category["text"],
                    "amount": money(category["amount"], "").strip(),
                    "winners": ", ".join(str(w["number"] or w["name"]) for w in category["winners"]),
                },
            ),
        )
        for category in prizes["categories"]
    ]
    if "category_form" in extra and "category_id" in extra:
        wanted = extra.pop("category_id")
        form = extra.pop("category_form")
        categories = [(c, form if c["id"] == wanted else f) for c, f in categories]
    return {
        "tournament": tournament,
        "settings": found,
        "prizes": prizes,
        "split_form": split_form,
        "lines": rows,
        "categories": categories,
        "new_category": extra.pop("new_category", None) or CategoryForm(prefix="new"),
        "total_percent": _percent_text(sum((Decimal(p) for p in found.percentages), Decimal(0))),
        **extra,
    }


def _post_lines(request: HttpRequest, tournament: Tournament) -> list[tuple[int, str, int | None]]:
    currency = prize_settings(tournament).currency
    lines = []
    for key in request.POST:
        found = re.fullmatch(r"text_(\d+)", key)
        if not found:
            continue
        place = int(found.group(1))
        raw = request.POST.get(f"amount_{place}", "").strip()
        try:
            amount = parse_money(raw, currency) if raw else None
        except ValueError as error:
            raise TournamentError(
                gettext("Place %(place)s: the amount is a number, such as 50 or 50.00.") % {"place": place}
            ) from error
        lines.append((place, request.POST.get(key, ""), amount))
    return sorted(lines)


def _organizer_only(view):  # imported late: views.py imports nothing of this module, nor the reverse
    from .views import organizer_only

    return organizer_only(view)


@require_http_methods(["GET", "HEAD", "POST"])
def prizes_edit(request: HttpRequest, slug: str) -> HttpResponse:
    """The organizer's editor: the pot and its split, each place's prize, the categories."""
    return _organizer_only(_prizes_edit)(request, slug)


def _prizes_edit(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    if request.method != "POST":
        return render(request, "tournaments/prizes_edit.html", _editor_context(tournament))
    what = request.POST.get("action", "")
    extra: dict[str, Any] = {}
    try:
        if what == "split":
            form: forms.Form = SplitForm(request.POST)
            if not form.is_valid():
                extra["split_form"] = form
                raise TournamentError("")
            d = form.cleaned_data
            try:
                prizes_update(
                    tournament=tournament,
                    user=request.user,
                    pot_cents=d["pot"],
                    percentages=d["percentages"],
                    rounding=d["rounding"],
                    currency=d["currency"],
                )
            except TournamentError as error:
                form.add_error(None, str(error))
                extra["split_form"] = form
                raise
            done = gettext("The pot and its split are saved.")
        elif what == "lines":
            prize_lines_update(
                tournament=tournament, lines=_post_lines(request, tournament), user=request.user
            )
            done = gettext("The prizes of the places are saved.")
        elif what in ("category_add", "category_edit"):
            category = None
            prefix = "new"
            if what == "category_edit":
                category = get_object_or_404(tournament.prize_categories, pk=request.POST.get("category"))
                prefix = f"c{category.pk}"
            form = CategoryForm(request.POST, prefix=prefix)
            key = "new_category" if category is None else "category_form"
            if category is not None:
                extra["category_id"] = category.pk
            extra[key] = form
            if not form.is_valid():
                raise TournamentError("")
            d = form.cleaned_data
            try:
                prize_category_save(
                    tournament=tournament,
                    category=category,
                    name=d["name"],
                    text=d["text"],
                    amount_cents=d["amount"],
                    winners=entries_named(tournament, d["winners"]),
                    user=request.user,
                )
            except TournamentError as error:
                form.add_error(None, str(error))
                raise
            done = gettext("The category is saved.")
        elif what == "category_delete":
            category = get_object_or_404(tournament.prize_categories, pk=request.POST.get("category"))
            prize_category_delete(category=category, user=request.user)
            done = gettext("The category is deleted.")
        else:
            return redirect("tournaments:prizes_edit", slug=tournament.slug)
    except TournamentError as error:
        if str(error) and not any(k in extra for k in ("split_form", "new_category", "category_form")):
            messages.error(request, str(error))
        context = _editor_context(tournament, **extra)
        return render(request, "tournaments/prizes_edit.html", context, status=422)
    messages.success(request, done)
    return redirect("tournaments:prizes_edit", slug=tournament.slug)


@require_safe
def certificates_page(request: HttpRequest, slug: str) -> HttpResponse:
    """One A4 landscape page per prize given, to print."""
    from .views import _visible

    tournament = _visible(request, slug)
    prizes = prize_list(tournament=tournament)
    context = {"tournament": tournament, "prizes": prizes, "pages": certificates(prizes)}
    return render(request, "tournaments/certificates.html", context)


__all__ = [
    "certificates",
    "certificates_page",
    "entries_named",
    "money",
    "parse_money",
    "parse_percentages",
    "place_label",
    "prize_category_delete",
    "prize_category_save",
    "prize_lines_update",
    "prize_list",
    "prize_pool",
    "prize_settings",
    "prize_split",
    "prizes_edit",
    "prizes_update",
    "unassigned_cents",
]
