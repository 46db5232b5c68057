"""The embeds: a tournament's standings and rounds on a club's own website (tournaments/embed.py).

Who may frame them (the Content-Security-Policy's ``frame-ancestors``: the site and the origins the
organizer lists, checked when saved), who may see them (a private tournament's are a 404 for the
others), what they show (the public pages' data without the site's chrome, in the tournament's
colours and the language asked for), how they stay up to date (polling while the tournament runs,
an ETag worked out before rendering, the same queries whatever the size) and the organizer's
settings and snippets.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring import services as scoring
from tournaments import embed, services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

WIN_0 = {"maker": 0, "card_points": [90, 62], "last_trick": 0}  # 100 v 62
CHROME = ('class="topbar"', 'class="mainnav"', "lang-switch", "<header", "<nav", "<footer", 'class="subnav"')


@pytest.fixture
def organizer(django_user_model):
    return django_user_model.objects.create_user(username="org", password="pw-org-12345")


@pytest.fixture
def stranger(django_user_model):
    return django_user_model.objects.create_user(username="stranger", password="pw-stranger-123")


def running(
    organizer, *, teams: int = 4, name: str = "Club night", deals: int = 1, played: int | None = None
) -> Tournament:
    """A running Swiss of ``deals`` a match, round 1 started, ``played`` deals (all by default) won
    100–62 by table 1's first team, and the standings computed."""
    t = services.tournament_create(organizer=organizer, name=name, swiss_rounds=3, deals_per_match=deals)
    for i in range(teams):
        services.entry_register(tournament=t, name=f"{name} team {i + 1}", players=[f"P{i}a", f"P{i}b"])
    services.tournament_start(tournament=t, user=organizer)
    rnd = services.round_start(rnd=services.round_generate(tournament=t, user=organizer), user=organizer)
    for _ in range(deals if played is None else played):
        scoring.deal_record(match=rnd.tables.get(number=1).match, deal=WIN_0)
    refresh(t)
    return Tournament.objects.get(pk=t.pk)


def refresh(t: Tournament) -> None:
    """The standings recomputed, as the worker does after the commit (the cache follows it)."""
    from django.core.cache import cache

    services.standings_refresh(tournament_id=t.pk)
    cache.delete(services.standings_cache_key(t.pk))


@pytest.fixture
def night(organizer):
    return running(organizer)


def urls(t: Tournament) -> dict[str, str]:
    return {
        "standings": reverse("tournaments:embed_standings", args=[t.slug]),
        "round": reverse("tournaments:embed_round", args=[t.slug, 1]),
        "current": reverse("tournaments:embed_round_current", args=[t.slug]),
    }


def policy(response) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    return {d.split()[0]: d.split()[1:] for d in (part.strip() for part in header.split(";")) if d}


def set_embed(t: Tournament, **settings) -> Tournament:
    return services.tournament_embed_update(tournament=t, user=t.organizer, **settings)


# Who may frame them ------------------------------------------------------------------------------


def test_an_embed_may_be_framed_by_the_site_and_exactly_the_origins_listed(client, night):
    set_embed(night, embed_origins="https://club.example\nhttp://localhost:8000")
    site = policy(client.get(reverse("tournaments:standings", args=[night.slug])))
    for name, url in urls(night).items():
        response = client.get(url)
        assert response.status_code == 200, name
        directives = policy(response)
        assert directives["frame-ancestors"] == ["'self'", "https://club.example", "http://localhost:8000"]
        # The rest of the policy is the site's (with no nonce: an embed has no inline script at all).
        assert {k: v for k, v in directives.items() if k != "frame-ancestors"} == {
            k: [v for v in values if not v.startswith("'nonce-")]
            for k, values in site.items()
            if k != "frame-ancestors"
        }
        assert "X-Frame-Options" not in response, name


def test_with_no_origin_listed_only_the_site_itself_may_frame_an_embed(client, night):
    for url in urls(night).values():
        response = client.get(url)
        assert policy(response)["frame-ancestors"] == ["'self'"]
        assert "X-Frame-Options" not in response


