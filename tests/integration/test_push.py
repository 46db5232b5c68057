"""Web Push end to end against a local push service (tests/push_fakes.py: an HTTP server on 127.0.0.1
in a thread, the setting that allows private addresses on): the subscribe endpoint and its
refusals; each moment (a round drawn, started, the final ranking) sent to its entries' followers
only, signed with the server's VAPID key (the receiver checks the JWT's ES256 signature against the
public key) and encrypted for the browser (decrypted here with the browser's keys); a subscription
the push service says is gone deleted, other failures tried once more and counted; sent once.
Celery runs eagerly (no broker): the notifications go out when the change commits."""

from __future__ import annotations

import json
import time

import pytest
from django.core import mail
from django.db.models import Q
from django.test import Client
from django.urls import reverse

from notifications import services as push
from notifications.models import EmailFollow, PushSubscription
from scoring import services as scoring
from tests.push_fakes import Browser, vapid_claims
from tests.webhooks_fakes import fake_dns
from tournaments import personal, services
from tournaments.models import Entry

pytestmark = pytest.mark.django_db(transaction=True)

WIN_0 = {"maker": 0, "card_points": [90, 62], "last_trick": 0}
SUBSCRIBE = "/notifications/subscribe/"


@pytest.fixture(autouse=True)
def push_service_names():
    """push.example.org resolves to a public address (documentation's are refused): no test connects."""
    with fake_dns({"push.example.org": "93.184.215.14"}):
        yield


@pytest.fixture
def organizer(django_user_model):
    return django_user_model.objects.create_user(username="org", password="pw-org-12345")


def running(organizer, *, teams=4, rounds=2, name="Friday night"):
    t = services.tournament_create(organizer=organizer, name=name, deals_per_match=1, swiss_rounds=rounds)
    for i in range(teams):
        services.entry_register(tournament=t, name=f"{name} {i + 1}", players=[f"{name}{i}a", f"{name}{i}b"])
    return services.tournament_start(tournament=t, user=organizer)


def token(entry, player=None):
    return personal.personal_token(entry, player)


def subscribe(client, entry, browser, endpoint, player=None, **extra):
    body = {"token": token(entry, player), "subscription": browser.subscription(endpoint)}
    return client.post(SUBSCRIBE, json.dumps(body), content_type="application/json", **extra)


def followed(receiver, entry, name, player=None):
    """A browser subscribed (through the endpoint) to follow ``entry``, at /push/<name>."""
    browser = Browser()
    answer = subscribe(Client(), entry, browser, receiver.endpoint(name), player)
    assert answer.status_code == 201, answer.content
    return browser


def read(receiver, browser, name, public_key):
    """The messages /push/<name> received: each checked (VAPID signature, audience, expiry, subject,
    the headers of RFC 8030/8291) and decrypted with the browser's keys."""
    out = []
    for request in receiver.delivered(name):
        headers = request["headers"]
        claims = vapid_claims(headers["Authorization"], public_key)
        assert claims["aud"] == receiver.origin
        assert claims["sub"] == "mailto:club@example.org"
        assert time.time() < claims["exp"] <= time.time() + 24 * 3600
        assert headers["Content-Encoding"] == "aes128gcm"
        assert int(headers["TTL"]) > 0
        out.append(browser.decrypt(request["body"]))
    return out


def table_of(rnd, entry):
    table = rnd.tables.filter(entry0=entry).first() or rnd.tables.get(entry1=entry)
    other = table.entry1 if table.entry0_id == entry.pk else table.entry0
    return table.number, other.name


# The subscribe endpoint ------------------------------------------------------------------------


