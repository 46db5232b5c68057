"""The service worker's side of Web Push (static/scoring/sw.js) and the opt-in's other states, in
Chromium.

The pushes are real push events: the server's message, posted to the local push service of
tests/push_fakes.py and decrypted there with the phone's keys (as the phone's browser does), is given
to the site's worker by DevTools' ``ServiceWorker.deliverPushMessage`` (the command behind DevTools'
"Push" button); what the worker shows is read back with ``registration.getNotifications()``.
Two things headless Chromium cannot do are given to the worker as events: a click on a notification
(a ``NotificationEvent`` of the notification shown, with ``clients.openWindow`` and
``WindowClient.focus`` recorded, as Chromium allows both only in a real click) and
``pushsubscriptionchange``, which Chromium never fires (with ``pushManager.subscribe`` answering a
subscription of the local push service, as in test_push_browser.py's page)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from notifications.models import PushSubscription
from tests.functional.test_push_browser import phone_page, running
from tests.push_fakes import Browser, unb64
from tournaments import personal, services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def browser(full_browser):
    """The full Chromium: its headless shell (conftest.py's ``browser``) shows no notification."""
    return full_browser


SUBSCRIBE = "Tell me when my table is drawn"
NEWS = "Open your page to see what is new."
ICON = "/static/icons/icon-192.png"
FOLLOW = "caches.match('/push-follow', {cacheName: 'tsoxa-push'}).then(r => r ? r.json() : null)"

SHOWN = """() => self.registration.getNotifications().then(shown => shown.map(n => ({
  title: n.title, body: n.body, tag: n.tag, data: n.data, icon: n.icon, lang: n.lang, renotify: n.renotify,
})))"""

CLOSE_ALL = "() => self.registration.getNotifications().then(shown => shown.forEach(n => n.close()))"

# clients.openWindow and WindowClient.focus, recorded (outside a real click Chromium refuses them).
SPIES = """() => {
  self.__opened = []; self.__focused = [];
  self.clients.openWindow = async (url) => { self.__opened.push(url); return null; };
  WindowClient.prototype.focus = async function () { self.__focused.push(this.url); return this; };
}"""

CLICK = """async () => {
  const [shown] = await self.registration.getNotifications();
  const click = new NotificationEvent("notificationclick", {notification: shown});
  const waits = [];
  Object.defineProperty(click, "waitUntil", {value: (promise) => { waits.push(promise); }});
  self.dispatchEvent(click);
  await Promise.all(waits);
  return {opened: self.__opened.splice(0), focused: self.__focused.splice(0),
          left: (await self.registration.getNotifications()).length};
}"""

CHANGE = """async ({old, fresh, keys, given, cookies}) => {
  const made = () => ({endpoint: fresh, toJSON() { return {endpoint: fresh, expirationTime: null, keys}; }});
  const subscribed = [];
  Object.defineProperty(self.registration, "pushManager", {configurable: true, value: {
    async getSubscription() { return null; },
    async subscribe(options) {
      subscribed.push({key: Array.from(new Uint8Array(options.applicationServerKey)),
                       userVisibleOnly: options.userVisibleOnly});
      return made();
    },
  }});
  if (!cookies) Object.defineProperty(self, "cookieStore", {configurable: true, value: undefined});
  const change = new ExtendableEvent("pushsubscriptionchange");
  const before = {endpoint: old, options: {applicationServerKey: null}};
  Object.defineProperty(change, "oldSubscription", {value: before});
  Object.defineProperty(change, "newSubscription", {value: given ? made() : null});
  const waits = [];
  Object.defineProperty(change, "waitUntil", {value: (promise) => { waits.push(promise); }});
  self.dispatchEvent(change);
  return {told: await Promise.all(waits), subscribed};
}"""


@pytest.fixture
def organizer(django_user_model):
    return django_user_model.objects.create_user(username="org", password="pw-org-12345")


def until(tab: Page, check: Callable[[], object], what: str, timeout_s: float = 30) -> object:
    """Ask ``check`` again (letting Playwright's events in) until it answers something true, for
    ``timeout_s`` by the clock: a push whose page's words are fetched from the live server took
    over 10 s on CI's two cores shared by four browsers."""
    deadline = time.monotonic() + timeout_s
    while True:
        found = check()
        if found:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"still waiting for {what}")
        tab.wait_for_timeout(50)


