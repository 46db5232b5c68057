"""Clubs: who runs them and who plays for them (writes, and the two questions the pages and the API
ask about them). People only: a club's events and seasons are read by the apps above.

The choices made here, as the help tells them:

- superusers and staff accounts create clubs (a club is a public name: it is not made by any signed-in
  account); the creator becomes its first admin;
- an admin runs the club: its name, city and about, its members, and its other admins; a club keeps at
  least one admin;
- a member is a player record; a merged record stands for its root (the record it was merged into),
  so adding one adds the root and a root is a member if any of its records is;
- a member who leaves keeps their row, with the day they left (``left_on``): the club's history
  stays, the page lists the present members; one who comes back has the same row reopened from the
  new day;
- a claimed record (one an account stands behind) is only invited: the membership waits for its
  account to accept it, and until then it is no membership (not listed, it gives the club no say
  about the record); declined, it stays declined until the club invites again. The adds, the
  invitations and their answers, and the departures of claimed records are kept in the records'
  history (``players.audit``).
"""

from __future__ import annotations

import datetime
from typing import Any

from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext

from .audit import Action, record_event
from .errors import PlayerError
from .identity_services import root_of
from .models import Club, Membership, Player

ACTIVE = Membership.Status.ACTIVE
INVITED = Membership.Status.INVITED

# Reads ------------------------------------------------------------------------------------------


def may_create(user: Any) -> bool:
    """Superusers and staff create clubs."""
    return bool(user and user.is_authenticated and (user.is_superuser or user.is_staff))


def is_admin(club: Club, user: Any) -> bool:
    """Does this account run the club? Its admins do, and a superuser runs every club."""
    if not (user and user.is_authenticated):
        return False
    return user.is_superuser or club.admins.filter(pk=user.pk).exists()


def administered(user: Any) -> QuerySet[Club]:
    """The clubs this account runs (a superuser: every club), by name: those a tournament of theirs
    may belong to."""
    if not (user and user.is_authenticated):
        return Club.objects.none()
    if user.is_superuser:
        return Club.objects.order_by("name")
    return Club.objects.filter(admins=user).order_by("name")


def _records_of(person: Player) -> Q:
    """A membership of ``person`` through any of their records (the root's or a merged one's)."""
    return Q(player=person) | Q(player__merged_into=person)


def current_members(club: Club) -> QuerySet[Player]:
    """The club's present members as their roots (a merged record's root stands for it), by name."""
    rows = club.memberships.filter(left_on__isnull=True, status=ACTIVE).values_list(
        "player_id", "player__merged_into_id"
    )
    ids = {merged or own for own, merged in rows}
    return Player.objects.filter(pk__in=ids, merged_into__isnull=True).order_by("name", "pk")


def invitations(user: Any) -> QuerySet[Membership]:
    """The club memberships waiting for this account's answer (its player's, under any record)."""
    if not (user and user.is_authenticated):
        return Membership.objects.none()
    person = Player.objects.filter(user=user).first()
    if person is None:
        return Membership.objects.none()
    return (
        Membership.objects.filter(_records_of(person), status=INVITED, left_on__isnull=True)
        .select_related("club", "player", "added_by")
        .order_by("created_at", "pk")
    )


# Writes -----------------------------------------------------------------------------------------


def _text(value: str | None, *, most: int, field: str, label: str, lines: bool = False) -> str:
    """A name, a city or an about text as stored: trimmed, spaces collapsed on one line."""
    value = (value or "").strip() if lines else " ".join((value or "").split())
    if any(not c.isprintable() and not (lines and c in "\r\n\t") for c in value):
        raise PlayerError(gettext("%(field)s: no control characters.") % {"field": label}, field=field)
    if len(value) > most:
        raise PlayerError(
            gettext("%(field)s: at most %(most)s characters.") % {"field": label, "most": most}, field=field
        )
    return value


def _details(name: str, city: str, about: str) -> dict[str, str]:
    values = {
        "name": _text(name, most=120, field="name", label=gettext("Name")),
        "city": _text(city, most=80, field="city", label=gettext("City")),
        "about": _text(about, most=2000, field="about", label=gettext("About"), lines=True),
    }
    if not values["name"]:
        raise PlayerError(gettext("A club needs a name."), field="name")
    return values


def _same_name(name: str, city: str, club: Club | None = None) -> None:
    others = Club.objects.filter(name__iexact=name, city__iexact=city)
    if club is not None:
        others = others.exclude(pk=club.pk)
    if others.exists():
        raise PlayerError(
            gettext("A club called %(name)s already exists there: give the name a word more.")
            % {"name": name},
            field="name",
        )


@transaction.atomic
def club_create(*, name: str, by: Any, city: str = "", about: str = "") -> Club:
    """A new club, run by the account that made it. Its address (slug) comes from its name and stays
    when the name changes, so links to it keep working."""
    if not may_create(by):
        raise PlayerError(gettext("Only the site's staff create clubs."), field="name")
    values = _details(name, city, about)
    _same_name(values["name"], values["city"])
    club = Club.objects.create(**values)
    club.admins.add(by)
    return club