def test_a_subscription_is_kept_with_its_entry_player_and_language(vapid, organizer):
    t = running(organizer)
    entry = t.entries.select_related("team").first()
    browser = Browser()
    answer = subscribe(
        Client(),
        entry,
        browser,
        "https://push.example.org/send/abc",
        entry.team.player_b,
        HTTP_ACCEPT_LANGUAGE="el",
    )
    assert answer.status_code == 201, answer.content
    sub = PushSubscription.objects.get()
    assert (sub.endpoint, sub.entry, sub.player, sub.language) == (
        "https://push.example.org/send/abc",
        entry,
        entry.team.player_b,
        "el",
    )
    assert (sub.p256dh, sub.auth) == (browser.keys()["p256dh"], browser.keys()["auth"])
    # the same browser on another team's page: it follows that one now
    other = t.entries.exclude(pk=entry.pk).first()
    assert subscribe(Client(), other, browser, "https://push.example.org/send/abc").status_code == 201
    assert list(PushSubscription.objects.values_list("entry", "player")) == [(other.pk, None)]
    # "Stop"
    answer = Client().delete(
        SUBSCRIBE, json.dumps({"endpoint": sub.endpoint}), content_type="application/json"
    )
    assert answer.status_code == 200 and answer.json() == {"ok": True, "deleted": 1}
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ({"token": "nope"}, "This link is not valid."),
        ({"subscription": None}, "The browser's subscription is missing."),
        (
            {"subscription": {"endpoint": "https://push.example.org/x"}},
            "The browser's subscription is missing.",
        ),
        (
            {"subscription": {"endpoint": "https://push.example.org/x", "keys": {"p256dh": "k"}}},
            "has no keys",
        ),
        (
            {
                "subscription": {
                    "endpoint": "https://push.example.org/" + "x" * 1000,
                    "keys": {"p256dh": "k", "auth": "a"},
                }
            },
            "too long",
        ),
        (
            {"subscription": {"endpoint": "http://push.example.org/x", "keys": {"p256dh": "k", "auth": "a"}}},
            "https://",
        ),
        (
            {"subscription": {"endpoint": "https://127.0.0.1/x", "keys": {"p256dh": "k", "auth": "a"}}},
            "private, local or reserved",
        ),
        (
            {"subscription": {"endpoint": "https://10.1.2.3:8443/x", "keys": {"p256dh": "k", "auth": "a"}}},
            "private, local or reserved",
        ),
        (
            {
                "subscription": {
                    "endpoint": "https://169.254.169.254/latest",
                    "keys": {"p256dh": "k", "auth": "a"},
                }
            },
            "private, local or reserved",
        ),
        (
            {
                "subscription": {
                    "endpoint": "https://user:pw@push.example.org/x",
                    "keys": {"p256dh": "k", "auth": "a"},
                }
            },
            "user name",
        ),
    ],
    ids=[
        "bad token",
        "no subscription",
        "no keys",
        "one key",
        "too long",
        "http",
        "loopback",
        "private",
        "metadata",
        "credentials",
    ],
)
def test_the_endpoint_refuses_what_it_cannot_use(vapid, settings, organizer, body, said):
    settings.TSOXA_WEBHOOKS_ALLOW_PRIVATE = False
    entry = running(organizer).entries.first()
    sent = {
        "token": token(entry),
        "subscription": Browser().subscription("https://push.example.org/ok"),
        **body,
    }
    answer = Client().post(SUBSCRIBE, json.dumps(sent), content_type="application/json")
    assert answer.status_code == 422, answer.content
    assert said in answer.json()["error"]
    assert not PushSubscription.objects.exists()


def test_push_off_without_vapid_keys(settings, organizer):
    settings.TSOXA_VAPID_PUBLIC_KEY = settings.TSOXA_VAPID_PRIVATE_KEY = ""
    entry = running(organizer).entries.first()
    answer = subscribe(Client(), entry, Browser(), "https://push.example.org/x")
    assert answer.status_code == 422 and "not offered" in answer.json()["error"]
    assert not PushSubscription.objects.exists()
    page = Client().get("/")  # any page: the widget shows the push part only with the keys
    from django.template.loader import render_to_string

    html = render_to_string("notifications/_optin.html", {"token": "t"}, request=page.wsgi_request)
    assert "data-push" not in html and 'name="email"' in html


