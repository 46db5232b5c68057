"""Check-in (issue 26): every team at once, each team by its own link (its slip's QR code) while the
organizer keeps self check-in open, and the count of who is still missing."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.template.loader import render_to_string
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournaments import live, services
from tournaments.checkin import checkin_context, checkin_state
from tournaments.models import Entry, Tournament

pytestmark = pytest.mark.django_db

TEAMS = [
    "Thalassa",
    "Ammos",
    "Vrachos",
    "Kyma",
    "Ilios",
    "Fengari",
    "Agera",
    "Notos",
    "Limani",
    "Pefko",
    "Asteri",
    "Kavos",
]


@pytest.fixture(autouse=True)
def fresh_limits():
    """The failed look-ups count in the (process-wide) cache: every test starts with none."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def organizer(django_user_model):
    return django_user_model.objects.create_user("organizer", password="pw-organizer-123")


def evening(organizer, teams=TEAMS, **settings) -> Tournament:
    t = services.tournament_create(organizer=organizer, name="Friday concours", swiss_rounds=4, **settings)
    for name in teams:
        services.entry_register(tournament=t, name=name, players=[f"{name} A", f"{name} B"])
    return t


def entry(t: Tournament, name: str) -> Entry:
    return t.entries.get(team__name=name)


def statuses(t: Tournament) -> dict[str, str]:
    return dict(t.entries.values_list("team__name", "status"))


def self_url(e: Entry) -> str:
    return reverse("tournaments:checkin_self", args=[e.checkin_token])


def open_checkin(t: Tournament, organizer) -> None:
    services.checkin_open_set(tournament=t, open=True, user=organizer)
    t.refresh_from_db()


@pytest.fixture
def published(monkeypatch):
    """What the services told the open screens and consoles (once committed)."""
    sent: list[tuple[int, str]] = []
    monkeypatch.setattr(live, "_send", lambda tournament_id, what: sent.append((tournament_id, what)))
    return sent


# Services: all at once ----------------------------------------------------------------------


def test_check_in_all_checks_in_every_registered_entry_and_says_how_many(
    organizer, published, django_capture_on_commit_callbacks
):
    t = evening(organizer, TEAMS[:5])
    services.entry_set_status(entry=entry(t, "Ammos"), status=Entry.Status.CHECKED_IN, user=organizer)
    services.entry_set_status(entry=entry(t, "Vrachos"), status=Entry.Status.WITHDRAWN, user=organizer)
    signup = services.entry_register(
        tournament=t, name="Late", players=["L a", "L b"], status=Entry.Status.PENDING
    )
    before = Tournament.objects.get(pk=t.pk).updated_at
    with django_capture_on_commit_callbacks(execute=True):
        assert services.checkin_all(tournament=t, user=organizer) == 3
    assert statuses(t) == {
        "Thalassa": "checked_in",
        "Ammos": "checked_in",
        "Vrachos": "withdrawn",
        "Kyma": "checked_in",
        "Ilios": "checked_in",
        "Late": "pending",
    }
    latest = entry(t, "Kyma").history.first()
    assert latest.status == "checked_in" and latest.history_user == organizer
    assert signup.history.count() == 1  # the sign-up awaiting approval was left alone
    assert Tournament.objects.get(pk=t.pk).updated_at > before  # the API's mirrors learn of it
    assert published == [(t.pk, "round")]
    assert services.checkin_all(tournament=t, user=organizer) == 0  # nobody left: no error


def test_check_in_all_is_refused_once_the_tournament_has_started(organizer):
    t = evening(organizer, TEAMS[:4])
    services.tournament_start(tournament=t, user=organizer)
    with pytest.raises(services.TournamentError, match=r"Check-in is over: the tournament has started\."):
        services.checkin_all(tournament=t, user=organizer)
    assert set(statuses(t).values()) == {"registered"}


def test_self_check_in_opens_and_closes_only_before_the_start(organizer):
    t = evening(organizer, TEAMS[:4])
    assert not t.checkin_open
    assert services.checkin_open_set(tournament=t, open=True, user=organizer).checkin_open
    t.refresh_from_db()
    assert t.checkin_open and t.history.first().history_user == organizer
    services.checkin_open_set(tournament=t, open=False, user=organizer)
    t.refresh_from_db()
    assert not t.checkin_open
    services.tournament_start(tournament=t, user=organizer)
    with pytest.raises(
        services.TournamentError, match=r"Self check-in opens only before the tournament starts\."
    ):
        services.checkin_open_set(tournament=t, open=True, user=organizer)
    t.refresh_from_db()
    assert not t.checkin_open


