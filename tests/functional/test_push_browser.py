"""The push opt-in on a player's own page, in Chromium (390 px wide).

Headless Chromium cannot make a real push subscription here: PushManager.subscribe() needs the
browser vendor's push service (Google's, for Chromium), which no test reaches. So the page's
``PushManager`` and ``Notification`` permission are stubbed (Playwright's ``add_init_script``) with a
subscription whose endpoint is the local push service of tests/push_fakes.py and whose keys are a
browser's made in the test; the site's real service worker (/sw.js) is registered and used. The
widget's states are checked (unsupported, permission denied, subscribed and "Stop", an error), the
subscription it posts is the one the server keeps, and a round drawn then reaches the local push
service, encrypted for those keys (decrypted here) and signed with the server's VAPID key."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Browser as Chromium
from playwright.sync_api import expect

from notifications.models import PushSubscription
from tests.push_fakes import Browser, unb64, vapid_claims
from tournaments import personal, services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}

STUB = """
(() => {
  const given = %(given)s;
  if (given.mode === "unsupported") { delete window.PushManager; return; }
  const state = window.__push = {permission: given.permission, answer: given.answer, sub: null, key: null};
  Object.defineProperty(Notification, "permission", {get: () => state.permission, configurable: true});
  Notification.requestPermission = async () => { state.permission = state.answer; return state.answer; };
  const made = () => ({
    endpoint: given.endpoint,
    toJSON() { return {endpoint: given.endpoint, expirationTime: null, keys: given.keys}; },
    async unsubscribe() { state.sub = null; return true; },
  });
  const manager = {
    async getSubscription() { return state.sub; },
    async subscribe(options) {
      state.key = Array.from(new Uint8Array(options.applicationServerKey));
      state.userVisibleOnly = options.userVisibleOnly;
      return (state.sub = made());
    },
  };
  const getter = {get: () => manager, configurable: true};
  Object.defineProperty(ServiceWorkerRegistration.prototype, "pushManager", getter);
})();
"""


@pytest.fixture
def organizer(django_user_model):
    return django_user_model.objects.create_user(username="org", password="pw-org-12345")


def running(organizer):
    t = services.tournament_create(
        organizer=organizer, name="Friday night", deals_per_match=1, swiss_rounds=2
    )
    for i in range(4):
        services.entry_register(tournament=t, name=f"Team {i + 1}", players=[f"P{i}a", f"P{i}b"])
    return services.tournament_start(tournament=t, user=organizer)


def phone_page(chromium: Chromium, **given):
    context = chromium.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.set_default_timeout(15_000)
    context.add_init_script(STUB % {"given": json.dumps(given)})
    errors: list[str] = []
    tab = context.new_page()
    tab.on("pageerror", lambda error: errors.append(str(error)))
    return context, tab, errors


def test_a_player_subscribes_and_a_drawn_round_reaches_the_push_service(
    browser, live_server, receiver, vapid, organizer
):
    t = running(organizer)
    entry = t.entries.select_related("team").first()
    phone = Browser()
    endpoint = receiver.endpoint("phone")
    context, tab, errors = phone_page(
        browser, mode="stub", permission="default", answer="granted", endpoint=endpoint, keys=phone.keys()
    )
    try:
        tab.goto(live_server.url + personal.personal_url(None, entry, entry.team.player_a))
        box = tab.locator("[data-push]")
        expect(box).to_have_attribute("data-push-status", "idle")
        tab.get_by_role("button", name="Tell me when my table is drawn").click()
        expect(box).to_have_attribute("data-push-status", "subscribed")
        expect(tab.get_by_role("button", name="Stop")).to_be_visible()
        sub = PushSubscription.objects.get()
        assert (sub.endpoint, sub.entry_id, sub.player_id) == (endpoint, entry.pk, entry.team.player_a_id)
        assert (sub.p256dh, sub.auth) == (phone.keys()["p256dh"], phone.keys()["auth"])
        # subscribed with the server's public key, through the site's own service worker
        key = tab.evaluate("window.__push.key")
        assert bytes(key) == unb64(vapid)
        assert tab.evaluate("window.__push.userVisibleOnly") is True
        assert tab.evaluate(
            "navigator.serviceWorker.getRegistration('/').then(r => r.active.scriptURL)"
        ).endswith("/sw.js")

        rnd = services.round_generate(tournament=t, user=organizer)
        [request] = receiver.delivered("phone")
        assert vapid_claims(request["headers"]["Authorization"], vapid)["aud"] == receiver.origin
        message = phone.decrypt(request["body"])
        table = rnd.tables.filter(entry0=entry).first() or rnd.tables.get(entry1=entry)
        assert message["body"].startswith(f"Round 1: table {table.number}, against ")

        tab.get_by_role("button", name="Stop").click()
        expect(box).to_have_attribute("data-push-status", "idle")
        assert not PushSubscription.objects.exists()
        assert not errors, errors
    finally:
        context.close()


@pytest.mark.parametrize(
    ("given", "status", "words"),
    [
        ({"mode": "unsupported"}, "unsupported", "This browser cannot show notifications"),
        ({"mode": "stub", "permission": "denied", "answer": "denied"}, "denied", "Notifications are blocked"),
        (
            {"mode": "stub", "permission": "default", "answer": "denied"},
            "denied",
            "Notifications are blocked",
        ),
    ],
    ids=["unsupported", "blocked before", "refused now"],
)
def test_the_widget_says_what_it_cannot_do(browser, live_server, vapid, organizer, given, status, words):
    entry = running(organizer).entries.first()
    context, tab, errors = phone_page(browser, endpoint="https://x.invalid/", keys={}, **given)
    try:
        tab.goto(live_server.url + personal.personal_url(None, entry))
        box = tab.locator("[data-push]")
        if status != "denied" or given["permission"] == "denied":
            expect(box).to_have_attribute("data-push-status", status)
        else:
            tab.get_by_role("button", name="Tell me when my table is drawn").click()
            expect(box).to_have_attribute("data-push-status", status)
        expect(box.get_by_text(words)).to_be_visible()
        assert not PushSubscription.objects.exists()
        assert not errors, errors
    finally:
        context.close()


def test_a_refused_subscription_is_an_error_with_the_reason(browser, live_server, vapid, settings, organizer):
    settings.TSOXA_WEBHOOKS_ALLOW_PRIVATE = False  # the stub's endpoint, on 127.0.0.1, is refused
    entry = running(organizer).entries.first()
    context, tab, errors = phone_page(
        browser,
        mode="stub",
        permission="default",
        answer="granted",
        endpoint="https://127.0.0.1/push/x",
        keys=Browser().keys(),
    )
    try:
        tab.goto(live_server.url + personal.personal_url(None, entry))
        tab.get_by_role("button", name="Tell me when my table is drawn").click()
        box = tab.locator("[data-push]")
        expect(box).to_have_attribute("data-push-status", "error")
        expect(box.get_by_role("alert")).to_contain_text("private, local or reserved")
        assert not PushSubscription.objects.exists()
        assert not errors, errors
    finally:
        context.close()


def test_without_vapid_keys_only_the_email_form_is_there(browser, live_server, settings, organizer):
    settings.TSOXA_VAPID_PUBLIC_KEY = ""
    entry = running(organizer).entries.first()
    context, tab, _errors = phone_page(browser, mode="unsupported")
    try:
        tab.goto(live_server.url + personal.personal_url(None, entry))
        assert tab.locator("[data-push]").count() == 0
        expect(tab.get_by_role("button", name="Send me these by e-mail")).to_be_visible()
    finally:
        context.close()