def test_the_endpoint_wants_the_csrf_token_and_json(vapid, organizer):
    entry = running(organizer).entries.first()
    client = Client(enforce_csrf_checks=True)
    assert subscribe(client, entry, Browser(), "https://push.example.org/x").status_code == 403
    assert Client().post(SUBSCRIBE, "{not json", content_type="application/json").status_code == 400
    assert Client().get(SUBSCRIBE).status_code == 405
    assert not PushSubscription.objects.exists()


def test_the_endpoint_is_rate_limited(vapid, organizer):
    entry = running(organizer).entries.first()
    client = Client()
    statuses = [
        subscribe(client, entry, Browser(), f"https://push.example.org/{i}").status_code for i in range(22)
    ]
    assert statuses[:20] == [201] * 20 and statuses[20:] == [429, 429]
    assert PushSubscription.objects.count() == 20


# The moments -------------------------------------------------------------------------------------


def test_a_round_drawn_tells_each_follower_its_table_and_opponents(receiver, vapid, organizer):
    t = running(organizer)
    elsewhere = running(organizer, name="Saturday")
    a, b = t.entries.order_by("pk")[:2]
    other = elsewhere.entries.first()
    browser_a = followed(receiver, a, "a")
    browser_b = followed(receiver, b, "b", player=b.team.player_a)
    followed(receiver, other, "other")
    rnd = services.round_generate(tournament=t, user=organizer)
    table, against = table_of(rnd, a)
    [message] = read(receiver, browser_a, "a", vapid)
    assert message["body"] == f"Round 1: table {table}, against {against}"
    assert message["title"] == "Friday night"
    assert message["url"].startswith("/me/") and message["tag"] == f"tsoxa-{t.pk}"
    assert personal.token_ids(message["url"].split("/")[2]) == (a.pk, None)
    [message] = read(receiver, browser_b, "b", vapid)
    table, against = table_of(rnd, b)
    assert message["body"] == f"Round 1: table {table}, against {against}"
    assert personal.token_ids(message["url"].split("/")[2]) == (b.pk, b.team.player_a_id)
    assert receiver.delivered("other") == []  # another tournament's round: nothing
    assert len(receiver.requests) == 2
    sub = PushSubscription.objects.get(endpoint=receiver.endpoint("a"))
    assert sub.last_sent_at is not None and sub.failures == 0

    # started: the same followers, once each
    services.round_start(rnd=rnd, user=organizer)
    messages = read(receiver, browser_a, "a", vapid)
    assert messages[1]["body"] == f"Round 1 has started: table {table_of(rnd, a)[0]}"
    assert len(receiver.requests) == 4

    # sent once: the task run again sends nothing
    assert push.round_started_send(round_id=rnd.pk) == {"sent": 0, "gone": 0, "failed": 0, "emails": 0}
    assert len(receiver.requests) == 4
    # nor after the player opened their page again (it posts the same subscription on each visit)
    assert subscribe(Client(), a, browser_a, receiver.endpoint("a")).status_code == 201
    assert push.round_started_send(round_id=rnd.pk)["sent"] == 0
    assert len(receiver.requests) == 4
    # a browser that moves to another team's page starts afresh: that team's moment is sent to it
    c = t.entries.exclude(pk__in=[a.pk, b.pk]).first()
    assert subscribe(Client(), c, browser_a, receiver.endpoint("a")).status_code == 201
    assert push.round_started_send(round_id=rnd.pk)["sent"] == 1
    assert len(receiver.requests) == 5


def test_a_bye_is_said(receiver, vapid, organizer):
    t = running(organizer, teams=3)
    entries = list(t.entries.all())
    browsers = {e.pk: followed(receiver, e, str(e.pk)) for e in entries}
    rnd = services.round_generate(tournament=t, user=organizer)
    bye = rnd.tables.get(entry1=None).entry0
    [message] = read(receiver, browsers[bye.pk], str(bye.pk), vapid)
    assert message["body"] == "Round 1: you have a bye"