@transaction.atomic
def club_update(
    *, club: Club, name: str | None = None, city: str | None = None, about: str | None = None
) -> Club:
    """Change a club's name, city or about text (those given); its address stays."""
    club = Club.objects.select_for_update().get(pk=club.pk)
    values = _details(
        club.name if name is None else name,
        club.city if city is None else city,
        club.about if about is None else about,
    )
    _same_name(values["name"], values["city"], club)
    for key, value in values.items():
        setattr(club, key, value)
    club.save(update_fields=list(values))
    return club


@transaction.atomic
def admin_add(*, club: Club, user: Any) -> None:
    """Another account runs the club too."""
    if not user.is_active:
        raise PlayerError(gettext("This account is closed."), field="username")
    if club.admins.filter(pk=user.pk).exists():
        raise PlayerError(
            gettext("%(user)s already runs the club.") % {"user": user.get_username()}, field="username"
        )
    club.admins.add(user)


@transaction.atomic
def admin_remove(*, club: Club, user: Any) -> None:
    """An account no longer runs the club; the last admin cannot leave it without one."""
    Club.objects.select_for_update().get(pk=club.pk)  # two removals at once leave one admin, not none
    if not club.admins.filter(pk=user.pk).exists():
        raise PlayerError(
            gettext("%(user)s does not run the club.") % {"user": user.get_username()}, field="username"
        )
    if club.admins.count() <= 1:
        raise PlayerError(
            gettext("A club keeps at least one admin: add another before %(user)s leaves.")
            % {"user": user.get_username()},
            field="username",
        )
    club.admins.remove(user)


@transaction.atomic
def member_add(
    *, club: Club, player: Player, joined_on: datetime.date | None = None, by: Any = None
) -> Membership:
    """The player (the root of a merged record) is a member from ``joined_on`` (today if not given);
    one who had left comes back, their row reopened. A claimed record is invited instead
    (``status`` invited): its account accepts or declines (``member_answer``)."""
    person = root_of(Player.objects.select_for_update().get(pk=player.pk))  # claimed as of now
    joined_on = joined_on or timezone.localdate()
    rows = club.memberships.select_for_update().filter(_records_of(person))
    if any(row.left_on is None and row.status == ACTIVE for row in rows):
        raise PlayerError(
            gettext("%(player)s is already a member of %(club)s.")
            % {"player": person.name, "club": club.name},
            field="player",
        )
    claimed = person.user_id is not None
    if claimed and any(row.left_on is None and row.status == INVITED for row in rows):
        raise PlayerError(
            gettext("%(player)s is already invited: their answer is waiting.") % {"player": person.name},
            field="player",
        )
    account = by if by is not None and getattr(by, "is_authenticated", False) else None
    membership, _ = Membership.objects.update_or_create(
        club=club,
        player=person,
        defaults={
            "joined_on": joined_on,
            "left_on": None,
            "status": INVITED if claimed else ACTIVE,
            "added_by": account,
            "consented_by": None,
            "consented_at": None,
        },
    )
    action = Action.MEMBER_INVITED if claimed else Action.MEMBER_ADDED
    record_event(action=action, player=person, by=by, club=club)
    return membership


@transaction.atomic
def member_answer(*, membership: Membership, user: Any, accept: bool) -> Membership:
    """The player's account accepts (a member from now on, by its consent) or declines a club's
    invitation. Only the account of the record invited may answer, and only a waiting one."""
    membership = Membership.objects.select_for_update().select_related("club", "player").get(pk=membership.pk)
    person = root_of(membership.player)
    if not (user and user.is_authenticated) or person.user_id != user.pk:
        raise PlayerError(gettext("Only the player's own account answers this."), field="membership")
    if membership.status != INVITED or membership.left_on is not None:
        raise PlayerError(gettext("This invitation is no longer waiting."), field="membership")
    if accept:
        membership.status, membership.consented_by, membership.consented_at = ACTIVE, user, timezone.now()
    else:
        membership.status = Membership.Status.DECLINED
    membership.save(update_fields=["status", "consented_by", "consented_at"])
    action = Action.MEMBER_ACCEPTED if accept else Action.MEMBER_DECLINED
    record_event(action=action, player=person, by=user, club=membership.club)
    return membership


@transaction.atomic
def member_remove(
    *, club: Club, player: Player, left_on: datetime.date | None = None, by: Any = None
) -> list[Membership]:
    """The player (through any of their records) leaves the club on ``left_on`` (today if not given);
    their rows stay, with that day, as the club's history. A waiting invitation is withdrawn with it."""
    person = root_of(player)
    left_on = left_on or timezone.localdate()
    rows = list(club.memberships.select_for_update().filter(_records_of(person), left_on__isnull=True))
    if not any(row.status == ACTIVE for row in rows):
        raise PlayerError(
            gettext("%(player)s is not a member of %(club)s.") % {"player": person.name, "club": club.name},
            field="player",
        )
    if any(row.joined_on and left_on < row.joined_on for row in rows if row.status == ACTIVE):
        raise PlayerError(gettext("A member cannot leave before the day they joined."), field="left_on")
    for row in rows:
        row.left_on = max(left_on, row.joined_on) if row.joined_on else left_on
        row.save(update_fields=["left_on"])
    record_event(action=Action.MEMBER_LEFT, player=person, by=by, club=club)
    return rows
