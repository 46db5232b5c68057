"""Web Push (and e-mail) for the people in the room: who follows which entry, and what they are told.

Three moments, each told to the entries concerned only, in the words of the language each follower
used when they subscribed (``PushSubscription.language``):

- a round drawn: "Round 3: table 7, against Kyma" (a bye: "Round 3: you have a bye");
- a round started: "Round 3 has started: table 7";
- the final ranking: "Final ranking: you are 4th of 12".

A message is encrypted for the browser (RFC 8291, aes128gcm, pywebpush's ``WebPusher.encode``) and
signed for the push service (VAPID, RFC 8292, py-vapid: one token per push service's origin, kept
until an hour before it expires), then posted by ``webhooks.transport.post``: the endpoint is an
outbound URL like a webhook's, checked by the same guard at every send (public addresses only,
https; the address resolved is the one connected to), bounded in time and answer size.

The sends of one moment go out in parallel (``THREADS`` at once: the posts wait on the network, the
encryption is short). A subscription the push service says is gone (404, 410) is deleted; any other
failure is tried once more after the first pass, then counted (``failures``); after ``GIVE_UP``
failures in a row the subscription is deleted. Each subscription remembers the last moment it was
sent (``last_event``): a task run twice sends nothing twice.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core import mail
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext, pgettext

from tournaments.models import Entry, Round, StandingsSnapshot, Table, Tournament
from webhooks import guard, transport

from .models import ENDPOINT_MAX, EmailFollow, PushSubscription

logger = logging.getLogger(__name__)

THREADS = 32  # posts at once: each mostly waits on the push service
TTL = 3600  # seconds a push service keeps a message for a phone that is off the network
GIVE_UP = 10  # failures in a row after which a subscription is deleted
GONE = (404, 410)
KEY_MAX = 200  # characters of a browser's key (p256dh is 87, auth 22)


class Refused(ValueError):
    """A subscription that is not taken; the message says why, in words for the person."""


# Settings ---------------------------------------------------------------------------------------


def enabled() -> bool:
    """Push is on: the VAPID keys and subject are set."""
    return bool(
        settings.TSOXA_VAPID_PUBLIC_KEY and settings.TSOXA_VAPID_PRIVATE_KEY and settings.TSOXA_VAPID_SUBJECT
    )


def public_key() -> str:
    return settings.TSOXA_VAPID_PUBLIC_KEY if enabled() else ""


_vapid_lock = threading.Lock()
_vapid_tokens: dict[tuple[str, str], tuple[int, dict[str, str]]] = {}


def vapid_headers(endpoint: str) -> dict[str, str]:
    """The ``Authorization: vapid t=…, k=…`` header for the endpoint's push service: a JWT (ES256)
    with its origin as audience, valid 12 hours, signed once and kept until an hour before that."""
    from py_vapid import Vapid

    scheme, host, port, _path = guard.parse(endpoint)
    default = 443 if scheme == "https" else 80
    audience = f"{scheme}://{host}" + ("" if port == default else f":{port}")
    key = (audience, settings.TSOXA_VAPID_PRIVATE_KEY)
    now = int(time.time())
    with _vapid_lock:
        kept = _vapid_tokens.get(key)
        if kept is None or kept[0] - 3600 < now:
            expires = now + 12 * 3600
            claims = {"aud": audience, "exp": expires, "sub": settings.TSOXA_VAPID_SUBJECT}
            kept = (expires, Vapid.from_raw(settings.TSOXA_VAPID_PRIVATE_KEY.encode()).sign(claims))
            _vapid_tokens[key] = kept
    return dict(kept[1])


def vapid_keys_new() -> tuple[str, str]:
    """A new VAPID key pair: (public, private), base64url without padding, raw (65 and 32 bytes)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from py_vapid.utils import b64urlencode

    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    private = key.private_numbers().private_value.to_bytes(32, "big")
    return b64urlencode(public), b64urlencode(private)


# Who follows ------------------------------------------------------------------------------------


def follow(token: str) -> tuple[Entry, Any]:
    """The entry (and player) a personal page's token names (``tournaments.personal``'s token, signed
    with ``django.core.signing``). ``Refused`` when it is not one."""
    from django.http import Http404

    from tournaments import personal

    try:
        return personal.personal_entry(str(token or ""))
    except Http404:
        raise Refused(gettext("This link is not valid.")) from None


def personal_path(entry: Entry, player_id: int | None) -> str:
    """The personal page of the entry (and player), where a click on the notification leads."""
    from players.models import Player
    from tournaments import personal

    return personal.personal_url(None, entry, None if player_id is None else Player(pk=player_id))