def test_the_final_ranking_tells_each_follower_its_place(receiver, vapid, organizer):
    t = running(organizer, teams=4, rounds=1)
    entries = list(t.entries.order_by("pk"))
    browsers = {e.pk: followed(receiver, e, str(e.pk)) for e in entries}
    rnd = services.round_start(rnd=services.round_generate(tournament=t, user=organizer), user=organizer)
    for table in rnd.tables.select_related("match"):
        scoring.deal_record(match=table.match, deal=WIN_0, user=organizer)
    t.refresh_from_db()
    assert t.status == "finished"
    ranking = {row["entry"]: row["rank"] for row in t.standings.ranking}
    for entry in entries:
        messages = read(receiver, browsers[entry.pk], str(entry.pk), vapid)
        assert [m["body"] for m in messages][:2] == [
            f"Round 1: table {table_of(rnd, entry)[0]}, against {table_of(rnd, entry)[1]}",
            f"Round 1 has started: table {table_of(rnd, entry)[0]}",
        ]
        place = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}[ranking[entry.pk]]
        assert messages[-1]["body"] == f"Final ranking: you are {place} of 4"
        assert len(messages) == 3


def test_the_words_follow_the_subscribers_language(receiver, vapid, organizer, monkeypatch):
    t = running(organizer)
    entry = t.entries.first()
    browser = Browser()
    assert (
        subscribe(Client(), entry, browser, receiver.endpoint("el"), HTTP_ACCEPT_LANGUAGE="el").status_code
        == 201
    )
    seen = []
    real = push.drawn_words

    def drawn_words(number, seat):
        from django.utils.translation import get_language

        seen.append(get_language())
        return real(number, seat)

    monkeypatch.setattr(push, "drawn_words", drawn_words)
    services.round_generate(tournament=t, user=organizer)
    assert seen == ["el"]
    assert len(read(receiver, browser, "el", vapid)) == 1


def test_a_subscription_gone_is_deleted_other_failures_retried_once(receiver, vapid, organizer):
    t = running(organizer)
    gone, broken, flaky, fine = t.entries.order_by("pk")[:4]
    for entry, name in ((gone, "gone"), (broken, "broken"), (flaky, "flaky"), (fine, "fine")):
        followed(receiver, entry, name)
    receiver.statuses = {"/push/gone": 410, "/push/broken": [500, 503], "/push/flaky": [502]}
    services.round_generate(tournament=t, user=organizer)
    assert len(receiver.delivered("gone")) == 1
    assert len(receiver.delivered("broken")) == 2  # tried once more
    assert len(receiver.delivered("flaky")) == 2  # the second try went through
    assert len(receiver.delivered("fine")) == 1
    subs = {s.endpoint.rsplit("/", 1)[1]: s for s in PushSubscription.objects.all()}
    assert set(subs) == {"broken", "flaky", "fine"}
    assert (subs["broken"].failures, subs["broken"].last_sent_at) == (1, None)
    assert subs["flaky"].failures == 0 and subs["flaky"].last_sent_at is not None


def test_a_404_deletes_too_and_many_failures_give_up(receiver, vapid, organizer):
    t = running(organizer)
    a, b = t.entries.order_by("pk")[:2]
    followed(receiver, a, "a")
    followed(receiver, b, "b")
    PushSubscription.objects.filter(endpoint=receiver.endpoint("b")).update(failures=push.GIVE_UP - 1)
    receiver.statuses = {"/push/a": 404, "/push/b": [500, 500]}
    services.round_generate(tournament=t, user=organizer)
    assert not PushSubscription.objects.exists()


