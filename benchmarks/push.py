"""A round drawn for 200 teams, told to 400 phones: Web Push through one worker's code path.

A 200-team Swiss is started; each team's two players follow their team (400 push subscriptions,
each with its own browser keys) at a local push service (tests/push_fakes.py: an HTTP server on
127.0.0.1 in a thread, private addresses allowed as in the tests). Round 1 is drawn through the
services; with no broker the notification task runs in this process as soon as the draw commits
(``notifications.tasks.round_drawn_notify``: what a worker runs). Printed: the draw alone, and the
time from the draw's start to the 400th message received (each one encrypted for its browser and
signed with VAPID; a few are decrypted and their signature checked here). Target: ≤ 10 s.
"""

from __future__ import annotations

import time

from django.contrib.auth import get_user_model
from django.test.utils import override_settings

from benchmarks import load
from notifications import services as push
from notifications.models import PushSubscription
from tests.push_fakes import Browser, PushReceiver, vapid_claims
from tournaments import services
from tournaments.models import Entry

TEAMS = 200
TARGET_S = 10.0
CHECKED = 5


def figure(label: str, value: str, target: str = "", ok: bool | None = None) -> None:
    load.figure(label, value, target, ok, width=40)


def run() -> None:
    print(f"\n== push: a round drawn for {TEAMS} teams, {2 * TEAMS} subscriptions, a local push service ==")
    public, private = push.vapid_keys_new()
    receiver = PushReceiver()
    try:
        with override_settings(
            TSOXA_VAPID_PUBLIC_KEY=public,
            TSOXA_VAPID_PRIVATE_KEY=private,
            TSOXA_VAPID_SUBJECT="mailto:bench@example.org",
            TSOXA_WEBHOOKS_ALLOW_PRIVATE=True,
        ):
            organizer = get_user_model().objects.create_user(username="bench-push", password="pw-bench-12345")
            t = services.tournament_create(organizer=organizer, name="Push night", swiss_rounds=3)
            for i in range(TEAMS):
                services.entry_register(tournament=t, name=f"Team {i}", players=[f"Push {i}a", f"Push {i}b"])
            services.tournament_start(tournament=t, user=organizer)
            browsers: dict[str, Browser] = {}
            subs = []
            for entry in Entry.objects.filter(tournament=t).select_related("team"):
                for player_id in (entry.team.player_a_id, entry.team.player_b_id):
                    name = f"{entry.pk}-{player_id}"
                    browser = browsers[name] = Browser()
                    keys = browser.keys()
                    subs.append(
                        PushSubscription(
                            endpoint=receiver.endpoint(name),
                            p256dh=keys["p256dh"],
                            auth=keys["auth"],
                            entry=entry,
                            player_id=player_id,
                        )
                    )
            PushSubscription.objects.bulk_create(subs)
            push._vapid_tokens.clear()  # the first VAPID signature is part of the figure

            started = time.monotonic()
            rnd = services.round_generate(tournament=t, user=organizer)
            returned = time.monotonic()
            delivered = receiver.wait_for(len(subs), timeout=60)
            last = max((r["at"] for r in receiver.requests), default=started)
            draw_s = min((r["at"] for r in receiver.requests), default=returned) - started
    finally:
        receiver.stop()
    total = last - started
    count = len(receiver.requests)
    figure("the draw (200 teams), to its commit", f"{draw_s:.2f} s")
    figure("draw → 400th delivery (one worker)", f"{total:.2f} s", f"≤ {TARGET_S:.0f} s", total <= TARGET_S)
    figure("messages received", f"{count} of {len(subs)}")
    figure("sending alone", f"{total - draw_s:.2f} s ({count / max(total - draw_s, 1e-9):.0f}/s)")
    for request in receiver.requests[:CHECKED]:  # real messages: signed and encrypted for their browser
        vapid_claims(request["headers"]["Authorization"], public)
        message = browsers[request["path"].rsplit("/", 1)[1]].decrypt(request["body"])
        assert message["body"].startswith(f"Round {rnd.number}: table "), message
    figure("checked (VAPID, decrypted)", f"{CHECKED} messages")
    if not delivered or count != len(subs):
        raise SystemExit(f"push: {count} of {len(subs)} messages delivered")