def _language(language: str | None) -> str:
    codes = [code for code, _name in settings.LANGUAGES]
    language = (language or "").split("-")[0].lower()
    return language if language in codes else settings.LANGUAGE_CODE.split("-")[0]


@transaction.atomic
def subscription_save(*, token: str, subscription: Any, language: str | None) -> PushSubscription:
    """Take (or move) a browser's subscription to follow the token's entry. Refused: push off, a token
    that is not a personal page's, a subscription that is not one (keys missing, too long), an
    endpoint the server may not post to (webhooks' guard: https and a public address)."""
    if not enabled():
        raise Refused(gettext("Notifications are not offered on this site."))
    entry, player = follow(token)
    if not isinstance(subscription, dict):
        raise Refused(gettext("The browser's subscription is missing."))
    endpoint = subscription.get("endpoint")
    keys = subscription.get("keys")
    if not isinstance(endpoint, str) or not isinstance(keys, dict):
        raise Refused(gettext("The browser's subscription is missing."))
    p256dh, auth = keys.get("p256dh"), keys.get("auth")
    if not (isinstance(p256dh, str) and isinstance(auth, str) and p256dh and auth):
        raise Refused(gettext("The browser's subscription has no keys."))
    if len(endpoint) > ENDPOINT_MAX or len(p256dh) > KEY_MAX or len(auth) > KEY_MAX:
        raise Refused(gettext("The browser's subscription is too long."))
    try:
        guard.check(endpoint)
    except guard.Refused as refused:
        raise Refused(str(refused)) from None
    # The page posts its subscription again on every visit: the same browser following the same
    # entry keeps the last moment it was sent, so a task run again after the visit sends nothing twice;
    # a browser that moves to another entry (or player) starts afresh.
    known = (
        PushSubscription.objects.select_for_update()
        .filter(endpoint=endpoint)
        .values_list("entry_id", "player_id", "last_event")
        .first()
    )
    following = (entry.pk, player.pk if player is not None else None)
    last_event = known[2] if known is not None and known[:2] == following else ""
    sub, _created = PushSubscription.objects.update_or_create(
        endpoint=endpoint,
        defaults={
            "p256dh": p256dh,
            "auth": auth,
            "entry": entry,
            "player": player,
            "language": _language(language),
            "failures": 0,
            "last_event": last_event,
        },
    )
    return sub


def subscription_delete(*, endpoint: str) -> int:
    """Forget a browser's subscription (its "Stop" button): how many were deleted (0 or 1)."""
    return PushSubscription.objects.filter(endpoint=str(endpoint or "")[:ENDPOINT_MAX]).delete()[0]


@transaction.atomic
def email_follow_save(*, token: str, email: str, language: str | None) -> EmailFollow:
    """An address that gets the same words by e-mail. No confirmation; at most
    ``TSOXA_EMAIL_FOLLOWS_PER_ENTRY`` addresses per entry."""
    from django.core.exceptions import ValidationError
    from django.core.validators import validate_email

    entry, player = follow(token)
    email = (email or "").strip()
    try:
        validate_email(email)
    except ValidationError:
        raise Refused(gettext("Enter a valid e-mail address.")) from None
    Entry.objects.select_for_update().filter(pk=entry.pk).first()  # two at once: one counted after the other
    existing = EmailFollow.objects.filter(entry=entry, email__iexact=email).first()
    if existing is not None:
        return existing
    if EmailFollow.objects.filter(entry=entry).count() >= settings.TSOXA_EMAIL_FOLLOWS_PER_ENTRY:
        raise Refused(gettext("This team already has as many e-mail addresses as it may give."))
    return EmailFollow.objects.create(entry=entry, player=player, email=email, language=_language(language))


# What is said ----------------------------------------------------------------------------------


def ordinal(number: int) -> str:
    """1st, 2nd, 3rd, 4th … in the language in force."""
    if number % 100 in (11, 12, 13):
        return pgettext("ordinal 11, 12, 13", "%(number)sth") % {"number": number}
    template = {
        1: pgettext("ordinal 1", "%(number)sst"),
        2: pgettext("ordinal 2", "%(number)snd"),
        3: pgettext("ordinal 3", "%(number)srd"),
    }.get(number % 10, pgettext("ordinal", "%(number)sth"))
    return template % {"number": number}


@dataclass(frozen=True)
class Seat:
    """What one entry is told of a round: its table and who it plays (None: a bye)."""

    table: int
    against: str | None


