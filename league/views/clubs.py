"""Club pages: the list, a club's public page (members, events, seasons) and its admins' page."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods, require_safe

from league import club_selectors as selectors
from league.seasons import season_table
from players import club_services as clubs
from players.errors import PlayerError
from players.models import Club
from players.services import player_create
from scoring.messages import engine_message
from scoring.selectors import visible_players


class ClubForm(forms.Form):
    """A club's name, city and about text (a new club, or an admin changing them)."""

    name = forms.CharField(max_length=120, label=_("Name"))
    city = forms.CharField(max_length=80, required=False, label=_("City"))
    about = forms.CharField(
        max_length=2000, required=False, label=_("About"), widget=forms.Textarea(attrs={"rows": 4})
    )


class MemberForm(forms.Form):
    """A member added: a player picked (their id, from the search) or a name typed (a new player)."""

    name = forms.CharField(max_length=80, required=False, label=_("Player"))
    player = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)
    joined_on = forms.DateField(
        required=False,
        label=_("Member since"),
        help_text=_("Blank: today"),
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )

    def __init__(self, *args: Any, user: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # Form.clean returns cleaned_data
        if self.errors:
            return data
        if data.get("player"):
            data["picked"] = visible_players(self.user).filter(pk=data["player"]).first()
            if data["picked"] is None:
                raise forms.ValidationError(_("No such player: pick one from the list, or type a new name."))
        elif not " ".join((data.get("name") or "").split()):
            raise forms.ValidationError(_("Type a name, or pick a player from the list."))
        return data


class MemberRemoveForm(forms.Form):
    player = forms.IntegerField(min_value=1)


class AdminForm(forms.Form):
    """An account that runs the club, by its username."""

    username = forms.CharField(max_length=150, label=_("Username"))

    def clean_username(self) -> Any:
        name = self.cleaned_data["username"].strip()
        account = get_user_model().objects.filter(username=name).first()
        if account is None:
            raise forms.ValidationError(_("No account is called “%(name)s”.") % {"name": name})
        return account


# Public ------------------------------------------------------------------------------------------


@require_http_methods(["GET", "HEAD", "POST"])
def club_list(request: HttpRequest) -> HttpResponse:
    """The clubs; the site's staff also make a new one here (its creator then runs it)."""
    may_create = clubs.may_create(request.user)
    form = ClubForm(request.POST or None) if may_create else None
    if request.method == "POST":
        if form is None:  # not may_create
            raise PermissionDenied(gettext("Only the site's staff create clubs."))
        if form.is_valid():
            try:
                club = clubs.club_create(by=request.user, **form.cleaned_data)
            except PlayerError as error:
                form.add_error(error.field if error.field in form.fields else None, error.message)
            else:
                messages.success(request, gettext("%(club)s made: add its members.") % {"club": club.name})
                return redirect("league:club_manage", slug=club.slug)
    context = {"clubs": selectors.club_list(), "form": form}
    return render(
        request, "league/clubs.html", context, status=422 if form is not None and form.errors else 200
    )


@require_safe
def club_detail(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    seasons = list(selectors.club_seasons(club=club, user=request.user))
    season = selectors.current_season(seasons, timezone.localdate())
    context = {
        "club": club,
        "members": selectors.club_members(club=club, user=request.user),
        "events": selectors.club_events(club=club, user=request.user),
        "seasons": seasons,
        "season": season,
        "table": None if season is None else season_table(season),
        "is_admin": clubs.is_admin(club, request.user),
    }
    return render(request, "league/club.html", context)


# Staff and the club's admins ---------------------------------------------------------------------


def _member_add(request: HttpRequest, club: Club, form: MemberForm) -> str:
    """The picked player, or a new one of the name typed, joins; both or neither (one transaction)."""
    data = form.cleaned_data
    with transaction.atomic():
        player = data.get("picked") or player_create(name=data["name"])
        membership = clubs.member_add(club=club, player=player, joined_on=data["joined_on"], by=request.user)
    if membership.status == membership.Status.INVITED:
        return gettext("%(player)s is invited: a member once their account accepts.") % {
            "player": membership.player.name
        }
    return gettext("%(player)s is a member.") % {"player": membership.player.name}


def _member_remove(request: HttpRequest, club: Club, form: MemberRemoveForm) -> str:
    player = (
        selectors.club_members(club=club, user=request.user).filter(pk=form.cleaned_data["player"]).first()
    )
    if player is None:
        raise PlayerError(gettext("This player is not a member of the club."), field="player")
    clubs.member_remove(club=club, player=player, by=request.user)
    return gettext("%(player)s has left the club.") % {"player": player.name}


def _admin_add(request: HttpRequest, club: Club, form: AdminForm) -> str:
    clubs.admin_add(club=club, user=form.cleaned_data["username"])
    return gettext("%(user)s runs the club too.") % {"user": form.cleaned_data["username"].get_username()}


def _admin_remove(request: HttpRequest, club: Club, form: AdminForm) -> str:
    clubs.admin_remove(club=club, user=form.cleaned_data["username"])
    return gettext("%(user)s no longer runs the club.") % {
        "user": form.cleaned_data["username"].get_username()
    }


def _details(request: HttpRequest, club: Club, form: ClubForm) -> str:
    clubs.club_update(club=club, **form.cleaned_data)
    return gettext("Saved.")


# What the manage page's forms do: the form (its prefix on the page) and the service behind it,
# which is given that form once valid. A form class as a callable: MemberForm also takes ``user``.
Action = tuple[Callable[..., forms.Form], str, Callable[[HttpRequest, Club, Any], str]]
ACTIONS: dict[str, Action] = {
    "details": (ClubForm, "club", _details),
    "member_add": (MemberForm, "member", _member_add),
    "member_remove": (MemberRemoveForm, "remove", _member_remove),
    "admin_add": (AdminForm, "admin", _admin_add),
    "admin_remove": (AdminForm, "unadmin", _admin_remove),
}


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def club_manage(request: HttpRequest, slug: str) -> HttpResponse:
    """The admins' page: the club's details, its members (added by picking a player or typing a new
    name, removed) and its admins (by username). Each form posts ``action``; a refusal is shown on the
    page (422) and nothing changes."""
    club = get_object_or_404(Club, slug=slug)
    if not clubs.is_admin(club, request.user):
        raise PermissionDenied(gettext("Only the club's admins manage it."))
    extra = {"member": {"user": request.user}}
    details = {"name": club.name, "city": club.city, "about": club.about}
    posted, error = None, None
    if request.method == "POST":
        action = request.POST.get("action", "")
        if action not in ACTIONS:
            error = gettext("Unknown action.")
        else:
            form_class, prefix, run = ACTIONS[action]
            posted = form_class(request.POST, prefix=prefix, **extra.get(prefix, {}))
            if posted.is_valid():
                try:
                    done = run(request, club, posted)
                except PlayerError as refusal:
                    field = refusal.field if refusal.field in posted.fields else None
                    posted.add_error(field, engine_message(refusal.message))
                else:
                    messages.success(request, done)
                    # An admin who has just handed the club over goes back to its public page.
                    page = "league:club_manage" if clubs.is_admin(club, request.user) else "league:club"
                    return redirect(page, slug=club.slug)
    page_forms = {
        prefix: posted
        if posted is not None and posted.prefix == prefix
        else form_class(prefix=prefix, initial=details if prefix == "club" else None, **extra.get(prefix, {}))
        for form_class, prefix, _ in ACTIONS.values()
    }
    context = {
        "club": club,
        "forms": page_forms,
        "error": error,
        "members": selectors.club_members(club=club, user=request.user),
        "former": selectors.former_members(club=club, user=request.user),
        "invited": selectors.invited_members(club=club, user=request.user),
        "admins": club.admins.order_by("username"),
    }
    failed = error is not None or (posted is not None and bool(posted.errors))
    return render(request, "league/club_manage.html", context, status=422 if failed else 200)
