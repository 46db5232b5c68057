"""The API's documentation as a club's developer reads it (/api/docs/, /api/redoc/, the schema):
a quick start at the top whose examples work, the operations grouped by what a club does with
them, each with a summary in words, no credentials asked for a read anyone may make, the token's
placeholder written out, and pages that load nothing from elsewhere."""

import hashlib
import hmac
import json
import re
import time

import pytest
from django.urls import resolve

from api import schema as docs
from api.docs import REDOCLY_LOGO
from webhooks import signing

pytestmark = pytest.mark.django_db

SCHEMES = ("tokenAuth", "scopedToken", "cookieAuth")


@pytest.fixture
def schema(anon):
    return json.loads(anon.get("/api/schema/", {"format": "json"}).content)


def operations(schema):
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            yield f"{method.upper()} {path}", operation


def code_blocks(markdown, language):
    return re.findall(rf"```{language}\n(.*?)```", markdown, flags=re.DOTALL)


# Groups and summaries -----------------------------------------------------------------------------


def test_every_operation_has_a_group_and_a_summary_in_words(schema):
    groups = [tag["name"] for tag in schema["tags"]]
    assert groups == list(docs.TAGS)
    assert all(tag["description"] for tag in schema["tags"])
    used, missing = set(), []
    for name, operation in operations(schema):
        summary = operation.get("summary", "")
        if not summary or summary == operation["operationId"] or "_" in summary:
            missing.append(name)
        assert len(operation.get("tags", [])) == 1 and operation["tags"][0] in groups, name
        used.add(operation["tags"][0])
    assert missing == [], f"operations without a summary in words: {missing}"
    assert used == set(groups)  # no empty group


def test_the_table_of_operations_names_only_operations_that_exist(schema):
    ids = {operation["operationId"] for _, operation in operations(schema)}
    assert set(docs.OPERATIONS) == ids


def test_the_groups_follow_what_a_club_does(schema):
    tag = {operation["operationId"]: operation["tags"][0] for _, operation in operations(schema)}
    assert tag["v1_tournaments_standings_retrieve"] == "Standings and rankings"
    assert tag["v1_tournaments_ranking_retrieve"] == "Standings and rankings"
    assert tag["v1_tournaments_retrieve"] == "Tournaments and results"
    assert tag["v1_matches_sheet_retrieve"] == "Tournaments and results"
    assert tag["v1_matches_deals_create"] == "Entering results"
    assert tag["v1_tournaments_rounds_create"] == "Running a tournament"
    assert tag["v1_players_history_list"] == "Players and clubs"
    assert tag["v1_webhooks_create"] == "Webhooks"
    assert tag["v1_token_create"] == tag["v1_tokens_create"] == tag["v1_changes_list"] == "Tokens and sync"


def test_operation_ids_stay_as_a_generated_client_knows_them(schema):
    """A generated client names its functions by operation id: the groups change none of them."""
    ids = {name: operation["operationId"] for name, operation in operations(schema)}
    assert ids["GET /api/v1/tournaments/{slug}/standings/"] == "v1_tournaments_standings_retrieve"
    assert ids["POST /api/v1/matches/{id}/deals/"] == "v1_matches_deals_create"
    assert ids["POST /api/v1/token/"] == "v1_token_create"


# Credentials --------------------------------------------------------------------------------------


def test_reads_anyone_may_make_ask_for_no_credentials_and_the_others_keep_theirs(schema, anon):
    """No padlock on a public read (exactly ``[{}]``); a write, and a read only an account or the
    organizer may make, lists the credentials it takes; asking them anonymously is refused."""
    for name, operation in operations(schema):
        security = operation.get("security")
        method = name.split()[0]
        if name == "POST /api/v1/token/":
            assert security is None, "it takes a password, not credentials"
        elif security == [{}]:
            assert method == "GET", name
        else:
            assert security and {} not in security, name
            assert {next(iter(s)) for s in security} == set(SCHEMES), name
    standings = schema["paths"]["/api/v1/tournaments/{slug}/standings/"]["get"]
    assert standings["security"] == [{}]
    for path in ("/api/v1/tournaments/{slug}/console/", "/api/v1/tournaments/{slug}/checkin/"):
        assert {} not in schema["paths"][path]["get"]["security"], path
        assert "403" in schema["paths"][path]["get"]["responses"], path


def test_the_organizers_reads_are_refused_to_anyone_else(anon, public_tournament):
    for tail in ("console", "checkin"):
        assert anon.get(f"/api/v1/tournaments/{public_tournament.slug}/{tail}/").status_code in (401, 403)