def test_the_guard_holds_at_send_time(receiver, vapid, settings, organizer):
    """A subscription taken while private addresses were allowed is not posted to once they are not."""
    t = running(organizer)
    followed(receiver, t.entries.first(), "a")
    settings.TSOXA_WEBHOOKS_ALLOW_PRIVATE = False
    services.round_generate(tournament=t, user=organizer)
    assert receiver.requests == []
    assert PushSubscription.objects.get().failures == 1


def test_nothing_is_queued_for_a_tournament_nobody_follows(
    vapid, organizer, django_assert_max_num_queries, monkeypatch
):
    from notifications import tasks

    called = []
    monkeypatch.setattr(tasks.round_drawn_notify, "delay", lambda *a: called.append(a))
    t = running(organizer)
    services.round_generate(tournament=t, user=organizer)
    assert called == []


def test_the_same_words_by_email(receiver, vapid, organizer, settings):
    settings.TSOXA_EMAIL_FOLLOWS_PER_ENTRY = 2
    t = running(organizer)
    entry = t.entries.first()
    client = Client()
    for address in ("ana@example.org", "ANA@example.org", "bob@example.org", "cy@example.org", "nope"):
        answer = client.post(
            reverse("notifications:email"), {"token": token(entry), "email": address, "next": "/here/"}
        )
        assert answer.status_code == 302 and answer["Location"] == "/here/"
    assert sorted(EmailFollow.objects.values_list("email", flat=True)) == [
        "ana@example.org",
        "bob@example.org",
    ]
    mail.outbox.clear()
    rnd = services.round_generate(tournament=t, user=organizer)
    table, against = table_of(rnd, entry)
    assert sorted(m.to[0] for m in mail.outbox) == ["ana@example.org", "bob@example.org"]
    assert mail.outbox[0].subject == f"Friday night: Round 1: table {table}, against {against}"
    assert "https://" in mail.outbox[0].body or "http://" in mail.outbox[0].body
    assert Entry.objects.filter(pk=entry.pk).exists()


def test_the_vapid_keys_command_prints_a_pair_that_signs(tmp_path):
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command("vapid_keys", stdout=out)
    lines = dict(line.split("=", 1) for line in out.getvalue().split())
    public, private = lines["TSOXA_VAPID_PUBLIC_KEY"], lines["TSOXA_VAPID_PRIVATE_KEY"]
    assert len(public) == 87 and len(private) == 43 and lines["TSOXA_VAPID_SUBJECT"].startswith("mailto:")
    from config.checks import _vapid_problem

    assert _vapid_problem(public, private, "mailto:a@example.org") == ""
    from py_vapid import Vapid

    header = Vapid.from_raw(private.encode()).sign(
        {"aud": "https://push.example.org", "exp": int(time.time()) + 60, "sub": "mailto:a@example.org"}
    )
    assert vapid_claims(header["Authorization"], public)["aud"] == "https://push.example.org"


def test_an_individual_round_names_both_opponents(receiver, vapid, organizer):
    t = services.tournament_create(
        organizer=organizer,
        name="Whist drive",
        format="individual",
        swiss_rounds=2,
        deals_per_match=1,
        seed=7,
    )
    for i in range(8):
        services.entry_register(tournament=t, name=f"P{i + 1}", players=[f"P{i + 1}"])
    t = services.tournament_start(tournament=t, user=organizer)
    me = t.entries.order_by("pk").first()
    browser = followed(receiver, me, "me")
    rnd = services.round_generate(tournament=t, user=organizer)
    table = rnd.tables.get(Q(entry0=me) | Q(partner0=me) | Q(entry1=me) | Q(partner1=me))
    mine_first = me.pk in (table.entry0_id, table.partner0_id)
    theirs = (table.entry1, table.partner1) if mine_first else (table.entry0, table.partner0)
    [message] = read(receiver, browser, "me", vapid)
    assert message["body"] == f"Round 1: table {table.number}, against {theirs[0].name} & {theirs[1].name}"