# Services: a team's own link ----------------------------------------------------------------


def test_a_teams_link_checks_it_in_while_check_in_is_open(
    organizer, published, django_capture_on_commit_callbacks
):
    t = evening(organizer, TEAMS[:4])
    kyma = entry(t, "Kyma")
    with pytest.raises(services.CheckinRefused, match="Check-in is not open yet") as refused:
        services.checkin_self(token=kyma.checkin_token)
    assert refused.value.reason == "not_open"
    assert entry(t, "Kyma").status == "registered"
    open_checkin(t, organizer)
    with django_capture_on_commit_callbacks(execute=True):
        found, now = services.checkin_self(token=kyma.checkin_token)
    assert now and found.pk == kyma.pk and entry(t, "Kyma").status == "checked_in"
    assert statuses(t)["Vrachos"] == "registered"  # only that team
    assert entry(t, "Kyma").history.first().history_change_reason == "self check-in"
    assert published == [(t.pk, "round")]
    assert services.checkin_self(token=kyma.checkin_token) == (found, False)  # again: no error


@pytest.mark.parametrize(
    ("setup", "reason", "sentence"),
    [
        ("withdrawn", "withdrawn", "Kyma has withdrawn: ask the organizer at the desk."),
        ("pending", "pending", "Kyma is awaiting the organizer's approval: check in at the desk."),
        ("started", "closed", "Check-in is closed: the tournament has started."),
        ("finished", "closed", "Check-in is closed: the tournament has started."),
    ],
)
def test_a_teams_link_refuses_clearly(organizer, setup, reason, sentence):
    t = evening(organizer, TEAMS[:4])
    open_checkin(t, organizer)
    kyma = entry(t, "Kyma")
    if setup == "withdrawn":
        services.entry_set_status(entry=kyma, status=Entry.Status.WITHDRAWN, user=organizer)
    elif setup == "pending":
        Entry.objects.filter(pk=kyma.pk).update(status=Entry.Status.PENDING)
    else:
        Tournament.objects.filter(pk=t.pk).update(status=setup)
    before = entry(t, "Kyma").status
    with pytest.raises(services.CheckinRefused) as refused:
        services.checkin_self(token=kyma.checkin_token)
    assert refused.value.reason == reason and str(refused.value) == sentence
    assert entry(t, "Kyma").status == before


def test_an_unknown_link_finds_no_entry(organizer):
    evening(organizer, TEAMS[:2])
    with pytest.raises(Entry.DoesNotExist):
        services.checkin_self(token="nobody-has-this")


# The read -----------------------------------------------------------------------------------


def nine_of_twelve(organizer) -> Tournament:
    t = evening(organizer)
    services.checkin_all(tournament=t, user=organizer)
    for name in ("Kyma", "Limani", "Asteri"):  # numbers 4, 9 and 11
        services.entry_set_status(entry=entry(t, name), status=Entry.Status.REGISTERED, user=organizer)
    return t


def test_the_state_counts_who_is_there_and_names_who_is_missing_by_number(organizer):
    t = nine_of_twelve(organizer)
    services.entry_register(tournament=t, name="Late", players=["L a", "L b"], status=Entry.Status.PENDING)
    services.entry_set_status(entry=entry(t, "Kavos"), status=Entry.Status.WITHDRAWN, user=organizer)
    with CaptureQueriesContext(connection) as queries:
        state = checkin_state(tournament=t)
    assert len(queries) == 2
    assert (state.checked_in, state.registered, state.pending, state.withdrawn) == (8, 11, 1, 1)
    assert [(e.number, e.name) for e in state.missing] == [(4, "Kyma"), (9, "Limani"), (11, "Asteri")]
    assert state.missing_count == 3 and not state.open


def test_the_partial_says_who_is_missing_and_offers_the_buttons(organizer, rf):
    t = nine_of_twelve(organizer)
    html = render_to_string("tournaments/_checkin.html", {"tournament": t, **checkin_context(t)})
    text = " ".join(re.sub(r"<[^>]+>", "", html).split())
    assert "9 of 12 checked in · missing: 4 Kyma, 9 Limani, 11 Asteri" in text
    assert 'id="checkin"' in html
    assert reverse("tournaments:checkin_all", args=[t.slug]) in html
    assert reverse("tournaments:checkin_open", args=[t.slug]) in html and "Open self check-in" in text
    assert reverse("tournaments:checkin_slips", args=[t.slug]) in html
    open_checkin(t, organizer)
    assert "Close self check-in" in render_to_string(
        "tournaments/_checkin.html", {"tournament": t, **checkin_context(t)}
    )
    services.tournament_start(tournament=t, user=organizer)
    t.refresh_from_db()
    assert checkin_context(t) == {"checkin": None}
    assert (
        render_to_string("tournaments/_checkin.html", {"tournament": t, **checkin_context(t)}).strip() == ""
    )