def test_the_credentials_say_what_to_send_with_the_placeholder_written_out(schema):
    schemes = schema["components"]["securitySchemes"]
    assert set(schemes) == set(SCHEMES)
    assert "Authorization: Token <your token>" in schemes["tokenAuth"]["description"]
    assert "Authorization: Bearer <your tsx_… key>" in schemes["scopedToken"]["description"]
    assert "scope" in schemes["scopedToken"]["description"].lower()  # the view's own text is kept
    assert "CSRF" in schemes["cookieAuth"]["description"]


# The quick start ----------------------------------------------------------------------------------


def test_the_quick_start_comes_first(schema):
    description = schema["info"]["description"]
    headings = re.findall(r"^#+ (.+)$", description, flags=re.MULTILINE)
    assert headings[:2] == ["Quick start", "Read the standings: no token needed"]
    assert {
        "Show them on your club's website",
        "Or embed them, with no code at all",
        "Be told when something happens: webhooks",
        "Write: tokens",
    } <= set(headings)


def test_the_quick_starts_addresses_are_the_sites(schema):
    """Each address of the examples is one the site answers: the API's reads, an embed, webhooks."""
    description = schema["info"]["description"]
    paths = set(re.findall(r"https://tsoxa\.example(/[^\s\"'`]*)", description))
    assert paths, description
    names = {resolve(path.split("?")[0]).url_name for path in paths}
    assert {"tournament-standings", "tournament-standings-csv", "embed_standings", "webhook-list"} <= names


def test_the_quick_starts_web_page_reads_the_standings_as_they_are(schema, anon, public_tournament):
    """The fetch() example reads members the standings have."""
    (page,) = code_blocks(schema["info"]["description"], "html")[:1]
    assert "fetch(" in page and "standings.rows" in page
    row = anon.get(f"/api/v1/tournaments/{public_tournament.slug}/standings/").json()["rows"][0]
    for member in re.findall(r"row\.(\w+)", page):
        assert member in row, member
    assert "match_points" in row["values"]


def test_the_quick_starts_webhook_check_accepts_a_real_delivery_and_refuses_a_forged_one(schema):
    """Its Python, run as written, against the signature webhooks/ makes (signing.sign)."""
    (code,) = code_blocks(schema["info"]["description"], "python")
    space: dict = {}
    exec(code, space)  # the reader's code, verbatim
    verified = space["verified"]
    secret, body = "s3cret-of-the-webhook", b'{"type": "standings.updated", "data": {}}'
    header = signing.sign(secret, body)
    assert signing.HEADER in schema["info"]["description"]
    assert verified(secret, header, body) is True
    assert verified(secret, header, body + b" ") is False
    assert verified("another secret", header, body) is False
    old = int(time.time()) - 3600
    assert verified(secret, signing.sign(secret, body, timestamp=old), body) is False
    forged = f"t={int(time.time())},v1=" + hmac.new(b"x", body, hashlib.sha256).hexdigest()
    assert verified(secret, forged, body) is False


# The pages and their assets -----------------------------------------------------------------------


def local_assets(page):
    """The addresses a page's markup loads (scripts, styles, icons), all on this site."""
    found = re.findall(r'<(?:script|link|img)\b[^>]*?(?:src|href)="([^"]+)"', page)
    outside = [url for url in found if re.match(r"(https?:)?//", url)]
    assert outside == [], outside
    return found


@pytest.mark.parametrize("url", ["/api/docs/", "/api/redoc/"])
def test_the_docs_pages_load_their_assets_from_this_site(client, url):
    response = client.get(url)
    assert response.status_code == 200
    assets = local_assets(response.content.decode())
    assert assets
    for asset in assets:
        answer = client.get(asset.replace("&amp;", "&"))
        assert answer.status_code == 200, asset
    policy = response["Content-Security-Policy"]
    assert "http" not in policy, policy  # no other host allowed, should a script try one


def test_redoc_links_no_web_fonts_and_its_bundle_no_outside_image(client):
    page = client.get("/api/redoc/").content.decode()
    assert "fonts.googleapis.com" not in page and "fonts.gstatic.com" not in page
    (bundle_url,) = re.findall(r'<script src="([^"]+)"', page)
    bundle = client.get(bundle_url)
    assert bundle.status_code == 200
    assert bundle["Content-Type"].startswith("text/javascript")
    assert "immutable" in bundle["Cache-Control"]
    text = b"".join(bundle) if bundle.streaming else bundle.content
    assert REDOCLY_LOGO not in text
    assert b"Redoc.init" in text or b"redoc" in text.lower()


def test_swagger_ui_asks_no_validator_badge(client):
    script = client.get("/api/docs/?script=").content.decode()
    assert '"validatorUrl": null' in script