class SiteWorker:
    """The site's service worker of a context, as DevTools sees it."""

    def __init__(self, context: BrowserContext, tab: Page, origin: str) -> None:
        tab.evaluate("navigator.serviceWorker.ready.then(() => true)")
        self.tab = tab
        self.origin = origin
        self.worker = next(
            (w for w in context.service_workers if w.url.endswith("/sw.js")), None
        ) or context.wait_for_event("serviceworker")
        self.cdp = context.new_cdp_session(tab)
        found: list[dict] = []
        self.cdp.on("ServiceWorker.workerRegistrationUpdated", lambda e: found.extend(e["registrations"]))
        self.cdp.send("ServiceWorker.enable")
        until(tab, lambda: [r for r in found if not r["isDeleted"]], "the worker's registration")
        self.registration = next(r["registrationId"] for r in found if not r["isDeleted"])

    def evaluate(self, script: str, arg: object = None) -> object:
        return self.worker.evaluate(script, arg)

    def push(self, data: str) -> None:
        """A push message, as the push service hands it to the browser (decrypted)."""
        params = {"origin": self.origin, "registrationId": self.registration, "data": data}
        self.cdp.send("ServiceWorker.deliverPushMessage", params)

    def shown(self) -> list[dict]:
        return self.evaluate(SHOWN)

    def shown_after(self, data: str, check: Callable[[list[dict]], bool] = bool) -> list[dict]:
        """What the worker shows for a push of ``data``. On a loaded machine a push given by DevTools
        now and then never shows (about one run in twenty with both cores busy, the worker running
        and activated): one not shown 15 s later is given again, three times at most, so that a
        worker that does not show it still fails."""
        for _ in range(3):
            self.push(data)
            try:
                return until(
                    self.tab, lambda: (lambda now: now if check(now) else None)(self.shown()), data, 15
                )
            except AssertionError:
                continue
        raise AssertionError(f"a push of {data} given three times, never shown")

    def close_all(self) -> None:
        self.evaluate(CLOSE_ALL)
        until(self.tab, lambda: not self.shown(), "no notification left")

    def click(self) -> dict:
        self.evaluate(SPIES)
        return self.evaluate(CLICK)


def subscribed_phone(browser, live_server, organizer, receiver, name="phone"):
    """A running tournament, and a phone subscribed on its first team's first player's page."""
    t = running(organizer)
    entry = t.entries.select_related("team").first()
    phone = Browser()
    context, tab, errors = phone_page(
        browser,
        mode="stub",
        permission="default",
        answer="granted",
        endpoint=receiver.endpoint(name),
        keys=phone.keys(),
    )
    context.grant_permissions(["notifications"], origin=live_server.url)
    path = personal.personal_url(None, entry, entry.team.player_a)
    tab.goto(live_server.url + path)
    tab.get_by_role("button", name=SUBSCRIBE).click()
    expect(tab.locator("[data-push]")).to_have_attribute("data-push-status", "subscribed")
    return t, entry, phone, path, context, tab, errors


