"""A client generated from the schema, used as a club's script would: openapi-python-client makes a
Python package from GET /api/schema/, and the script logs in for a token, starts a match, records its
deals and reads the sheet, the match file, a tournament's standings and its final ranking, each as a
typed model (not a dictionary) with the values the server computed."""

import contextlib
import importlib
import subprocess
import sys

import httpx
import pytest

from scoring import engine
from tests.factories import swiss_night
from tournaments import selectors

pytestmark = pytest.mark.django_db(transaction=True)

PACKAGE = "tsoxa_client"
# No post hooks: the generated code is not formatted (no ruff on PATH needed).
CONFIG = f"package_name_override: {PACKAGE}\npost_hooks: []\n"  # as README.md's
# FORMAT.md's example: a thrown-in deal, then team 0 makes it with a sequence of three.
THROWN_IN = {"thrown_in": True}
MADE = {"maker": 0, "card_points": [90, 62], "last_trick": 0, "melds": [["seq3"], []]}
CAPOT = {"maker": 0, "card_points": [152, 0], "capot": 0}


@pytest.fixture
def generated(live_server, tmp_path):
    """The client package, generated from the live server's schema, imported; a warning while
    generating (a model that could not be made) fails the test."""
    schema = httpx.get(f"{live_server.url}/api/schema/", params={"format": "json"})
    assert schema.status_code == 200
    (tmp_path / "schema.json").write_bytes(schema.content)
    (tmp_path / "config.yaml").write_text(CONFIG)
    done = subprocess.run(
        [sys.executable, "-m", "openapi_python_client", "generate", "--path", "schema.json",
         "--output-path", PACKAGE, "--meta", "none", "--config", "config.yaml", "--fail-on-warning"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Warning" not in done.stdout + done.stderr, done.stdout + done.stderr
    sys.path.insert(0, str(tmp_path))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(tmp_path))
        for name in [name for name in sys.modules if name == PACKAGE or name.startswith(f"{PACKAGE}.")]:
            del sys.modules[name]


@pytest.fixture
def clients():
    """The clients a test opens, closed after it: a live server's thread keeps its database
    connection for as long as a client keeps its socket alive."""
    with contextlib.ExitStack() as stack:
        yield stack


def part(name):
    return importlib.import_module(f"{PACKAGE}.{name}")


def test_a_clubs_script_scores_a_match_and_reads_the_standings(generated, clients, live_server, organizer):
    models = part("models")
    # A module per group of the docs (api/schema.py's TAGS), a function per operation id.
    token_create = part("api.tokens_and_sync.v1_token_create")
    scoring, results = "api.entering_results.v1_matches_", "api.tournaments_and_results.v1_matches_"
    match_create, deals_create = part(f"{scoring}create"), part(f"{scoring}deals_create")
    sheet_read, file_read = part(f"{results}sheet_retrieve"), part(f"{results}file_retrieve")
    standings_read = part("api.standings_and_rankings.v1_tournaments_standings_retrieve")
    ranking_read = part("api.standings_and_rankings.v1_tournaments_ranking_retrieve")

    # Log in: the account's token (no credentials yet, so a plain client).
    login = models.AuthTokenRequest(username="kafeneio", password="pw-kafeneio-12345")
    anonymous = clients.enter_context(generated.Client(base_url=live_server.url))
    token = token_create.sync(client=anonymous, body=login)
    assert isinstance(token, models.AuthToken) and token.token == organizer.token
    api = clients.enter_context(
        generated.AuthenticatedClient(base_url=live_server.url, token=token.token, prefix="Token")
    )

    # A Mpourloto match to 300, then FORMAT.md's two deals and a capot that wins it.
    teams = [
        models.MatchTeamRequest(name="Kafeneio A", players=["Nikos", "Eleni"]),
        models.MatchTeamRequest(name="Kafeneio B", players=["Giorgos", "Maria"]),
    ]
    body = models.MatchCreateRequest(
        teams=teams, ruleset=models.RulesetEnum.MPOURLOTO, options=models.RuleOptionsRequest(target=300)
    )
    match = match_create.sync(client=api, body=body)
    assert isinstance(match, models.MatchDetail) and match.totals == [0, 0] and match.options.target == 300
    written = [
        deals_create.sync(match.id, client=api, body=models.DealRequest.from_dict(deal))
        for deal in (THROWN_IN, MADE, CAPOT)
    ]
    assert all(isinstance(answer, models.DealWritten) for answer in written)
    made = written[1]
    assert made.deal.number == 2 and made.deal.melds[0] == [models.RecordedDealMeldsItemItem.SEQ3]
    assert made.row.result == models.ResultEnum.MADE and made.row.scores == [120, 62]
    assert made.sheet.totals == [120, 62] and made.sheet.winner is None and made.sheet.next_dealer == 2
    assert written[2].sheet.status == models.MatchStatusEnum.FINISHED and written[2].version == 3

    expected = engine.replay("mpourloto", [engine.Deal.from_dict(d) for d in (THROWN_IN, MADE, CAPOT)],
                             options={"target": 300})  # fmt: skip
    sheet = sheet_read.sync(match.id, client=api)
    assert isinstance(sheet, models.Sheet) and all(isinstance(row, models.SheetRow) for row in sheet.deals)
    assert [row.result for row in sheet.deals] == [
        models.ResultEnum.THROWN_IN,
        models.ResultEnum.MADE,
        models.ResultEnum.MADE,
    ]
    assert sheet.totals == list(expected.totals) and sheet.totals[0] >= 300
    assert sheet.winner == 0 and sheet.status == models.MatchStatusEnum.FINISHED
    assert isinstance(sheet.options, models.RuleOptions) and sheet.options.ties_hang is False

    match_file = file_read.sync(match.id, client=api)
    assert isinstance(match_file, models.MatchFile) and match_file.ruleset == models.RulesetEnum.MPOURLOTO
    assert [team.name for team in match_file.teams] == ["Kafeneio A", "Kafeneio B"]
    thrown, first, capot = match_file.deals
    assert thrown.thrown_in is True and isinstance(thrown.maker, generated.types.Unset)
    assert (first.maker, first.card_points, first.last_trick) == (0, [90, 62], 0)
    assert capot.capot == 0 and isinstance(capot.last_trick, generated.types.Unset)

    # A finished Swiss: the standings and the final ranking, as the server stored them.
    tournament = swiss_night(organizer, teams=4, rounds=2)
    stored = selectors.standings_get(tournament=tournament)
    standings = standings_read.sync(tournament.slug, client=api)
    assert isinstance(standings, models.Standings) and standings.version == stored["version"]
    assert all(isinstance(row, models.StandingsRow) for row in standings.rows)
    assert [(row.entry, row.rank, row.team) for row in standings.rows] == [
        (row["entry"], row["rank"], row["team"]) for row in stored["rows"]
    ]
    leader = standings.rows[0]
    assert leader.rank == 1 and isinstance(leader.values, models.TiebreakValues)
    assert leader.values.match_points == stored["rows"][0]["values"]["match_points"] > 0
    assert leader.values.game_points == stored["rows"][0]["values"]["game_points"]
    assert standings.tiebreaks == [models.TiebreaksEnum(key) for key in tournament.tiebreaks]
    ranking = ranking_read.sync(tournament.slug, client=api)
    assert isinstance(ranking, models.Ranking) and ranking.final is True
    assert all(isinstance(row, models.RankingRow) for row in ranking.rows)
    assert [(row.position, row.rank, row.entry, row.reached) for row in ranking.rows] == [
        (row["position"], row["rank"], row["entry"], row["reached"]) for row in stored["ranking"]
    ]
    assert ranking.rows[0].team == leader.team and ranking.rows[0].stage_rank == 1