def test_a_304_carries_the_same_policy(client, night):
    set_embed(night, embed_origins=["https://club.example"])
    first = client.get(urls(night)["standings"])
    again = client.get(urls(night)["standings"], headers={"If-None-Match": first["ETag"]})
    assert again.status_code == 304
    assert policy(again)["frame-ancestors"] == ["'self'", "https://club.example"]
    assert "X-Frame-Options" not in again


def test_every_other_page_may_be_framed_by_nobody(client, organizer, night):
    set_embed(night, embed_origins=["https://club.example"])
    client.force_login(organizer)
    for url in (
        reverse("tournaments:home", args=[night.slug]),
        reverse("tournaments:standings", args=[night.slug]),
        reverse("tournaments:round", args=[night.slug, 1]),
        reverse("tournaments:screen", args=[night.slug]),
        reverse("tournaments:manage", args=[night.slug]),
        "/",
    ):
        response = client.get(url)
        assert response.status_code == 200, url
        assert policy(response)["frame-ancestors"] == ["'none'"], url
        assert response["X-Frame-Options"] == "DENY", url


# What they show ----------------------------------------------------------------------------------


def test_the_standings_embed_shows_the_standings_without_the_sites_chrome(client, night):
    html = client.get(urls(night)["standings"]).text
    assert 'data-testid="standings"' in html
    table1 = night.rounds.get(number=1).tables.select_related("entry0__team", "entry1__team").get(number=1)
    assert table1.entry0.team.name in html and table1.entry1.team.name in html
    for chrome in CHROME:
        assert chrome not in html, chrome
    assert '<base target="_blank">' in html  # a team's link opens the tournament's page, not in the frame
    assert "<script>" not in html and "<script nonce" not in html  # no inline script, only files


def test_the_round_embed_shows_its_tables_with_results_and_running_totals(client, organizer):
    t = running(organizer, deals=2, played=1)  # table 1 has played one deal of two: 100–62 and still in play
    html = client.get(urls(t)["round"]).text
    assert 'data-testid="pairings"' in html
    assert '<span class="side0">100</span>–<span class="side1">62</span>' in html
    for chrome in CHROME:
        assert chrome not in html, chrome
    assert client.get(urls(t)["current"]).text.count('data-testid="pairings"') == 1


def test_the_current_round_is_the_latest_started_and_none_before_the_first(client, organizer):
    t = services.tournament_create(organizer=organizer, name="Later", swiss_rounds=3)
    for i in range(4):
        services.entry_register(tournament=t, name=f"Team {i + 1}", players=[f"P{i}a", f"P{i}b"])
    current = reverse("tournaments:embed_round_current", args=[t.slug])
    html = client.get(current).text
    assert 'data-testid="no-round"' in html and "No round has started yet." in html
    services.tournament_start(tournament=t, user=organizer)
    drawn = services.round_generate(tournament=t, user=organizer)
    assert 'data-testid="no-round"' in client.get(current).text  # drawn is not started
    services.round_start(rnd=drawn, user=organizer)
    html = client.get(current).text
    assert 'data-testid="pairings"' in html and "Swiss 1 · Playing" in html


def test_an_embed_of_a_round_that_does_not_exist_is_a_404(client, night):
    assert client.get(reverse("tournaments:embed_round", args=[night.slug, 9])).status_code == 404
    assert client.get(reverse("tournaments:embed_standings", args=["no-such"])).status_code == 404


def test_the_embed_wears_the_tournaments_colours(client, night):
    html = client.get(urls(night)["standings"]).text
    assert 'style="--embed-colour: #14533e; --embed-background: #ffffff"' in html  # the site's
    assert 'class="embed"' in html
    set_embed(night, colour="#AA3300", background="#102030")
    for url in urls(night).values():
        html = client.get(url).text
        assert 'style="--embed-colour: #aa3300; --embed-background: #102030"' in html
        assert 'class="embed embed-dark"' in html  # light text on the dark background
    assert 'href="/static/tournaments/embed.css"' in html


@pytest.mark.parametrize(
    ("background", "dark"),
    [("#ffffff", False), ("#f4f2ed", False), ("#ffd400", False), ("#000000", True), ("#14533e", True)],
)
def test_light_text_goes_on_a_dark_background(background, dark):
    assert embed.dark_background(background) is dark