def test_a_drawn_round_is_shown_replaced_when_it_starts_and_a_click_leads_to_the_page(
    browser, live_server, receiver, vapid, organizer
):
    t, entry, phone, path, context, tab, errors = subscribed_phone(browser, live_server, organizer, receiver)
    try:
        worker = SiteWorker(context, tab, live_server.url)
        # What the page left for the worker: its page, its token, the server's key, generic words.
        follow = tab.evaluate(FOLLOW)
        assert (follow["page"], follow["key"], follow["url"]) == (path, vapid, "/notifications/subscribe/")
        assert (follow["title"], follow["news"], follow["lang"]) == ("Friday night", NEWS, "en")
        assert follow["token"] == path.split("/")[2]

        rnd = services.round_generate(tournament=t, user=organizer)
        [drawn] = receiver.delivered("phone")
        message = phone.decrypt(drawn["body"])
        table = rnd.tables.filter(entry0=entry).first() or rnd.tables.get(entry1=entry)
        assert message["body"].startswith(f"Round 1: table {table.number}, against ")
        [shown] = worker.shown_after(json.dumps(message, ensure_ascii=False))
        assert shown == {
            "title": "Friday night",
            "body": message["body"],
            "tag": f"tsoxa-{t.pk}",
            "data": {"url": path},
            "icon": live_server.url + ICON,
            "lang": "en",
            "renotify": True,
        }

        # The round starts: its message takes the drawn one's place (the tournament's tag).
        services.round_start(rnd=rnd, user=organizer)
        assert receiver.wait_for(2, 10)
        started = phone.decrypt(receiver.delivered("phone")[1]["body"])
        assert started["body"] == f"Round 1 has started: table {table.number}"
        now = worker.shown_after(json.dumps(started), lambda s: s and s[0]["body"] == started["body"])
        assert [(n["title"], n["body"], n["tag"]) for n in now] == [
            ("Friday night", started["body"], f"tsoxa-{t.pk}")
        ]

        # A click, with the page open in a tab: that tab comes forward, nothing else opens.
        assert worker.click() == {"opened": [], "focused": [live_server.url + path], "left": 0}

        # Again, the tab now elsewhere on the site: the page opens.
        worker.shown_after(json.dumps(started))
        tab.goto(live_server.url + "/")
        assert worker.click() == {"opened": [live_server.url + path], "focused": [], "left": 0}
        assert not errors, errors
    finally:
        context.close()


UNREADABLE = ["", "{not json", "null", "[1, 2]", '"words"', "{}", '{"title": 5, "body": ["x"], "url": 7}']


def test_a_push_that_cannot_be_read_shows_the_pages_words_and_leads_to_it(
    browser, live_server, receiver, vapid, organizer
):
    _t, _entry, _phone, path, context, tab, errors = subscribed_phone(
        browser, live_server, organizer, receiver
    )
    try:
        worker = SiteWorker(context, tab, live_server.url)
        for data in UNREADABLE:
            [shown] = worker.shown_after(data)
            assert (shown["title"], shown["body"], shown["tag"], shown["data"]) == (
                "Friday night",
                NEWS,
                "",
                {"url": path},
            ), data
            worker.close_all()
        # A message naming a page of another site: a click leads to the followed page instead.
        tab.goto(live_server.url + "/")
        foreign = {"title": "Friday night", "body": "Round 2", "url": "https://elsewhere.example/me/"}
        worker.shown_after(json.dumps(foreign))
        assert worker.click()["opened"] == [live_server.url + path]
        worker.shown_after(
            json.dumps({"title": "Friday night", "body": "Round 2", "url": "//elsewhere.example/"})
        )
        assert worker.click()["opened"] == [live_server.url + path]
        assert not errors, errors
    finally:
        context.close()


def test_without_a_followed_page_a_push_says_the_sites_name_and_leads_home(browser, live_server, vapid):
    context = browser.new_context()
    context.grant_permissions(["notifications"], origin=live_server.url)
    tab = context.new_page()
    try:
        tab.goto(live_server.url + "/")
        worker = SiteWorker(context, tab, live_server.url)
        [shown] = worker.shown_after("{not json")
        assert (shown["title"], shown["body"], shown["tag"], shown["data"]) == ("Tsoxa", "", "", {"url": "/"})
        worker.close_all()
        [shown] = worker.shown_after(json.dumps({"title": "Friday night", "body": "Round 1"}))
        assert (shown["title"], shown["body"], shown["data"]) == ("Friday night", "Round 1", {"url": "/"})
        tab.goto(live_server.url + "/tournaments/")
        assert worker.click() == {"opened": [live_server.url + "/"], "focused": [], "left": 0}
    finally:
        context.close()