def test_the_partial_names_thirty_missing_teams_then_counts_the_others(organizer):
    t = evening(organizer, [f"Team {n}" for n in range(40)])
    text = render_to_string("tournaments/_checkin.html", {"tournament": t, **checkin_context(t)})
    assert "0 of 40 checked in" in text and "30 Team 29" in text and "31 Team 30" not in text
    assert "and 10 more" in text


# The team's page ----------------------------------------------------------------------------


def test_the_teams_page_shows_the_team_and_a_get_changes_nothing(client, organizer):
    t = evening(organizer, TEAMS[:4], starts_on="2026-11-27")
    open_checkin(t, organizer)
    kyma = entry(t, "Kyma")
    for _ in range(2):
        page = client.get(self_url(kyma))
        assert page.status_code == 200
    assert entry(t, "Kyma").status == "registered"
    assert kyma.history.count() == 1
    assert 'data-state="open"' in page.text
    assert "Friday concours" in page.text and ">4<" in page.text and "Kyma" in page.text
    assert "Kyma A &amp; Kyma B" in page.text
    assert 'data-testid="checkin-button"' in page.text and 'method="post"' in page.text
    assert '<meta name="robots" content="noindex, nofollow">' in page.text
    assert page["X-Robots-Tag"] == "noindex, nofollow"
    # Nothing of the organizer's: no other team, no other link, no manage page.
    for other in ("Thalassa", "Ammos", "Vrachos"):
        assert other not in page.text
    assert "/manage/" not in page.text
    assert client.head(self_url(kyma)).status_code == 200
    assert entry(t, "Kyma").status == "registered"


def test_the_button_checks_the_team_in_and_the_page_says_so(client, organizer):
    t = evening(organizer, TEAMS[:4])
    open_checkin(t, organizer)
    kyma = entry(t, "Kyma")
    done = client.post(self_url(kyma))
    assert done.status_code == 302 and done["Location"] == self_url(kyma)
    assert entry(t, "Kyma").status == "checked_in"
    page = client.get(self_url(kyma))
    assert 'data-state="done"' in page.text
    assert "Checked in — see you at the tables" in page.text
    assert 'data-testid="checkin-button"' not in page.text
    again = client.post(self_url(kyma), follow=True)  # a second tap: no error, it says so
    assert again.status_code == 200 and "Kyma was already checked in." in again.text
    assert "Checked in — see you at the tables" in again.text


@pytest.mark.parametrize(
    ("setup", "state", "sentence"),
    [
        ("not_open", "not_open", "Check-in is not open yet"),
        ("withdrawn", "withdrawn", "Kyma has withdrawn: ask the organizer at the desk."),
        ("pending", "pending", "Kyma is awaiting the organizer&#x27;s approval: check in at the desk."),
        ("started", "closed", "Check-in is closed: the tournament has started."),
    ],
)
def test_each_refusal_has_its_state_and_reason_on_the_page(client, organizer, setup, state, sentence):
    t = evening(organizer, TEAMS[:4])
    if setup != "not_open":
        open_checkin(t, organizer)
    kyma = entry(t, "Kyma")
    if setup == "withdrawn":
        services.entry_set_status(entry=kyma, status=Entry.Status.WITHDRAWN, user=organizer)
    elif setup == "pending":
        Entry.objects.filter(pk=kyma.pk).update(status=Entry.Status.PENDING)
    elif setup == "started":
        services.tournament_start(tournament=t, user=organizer)
    before = entry(t, "Kyma").status
    page = client.get(self_url(kyma))
    assert page.status_code == 200
    assert f'data-state="{state}"' in page.text and sentence in page.text
    assert 'data-testid="checkin-button"' not in page.text
    refused = client.post(self_url(kyma))
    assert refused.status_code == 422
    assert f'data-state="{state}"' in refused.text and sentence in refused.text
    assert entry(t, "Kyma").status == before


def test_an_unknown_link_is_a_404_and_guessing_links_is_limited(client, organizer):
    t = evening(organizer, TEAMS[:2])
    open_checkin(t, organizer)
    known = self_url(entry(t, "Thalassa"))
    for _ in range(40):  # a team opening its own link again and again is never slowed down
        assert client.get(known).status_code == 200
    guess = reverse("tournaments:checkin_self", args=["guess"])
    for _ in range(30):
        assert client.get(guess).status_code == 404
    assert client.get(guess).status_code == 429
    assert client.post(known).status_code == 429  # past the limit, nothing from that address
    assert entry(t, "Thalassa").status == "registered"