def _names(*entries: Entry | None) -> str:
    return " & ".join(e.name for e in entries if e is not None)


def round_seats(rnd: Round) -> dict[int, Seat]:
    """Each entry of the round: its table's number and its opponents' names."""
    seats: dict[int, Seat] = {}
    tables = Table.objects.filter(round=rnd).select_related(
        *(
            f"{side}__{who}"
            for side in ("entry0", "entry1", "partner0", "partner1")
            for who in ("team", "player")
        )
    )
    for table in tables:
        sides = ((table.entry0, table.partner0), (table.entry1, table.partner1))
        for mine, theirs in (sides, sides[::-1]):
            against = _names(*theirs) if theirs[0] is not None else None
            for entry in mine:
                if entry is not None:
                    seats[entry.pk] = Seat(table.number, against)
    return seats


def drawn_words(rnd_number: int, seat: Seat) -> str:
    if seat.against is None:
        return gettext("Round %(round)s: you have a bye") % {"round": rnd_number}
    return gettext("Round %(round)s: table %(table)s, against %(against)s") % {
        "round": rnd_number,
        "table": seat.table,
        "against": seat.against,
    }


def started_words(rnd_number: int, seat: Seat) -> str:
    if seat.against is None:
        return gettext("Round %(round)s has started: you have a bye") % {"round": rnd_number}
    return gettext("Round %(round)s has started: table %(table)s") % {
        "round": rnd_number,
        "table": seat.table,
    }


def final_words(place: int, count: int) -> str:
    return gettext("Final ranking: you are %(place)s of %(count)s") % {
        "place": ordinal(place),
        "count": count,
    }


# Sending ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    ok: bool
    gone: bool
    status: int | None
    error: str


def push_one(sub: PushSubscription, payload: bytes) -> Outcome:
    """Encrypt ``payload`` for the subscription's browser and post it to its push service."""
    from pywebpush import WebPusher

    try:
        info = {"endpoint": sub.endpoint, "keys": {"p256dh": sub.p256dh, "auth": sub.auth}}
        body = WebPusher(info).encode(payload, content_encoding="aes128gcm")["body"]
        headers = {
            **vapid_headers(sub.endpoint),
            "TTL": str(TTL),
            "Urgency": "high",
            "Content-Encoding": "aes128gcm",
            "Content-Type": "application/octet-stream",
        }
    except Exception as failure:  # keys a browser never made, an endpoint no longer valid
        return Outcome(False, False, None, f"{type(failure).__name__}: {failure}"[:300])
    answer = transport.post(sub.endpoint, body, headers)
    return Outcome(answer.ok, answer.status_code in GONE, answer.status_code, answer.error)


def push_many(messages: list[tuple[PushSubscription, bytes]], *, event: str) -> dict[str, int]:
    """Send each message (in parallel); delete the subscriptions gone, try the other failures once
    more, and record each one's outcome. Counts of ``sent``, ``gone``, ``failed``."""
    counts = {"sent": 0, "gone": 0, "failed": 0}
    if not messages:
        return counts
    pending = messages
    sent: list[int] = []
    gone: list[int] = []
    failed: list[int] = []
    with ThreadPoolExecutor(max_workers=min(THREADS, len(messages))) as pool:
        for attempt in (1, 2):
            outcomes = list(pool.map(lambda m: push_one(*m), pending))
            again = []
            for (sub, payload), outcome in zip(pending, outcomes, strict=True):
                if outcome.ok:
                    sent.append(sub.pk)
                elif outcome.gone:
                    gone.append(sub.pk)
                elif attempt == 1:
                    again.append((sub, payload))
                else:
                    failed.append(sub.pk)
                    logger.info(
                        "push to subscription %s failed: %s %s", sub.pk, outcome.status, outcome.error
                    )
            pending = again
            if not pending:
                break
    now = timezone.now()
    PushSubscription.objects.filter(pk__in=sent).update(last_sent_at=now, failures=0, last_event=event)
    PushSubscription.objects.filter(pk__in=gone).delete()
    if failed:
        from django.db.models import F

        PushSubscription.objects.filter(pk__in=failed).update(failures=F("failures") + 1, last_event=event)
        PushSubscription.objects.filter(pk__in=failed, failures__gte=GIVE_UP).delete()
    counts.update(sent=len(sent), gone=len(gone), failed=len(failed))
    return counts