def test_the_language_is_the_visitors_or_the_one_the_snippet_asks_for(client, night):
    url = urls(night)["standings"]
    response = client.get(url, headers={"Accept-Language": "fr"})
    assert response["Content-Language"] == "fr" and '<html lang="fr"' in response.text
    response = client.get(url + "?lang=el", headers={"Accept-Language": "fr"})
    assert response["Content-Language"] == "el" and '<html lang="el"' in response.text
    assert 'hx-get="/tournaments/club-night/embed/standings/?lang=el"' in response.text  # it polls in Greek
    response = client.get(url + "?lang=xx", headers={"Accept-Language": "fr"})
    assert response["Content-Language"] == "fr"  # not a language of the site: the visitor's


# Who may see them --------------------------------------------------------------------------------


def test_a_private_tournaments_embeds_are_a_404_for_anyone_but_its_organizer(
    client, organizer, stranger, night
):
    Tournament.objects.filter(pk=night.pk).update(public=False)
    for url in urls(night).values():
        assert client.get(url).status_code == 404
    client.force_login(stranger)
    for url in urls(night).values():
        assert client.get(url).status_code == 404
    client.force_login(organizer)
    for url in urls(night).values():
        response = client.get(url)
        assert response.status_code == 200
        assert "private" in response["Cache-Control"] and "public" not in response["Cache-Control"]


def test_a_public_tournaments_embed_may_be_kept_by_shared_caches_for_a_moment(client, night):
    response = client.get(urls(night)["standings"])
    assert "public" in response["Cache-Control"]
    assert f"max-age={embed.FRESH_SECONDS}" in response["Cache-Control"]
    assert "HX-Request" in response["Vary"]  # the polled fragment is not the page
    assert "Cookie" not in response.get("Vary", "")  # nobody's session was read


# Up to date, cheaply -----------------------------------------------------------------------------


def test_an_embed_polls_only_while_the_tournament_runs(client, organizer, night):
    poll = f'hx-trigger="every {embed.POLL_SECONDS}s"'
    for url in urls(night).values():
        assert poll in client.get(url).text
    assert "htmx-2.min.js" in client.get(urls(night)["standings"]).text
    services.tournament_finish(tournament=night, reason="The café closes", user=organizer)
    for url in urls(night).values():
        html = client.get(url).text
        assert poll not in html and "hx-get" not in html and "htmx" not in html
    before = services.tournament_create(organizer=organizer, name="Next week")
    html = client.get(reverse("tournaments:embed_standings", args=[before.slug])).text
    assert "hx-get" not in html


def test_a_finished_round_of_a_running_tournament_is_not_polled(client, organizer):
    t = running(organizer)
    rnd = t.rounds.get(number=1)
    scoring.deal_record(match=rnd.tables.get(number=2).match, deal=WIN_0)
    refresh(t)  # closes the round
    assert t.rounds.get(number=1).status == "finished"
    assert "hx-get" not in client.get(urls(t)["round"]).text
    assert "hx-get" in client.get(urls(t)["current"]).text  # the current round follows the next one