# The organizer's pages ----------------------------------------------------------------------


def test_check_in_all_and_open_go_back_to_the_manage_page_at_check_in(client, organizer):
    t = evening(organizer, TEAMS[:5])
    client.force_login(organizer)
    manage = reverse("tournaments:manage", args=[t.slug]) + "#checkin"
    assert client.get(reverse("tournaments:checkin_all", args=[t.slug])).status_code == 405
    done = client.post(reverse("tournaments:checkin_all", args=[t.slug]))
    assert done.status_code == 302 and done["Location"] == manage
    assert set(statuses(t).values()) == {"checked_in"}
    followed = client.post(reverse("tournaments:checkin_all", args=[t.slug]), follow=True)
    assert "Every registered team is already checked in." in followed.text
    opened = client.post(reverse("tournaments:checkin_open", args=[t.slug]), {"open": "1"})
    assert opened["Location"] == manage
    t.refresh_from_db()
    assert t.checkin_open
    client.post(reverse("tournaments:checkin_open", args=[t.slug]), {"open": "0"})
    t.refresh_from_db()
    assert not t.checkin_open


def test_check_in_all_says_how_many_and_refuses_after_the_start(client, organizer):
    t = evening(organizer, TEAMS[:4])
    client.force_login(organizer)
    page = client.post(reverse("tournaments:checkin_all", args=[t.slug]), follow=True)
    assert "4 teams checked in." in page.text
    services.tournament_start(tournament=t, user=organizer)
    page = client.post(reverse("tournaments:checkin_open", args=[t.slug]), {"open": "1"}, follow=True)
    assert "Self check-in opens only before the tournament starts." in page.text
    t.refresh_from_db()
    assert not t.checkin_open


def test_the_organizers_check_in_pages_are_the_organizers_only(client, organizer, django_user_model):
    t = evening(organizer, TEAMS[:2])
    kyma_pk = entry(t, "Thalassa").pk
    urls = [
        ("post", reverse("tournaments:checkin_all", args=[t.slug])),
        ("post", reverse("tournaments:checkin_open", args=[t.slug])),
        ("get", reverse("tournaments:checkin_slips", args=[t.slug])),
        ("get", reverse("tournaments:checkin_qr", args=[t.slug, kyma_pk])),
    ]
    for method, url in urls:
        assert getattr(client, method)(url, {"open": "1"} if method == "post" else None).status_code == 302
    client.force_login(django_user_model.objects.create_user("other", password="pw-other-12345"))
    for method, url in urls:
        assert getattr(client, method)(url, {"open": "1"} if method == "post" else None).status_code == 404
    t.refresh_from_db()
    assert not t.checkin_open and set(statuses(t).values()) == {"registered"}


def test_the_slips_page_lists_every_team_with_its_qr_code_and_costs_the_same_at_any_size(client, organizer):
    client.force_login(organizer)
    counts = []
    for size in (4, 12):
        t = evening(organizer, [f"{name} {size}" for name in TEAMS[:size]])
        withdrawn = t.entries.order_by("pk").last()
        services.entry_set_status(entry=withdrawn, status=Entry.Status.WITHDRAWN, user=organizer)
        with CaptureQueriesContext(connection) as captured:
            page = client.get(reverse("tournaments:checkin_slips", args=[t.slug]))
        assert page.status_code == 200
        counts.append(len(captured))
        slips = page.text.count('data-testid="checkin-slip"')
        assert slips == size - 1  # the withdrawn team gets none
        playing = t.entries.exclude(pk=withdrawn.pk).order_by("number")
        for e in playing:
            assert e.name in page.text and f"{e.name} A &amp; {e.name} B" in page.text
            assert "http://testserver" + self_url(e) in page.text
            assert reverse("tournaments:checkin_qr", args=[t.slug, e.pk]) in page.text
        assert withdrawn.checkin_token not in page.text
        codes = re.findall(r'<img class="slip-qr" src="([^"]+)"', page.text)
        assert len(codes) == size - 1
        qr = client.get(codes[0])
        assert qr.status_code == 200 and qr["Content-Type"] == "image/svg+xml"
        assert qr.content.startswith(b"<svg") and b"<script" not in qr.content
        assert qr["Content-Security-Policy"] == "default-src 'none'"
    assert counts[0] == counts[1]
    other = evening(organizer, ["Elsewhere"])
    assert (
        client.get(reverse("tournaments:checkin_qr", args=[t.slug, entry(other, "Elsewhere").pk])).status_code
        == 404
    )