def _payload(title: str, body: str, url: str, tag: str) -> bytes:
    return json.dumps({"title": title, "body": body, "url": url, "tag": tag}, ensure_ascii=False).encode()


def notify(
    *,
    tournament: Tournament,
    entry_ids: Iterable[int],
    words: Callable[[int], str | None],
    event: str,
) -> dict[str, int]:
    """Tell the followers of ``entry_ids`` the words ``words(entry_id)`` says (in each follower's
    language; None: nothing for that entry): by push where it is on, by e-mail to the addresses given."""
    entry_ids = list(entry_ids)
    counts = {"sent": 0, "gone": 0, "failed": 0, "emails": 0}
    if enabled():
        subs = list(
            PushSubscription.objects.filter(entry_id__in=entry_ids)
            .exclude(last_event=event)
            .select_related("entry")
        )
        messages = []
        for sub in subs:
            with translation.override(sub.language):
                text = words(sub.entry_id)
            if text:
                url = personal_path(sub.entry, sub.player_id)
                messages.append((sub, _payload(tournament.name, text, url, f"tsoxa-{tournament.pk}")))
        counts.update(push_many(messages, event=event))
    counts["emails"] = _mail(tournament, entry_ids, words, event)
    return counts


def _mail(
    tournament: Tournament, entry_ids: list[int], words: Callable[[int], str | None], event: str
) -> int:
    """The same words by e-mail, once per moment (the cache remembers what was sent: a task run twice
    within a day does not mail twice)."""
    from django.core.cache import cache

    follows = list(EmailFollow.objects.filter(entry_id__in=entry_ids).select_related("entry"))
    messages = []
    site = settings.TSOXA_SITE_URL.rstrip("/")
    for follow_ in follows:
        if not cache.add(f"tsoxa:notified:{event}:mail:{follow_.pk}", 1, timeout=86400):
            continue
        with translation.override(follow_.language):
            text = words(follow_.entry_id)
            if not text:
                continue
            url = site + personal_path(follow_.entry, follow_.player_id)
            messages.append(
                mail.EmailMessage(
                    subject=f"{tournament.name}: {text}",
                    body=f"{text}\n\n{gettext('Your page:')} {url}\n",
                    to=[follow_.email],
                )
            )
    if messages:
        try:
            mail.mailers.default.send_messages(messages)
        except Exception:  # a mail server down does not stop the pushes (already sent)
            logger.warning("notifications: the mail could not be sent", exc_info=True)
            return 0
    return len(messages)


def round_drawn_send(*, round_id: int) -> dict[str, int]:
    """Tell each entry of a drawn round its table and opponents."""
    rnd = Round.objects.select_related("tournament").filter(pk=round_id).first()
    if rnd is None or rnd.status != Round.Status.DRAFT:  # redrawn or deleted since, or started already
        return {}
    seats = round_seats(rnd)
    return notify(
        tournament=rnd.tournament,
        entry_ids=seats,
        words=lambda entry_id: drawn_words(rnd.number, seats[entry_id]),
        event=f"drawn:{rnd.pk}:{rnd.created_at.timestamp():.0f}",
    )


def round_started_send(*, round_id: int) -> dict[str, int]:
    """Tell each entry of a started round that it has started, and at which table."""
    rnd = Round.objects.select_related("tournament").filter(pk=round_id).first()
    if rnd is None:
        return {}
    seats = round_seats(rnd)
    return notify(
        tournament=rnd.tournament,
        entry_ids=seats,
        words=lambda entry_id: started_words(rnd.number, seats[entry_id]),
        event=f"started:{rnd.pk}",
    )


def final_ranking_send(*, tournament_id: int) -> dict[str, int]:
    """Tell each ranked entry its place in the final ranking, of how many."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None or tournament.status != Tournament.Status.FINISHED:
        return {}
    snapshot = StandingsSnapshot.objects.filter(tournament=tournament).first()
    ranking = (snapshot.ranking if snapshot else None) or []
    places = {row["entry"]: row["rank"] for row in ranking if row.get("entry") is not None}
    count = len(ranking)
    return notify(
        tournament=tournament,
        entry_ids=places,
        words=lambda entry_id: final_words(places[entry_id], count),
        event=f"final:{tournament.pk}",
    )


def anyone_follows(tournament_id: int) -> bool:
    """Someone follows an entry of the tournament (push on, or an e-mail): worth queueing a task."""
    if enabled() and PushSubscription.objects.filter(entry__tournament_id=tournament_id).exists():
        return True
    return EmailFollow.objects.filter(entry__tournament_id=tournament_id).exists()