@pytest.mark.parametrize(
    ("given", "cookies"),
    [(True, True), (False, True), (False, False)],
    ids=["the browser's new subscription", "subscribed again with the key", "no cookie store"],
)
def test_a_renewed_subscription_is_told_to_the_server_and_the_old_one_forgotten(
    browser, live_server, receiver, vapid, organizer, given, cookies
):
    t, entry, _old_phone, _path, context, tab, errors = subscribed_phone(
        browser, live_server, organizer, receiver, name="old"
    )
    try:
        worker = SiteWorker(context, tab, live_server.url)
        phone = Browser()
        renewed = worker.evaluate(
            CHANGE,
            {
                "old": receiver.endpoint("old"),
                "fresh": receiver.endpoint("new"),
                "keys": phone.keys(),
                "given": given,
                "cookies": cookies,
            },
        )
        assert renewed["told"] == [True]
        if given:
            assert renewed["subscribed"] == []
        else:  # with the server's key, for notifications the phone shows
            [subscribed] = renewed["subscribed"]
            assert bytes(subscribed["key"]) == unb64(vapid) and subscribed["userVisibleOnly"] is True
        [sub] = PushSubscription.objects.all()
        assert (sub.endpoint, sub.entry_id, sub.player_id) == (
            receiver.endpoint("new"),
            entry.pk,
            entry.team.player_a_id,
        )
        assert (sub.p256dh, sub.auth) == (phone.keys()["p256dh"], phone.keys()["auth"])

        services.round_generate(tournament=t, user=organizer)
        assert receiver.delivered("old") == []
        [drawn] = receiver.delivered("new")
        assert phone.decrypt(drawn["body"])["body"].startswith("Round 1: table ")
        assert not errors, errors
    finally:
        context.close()


# The opt-in's states that test_push_browser.py does not go through --------------------------------

ALREADY = """
window.__push.sub = {
  endpoint: %(endpoint)s,
  toJSON() { return {endpoint: %(endpoint)s, expirationTime: null, keys: %(keys)s}; },
  async unsubscribe() { window.__push.sub = null; return true; },
};
"""

# The browser's push service refuses once (Chromium without Google's, a Firefox with push off).
REFUSES_ONCE = """
(() => {
  const stubbed = Object.getOwnPropertyDescriptor(ServiceWorkerRegistration.prototype, "pushManager").get;
  let refused = false;
  Object.defineProperty(ServiceWorkerRegistration.prototype, "pushManager", {configurable: true, get() {
    const manager = stubbed.call(this);
    return {
      getSubscription: () => manager.getSubscription(),
      subscribe(options) {
        if (refused) return manager.subscribe(options);
        refused = true;
        const refusal = new DOMException("Registration failed - push service not available", "AbortError");
        return Promise.reject(refusal);
      },
    };
  }});
})();
"""


def test_a_page_subscribed_before_says_so_and_stop_forgets_it(
    browser, live_server, receiver, vapid, organizer
):
    entry = running(organizer).entries.first()
    phone = Browser()
    endpoint = receiver.endpoint("phone")
    context, tab, errors = phone_page(
        browser, mode="stub", permission="granted", answer="granted", endpoint=endpoint, keys=phone.keys()
    )
    context.add_init_script(ALREADY % {"endpoint": json.dumps(endpoint), "keys": json.dumps(phone.keys())})
    try:
        path = personal.personal_url(None, entry)
        tab.goto(live_server.url + path)
        box = tab.locator("[data-push]")
        expect(box).to_have_attribute("data-push-status", "subscribed")  # no click
        expect(box.get_by_text("You will be told your table")).to_be_visible()
        expect(tab.get_by_role("button", name=SUBSCRIBE)).to_be_hidden()
        assert list(PushSubscription.objects.values_list("endpoint", "entry_id")) == [(endpoint, entry.pk)]
        until(tab, lambda: tab.evaluate(FOLLOW), "the followed page kept")
        assert tab.evaluate(FOLLOW)["page"] == path

        # "Stop" without a connection: said, and nothing forgotten.
        context.set_offline(True)
        box.get_by_role("button", name="Stop").click()
        expect(box).to_have_attribute("data-push-status", "error")
        expect(box.get_by_role("alert")).to_contain_text(
            "The notifications could not be set up: The server could not be reached"
        )
        expect(box.get_by_role("alert")).not_to_contain_text("Failed to fetch")
        assert PushSubscription.objects.count() == 1
        context.set_offline(False)
        box.get_by_role("button", name="Try again").click()
        expect(box).to_have_attribute("data-push-status", "subscribed")

        box.get_by_role("button", name="Stop").click()
        expect(box).to_have_attribute("data-push-status", "idle")
        expect(tab.get_by_role("button", name=SUBSCRIBE)).to_be_visible()
        assert not PushSubscription.objects.exists()
        assert tab.evaluate("window.__push.sub") is None
        assert tab.evaluate(FOLLOW) is None
        assert not errors, errors
    finally:
        context.close()