def test_the_poll_gets_the_body_alone(client, night):
    response = client.get(urls(night)["standings"], headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert response.text.lstrip().startswith('<main id="embed"')
    assert "<html" not in response.text and "<head" not in response.text


def test_an_unchanged_embed_answers_304_and_a_change_a_new_page(client, organizer):
    t = running(organizer, deals=2, played=1)
    url = urls(t)["round"]
    first = client.get(url)
    assert client.get(url, headers={"If-None-Match": first["ETag"]}).status_code == 304
    scoring.deal_record(match=t.rounds.get(number=1).tables.get(number=2).match, deal=WIN_0)  # a deal
    second = client.get(url, headers={"If-None-Match": first["ETag"]})
    assert second.status_code == 200 and second["ETag"] != first["ETag"]
    assert second.text.count('<span class="side0">100</span>–<span class="side1">62</span>') == 2
    standings = client.get(urls(t)["standings"])
    scoring.deal_record(match=t.rounds.get(number=1).tables.get(number=1).match, deal=WIN_0)  # finished
    refresh(t)
    after = client.get(urls(t)["standings"], headers={"If-None-Match": standings["ETag"]})
    assert after.status_code == 200 and after["ETag"] != standings["ETag"]
    set_embed(t, colour="#aa3300")
    recoloured = client.get(urls(t)["standings"], headers={"If-None-Match": after["ETag"]})
    assert recoloured.status_code == 200 and "#aa3300" in recoloured.text


def test_a_304_costs_a_few_queries_and_renders_nothing(client, night, django_assert_max_num_queries):
    for url in urls(night).values():
        etag = client.get(url)["ETag"]
        with django_assert_max_num_queries(3):
            assert client.get(url, headers={"If-None-Match": etag}).status_code == 304


def queries(client, url: str) -> int:
    from django.core.cache import cache

    cache.clear()  # nothing rendered or read before
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def test_an_embed_costs_the_same_queries_for_4_teams_as_for_16(client, organizer):
    small, large = running(organizer, teams=4, name="Small"), running(organizer, teams=16, name="Large")
    for key in ("standings", "round", "current"):
        assert queries(client, urls(small)[key]) == queries(client, urls(large)[key]), key


def test_a_page_rendered_once_is_served_from_the_cache(client, night):
    url = urls(night)["round"]
    client.get(url)
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    assert len(captured) <= 3  # the tournament, the round and its version: no table read, nothing rendered


# The organizer's settings --------------------------------------------------------------------------


def settings_url(t: Tournament) -> str:
    return reverse("tournaments:embed_settings", args=[t.slug])


def test_the_organizer_page_has_the_settings_and_a_snippet_for_each_embed(client, organizer, night):
    client.force_login(organizer)
    html = client.get(reverse("tournaments:manage", args=[night.slug])).text
    assert 'data-testid="embed-settings"' in html
    assert 'type="color" name="colour" value="#14533e"' in html
    assert 'type="color" name="background" value="#ffffff"' in html
    for key, path in (("standings", urls(night)["standings"]), ("round", urls(night)["current"])):
        snippet = (
            f"&lt;iframe src=&quot;http://testserver{path}&quot; title=&quot;{{}} · Club night&quot; "
            "width=&quot;100%&quot; height=&quot;{}&quot; loading=&quot;lazy&quot; "
            "style=&quot;border: 0&quot;&gt;&lt;/iframe&gt;"
        )
        label, height = ("Standings", 600) if key == "standings" else ("Current round", 500)
        assert snippet.format(label, height) in html, key
        assert f'data-copy="#embed-code-{key}"' in html
    assert "tournaments/copy.js" in html and "<script>" not in html


def test_the_organizer_saves_origins_and_colours_even_once_started(client, organizer, night):
    client.force_login(organizer)
    response = client.post(
        settings_url(night),
        {
            "embed_origins": "https://Club.Example/\n\nhttps://club.example:443 https://*.club.example",
            "colour": "#AA3300",
            "background": "#ffffff",
        },
    )
    assert response.status_code == 302 and response["Location"].endswith("/manage/#embed")
    night.refresh_from_db()
    assert night.embed_origins == "https://club.example\nhttps://*.club.example"
    assert (night.colour, night.background) == ("#aa3300", "")  # white is the site's own: none kept
    client.post(
        settings_url(night),
        {"embed_origins": "", "colour": "#aa3300", "background": "#000000", "site_colours": "1"},
    )
    night.refresh_from_db()
    assert (night.embed_origins, night.colour, night.background) == ("", "", "")


BAD_ORIGINS = [
    ("http://club.example", "only https://"),
    ("https://club.example/results", "no path"),
    ("club.example", "write it as https://club.example"),
    ("https://*", "a wildcard only as the host"),
    ("*", "write it as https://club.example"),
    ("https://*.com", "at least two parts"),
    ("https://club.*.example", "a wildcard only as the host"),
    ("https://[::1]", "IPv6"),
    ("https://club.example:99999", "the port"),
    ("https://club.example:*", "the port"),
    ("https://user@club.example", "no path, query or user name"),
    ("'self'", "write it as"),
    ("https://club_example.org", "not a valid name"),
    ("javascript://alert(1)", "only https://"),
]


@pytest.mark.parametrize(("origin", "reason"), BAD_ORIGINS)
def test_a_wrong_origin_is_a_clear_form_error_and_nothing_is_saved(client, organizer, night, origin, reason):
    set_embed(night, embed_origins="https://kept.example")
    client.force_login(organizer)
    response = client.post(
        settings_url(night),
        {"embed_origins": f"https://fine.example\n{origin}", "colour": "#14533e", "background": "#ffffff"},
    )
    assert response.status_code == 422
    html = response.content.decode()
    assert 'class="errorlist' in html and reason in html.replace("&#x27;", "'")
    night.refresh_from_db()
    assert night.embed_origins == "https://kept.example"


def test_a_wrong_colour_is_refused(client, organizer, night):
    client.force_login(organizer)
    response = client.post(
        settings_url(night), {"embed_origins": "", "colour": "red", "background": "#ffffff"}
    )
    assert response.status_code == 422 and "is not a colour" in response.text
    night.refresh_from_db()
    assert night.colour == ""


def test_only_the_organizer_changes_the_settings(client, stranger, night):
    data = {"embed_origins": "https://evil.example", "colour": "#000000", "background": "#ffffff"}
    assert client.post(settings_url(night), data).status_code == 302  # to the login page
    client.force_login(stranger)
    assert client.post(settings_url(night), data).status_code == 404
    night.refresh_from_db()
    assert night.embed_origins == ""


def test_at_most_twenty_origins():
    with pytest.raises(services.TournamentError, match="At most 20 origins"):
        services.embed_origins_parse([f"https://club{i}.example" for i in range(21)])


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        ("https://Club.Example/", "https://club.example"),
        ("https://club.example:443", "https://club.example"),
        ("https://club.example:8443", "https://club.example:8443"),
        ("http://localhost:8000", "http://localhost:8000"),
        ("http://127.0.0.1", "http://127.0.0.1"),
        ("https://*.club.example", "https://*.club.example"),
        ("https://λέσχη.gr", "https://xn--ixauk7au.gr"),  # as the browsers write it
    ],
)
def test_an_origin_is_kept_as_the_policy_writes_it(given, kept):
    assert services.embed_origins_parse(given) == [kept]