def test_a_dismissed_question_leaves_the_button(browser, live_server, vapid, organizer):
    entry = running(organizer).entries.first()
    context, tab, errors = phone_page(
        browser, mode="stub", permission="default", answer="default", endpoint="https://x.invalid/", keys={}
    )
    try:
        tab.goto(live_server.url + personal.personal_url(None, entry))
        box = tab.locator("[data-push]")
        tab.get_by_role("button", name=SUBSCRIBE).click()
        expect(box).to_have_attribute("data-push-status", "idle")
        expect(tab.get_by_role("button", name=SUBSCRIBE)).to_be_visible()
        assert tab.evaluate("window.__push.sub") is None
        assert not PushSubscription.objects.exists()
        assert tab.evaluate(FOLLOW) is None
        assert not errors, errors
    finally:
        context.close()


UNREACHABLE = "The server could not be reached: try again when there is a connection."


@pytest.mark.parametrize(
    ("failure", "words"),
    [
        ("offline", UNREACHABLE),
        ("the worker cannot install", UNREACHABLE),
        ("server error", "The server refused (error 500)."),
        ("browser refuses", "This browser could not subscribe to notifications."),
    ],
)
def test_a_failed_subscription_says_why_in_words_and_try_again_works(
    browser, live_server, receiver, vapid, organizer, failure, words
):
    entry = running(organizer).entries.first()
    phone = Browser()
    context, tab, errors = phone_page(
        browser,
        mode="stub",
        permission="default",
        answer="granted",
        endpoint=receiver.endpoint("phone"),
        keys=phone.keys(),
    )
    if failure == "browser refuses":
        context.add_init_script(REFUSES_ONCE)
    elif failure == "the worker cannot install":  # a file it keeps does not come: it never activates
        context.route("**/offline/", lambda route: route.abort())
    try:
        tab.goto(live_server.url + personal.personal_url(None, entry))
        box = tab.locator("[data-push]")
        expect(box).to_have_attribute("data-push-status", "idle")
        if failure == "offline":  # the worker is there; the subscription cannot be posted
            tab.evaluate("navigator.serviceWorker.ready.then(() => true)")
            context.set_offline(True)
        elif failure == "server error":
            tab.route(
                "**/notifications/subscribe/",
                lambda route: route.fulfill(
                    status=500, content_type="text/html", body="<h1>Server Error (500)</h1>"
                ),
            )
        tab.get_by_role("button", name=SUBSCRIBE).click()
        expect(box).to_have_attribute("data-push-status", "error")
        expect(box.get_by_role("alert")).to_contain_text(f"The notifications could not be set up: {words}")
        assert not PushSubscription.objects.exists()
        assert tab.evaluate(FOLLOW) is None

        context.set_offline(False)
        tab.unroute("**/notifications/subscribe/")
        context.unroute("**/offline/")
        box.get_by_role("button", name="Try again").click()
        expect(box).to_have_attribute("data-push-status", "subscribed")
        assert PushSubscription.objects.get().endpoint == receiver.endpoint("phone")
        assert not errors, errors
    finally:
        context.close()