# The API -------------------------------------------------------------------------------------------


@pytest.fixture
def api(client, organizer):
    client.force_login(organizer)
    return client


def test_the_api_reads_and_writes_the_embeds_settings_once_started(api, night):
    url = f"/api/v1/tournaments/{night.slug}/"
    response = api.patch(
        url,
        {"embed_origins": ["https://club.example", "https://CLUB.example/"], "colour": "#AA3300"},
        content_type="application/json",
    )
    assert response.status_code == 200, response.content
    assert response.json()["embed_origins"] == ["https://club.example"]
    assert response.json()["colour"] == "#aa3300" and response.json()["background"] == ""
    data = api.get(url).json()
    assert (data["embed_origins"], data["colour"]) == (["https://club.example"], "#aa3300")
    # The rules stay fixed once started: only the embeds' settings may change.
    assert api.patch(url, {"swiss_rounds": 4}, content_type="application/json").status_code == 400


def test_the_api_creates_a_tournament_with_its_embeds_settings(api):
    response = api.post(
        "/api/v1/tournaments/",
        {"name": "Friday", "embed_origins": ["https://club.example"], "background": "#fafafa"},
        content_type="application/json",
    )
    assert response.status_code == 201, response.content
    t = Tournament.objects.get(slug=response.json()["slug"])
    assert (t.embed_origins, t.background) == ("https://club.example", "#fafafa")


@pytest.mark.parametrize(("origin", "reason"), BAD_ORIGINS[:6])
def test_the_api_refuses_a_wrong_origin_with_a_400(api, night, origin, reason):
    response = api.patch(
        f"/api/v1/tournaments/{night.slug}/",
        {"embed_origins": ["https://fine.example", origin]},
        content_type="application/json",
    )
    assert response.status_code == 400
    assert "embed_origins" in response.text and reason in response.json().__repr__()
    night.refresh_from_db()
    assert night.embed_origins == ""


def test_the_api_refuses_a_wrong_colour_with_a_400(api, night):
    response = api.patch(
        f"/api/v1/tournaments/{night.slug}/", {"colour": "#abc"}, content_type="application/json"
    )
    assert response.status_code == 400 and "colour" in response.text
