"""manage.py replay and demo_data."""

import datetime
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from league.models import Season
from league.seasons import season_table
from players.models import Club, Player
from scoring import selectors
from scoring.models import Match
from tournaments.models import Tournament

ROOT = Path(__file__).resolve().parents[2]
MATCH = {
    "ruleset": "mpourloto",
    "options": {"target": 1000},
    "teams": [{"name": "Kafeneio A", "players": ["Nikos", "Eleni"]},
              {"name": "Kafeneio B", "players": ["Giorgos", "Maria"]}],
    "first_dealer": 0,
    "deals": [
        {"thrown_in": True},
        {"maker": 0, "card_points": [90, 62], "last_trick": 0, "melds": [["seq3"], []]},
        {"maker": 1, "card_points": [0, 152], "capot": 1, "melds": [[], ["four", "seq4"]]},
    ],
}  # fmt: skip


def replay(path_or_dash, stdin=""):
    """Run the command as a user would, in a separate process."""
    return subprocess.run(
        [sys.executable, "manage.py", "replay", path_or_dash],
        cwd=ROOT, input=stdin, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip


def test_replay_prints_the_sheet_of_format_md(tmp_path):
    path = tmp_path / "match.json"
    path.write_text(json.dumps(MATCH))
    done = replay(str(path))
    assert done.returncode == 0, done.stderr
    sheet = json.loads(done.stdout)
    assert sheet["deals"][0] == {"scores": [0, 0], "result": "thrown_in", "totals": [0, 0], "dealer": 0,
                                 "points": [0, 0], "held": 0, "tie_break": False}  # fmt: skip
    assert sheet["deals"][1]["scores"] == [120, 62]  # 90 + 10 + 20, 62
    assert sheet["deals"][2]["scores"] == [0, 392]  # capo: 152 + 90 + 100 + 50
    assert sheet["deals"][2]["dealer"] == 2
    assert (sheet["totals"], sheet["held"], sheet["status"], sheet["winner"], sheet["next_dealer"]) == (
        [120, 454], 0, "in_progress", None, 3
    )  # fmt: skip


def test_replay_reads_standard_input():
    done = replay("-", stdin=json.dumps(MATCH))
    assert done.returncode == 0
    assert json.loads(done.stdout)["totals"] == [120, 454]


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda m: m["deals"][1].update(card_points=[90, 72]), "deal 2 (deals[1]), card_points"),
        (lambda m: m["deals"][2].update(melds=[[], ["seq9"]]), "deal 3 (deals[2]), melds[1][0]"),
        (lambda m: m["deals"][1].pop("last_trick"), "deal 2 (deals[1]), last_trick"),
        (lambda m: m.update(ruleset="whist"), "ruleset: unknown rule set"),
        (lambda m: m["options"].update(target="a lot"), "options.target: must be a whole number"),
    ],
    ids=["card-points", "meld", "last-trick", "ruleset", "option"],
)
def test_replay_names_the_deal_and_field_of_a_bad_file(tmp_path, change, words):
    bad = json.loads(json.dumps(MATCH))
    change(bad)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    done = replay(str(path))
    assert done.returncode == 1
    assert words in done.stderr
    assert done.stdout == ""


def test_replay_of_broken_json_and_missing_file(tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text('{"deals": [')
    done = replay(str(broken))
    assert done.returncode == 1 and "not valid JSON" in done.stderr
    with pytest.raises(CommandError, match="cannot read"):
        call_command("replay", str(tmp_path / "missing.json"), stdout=io.StringIO())


@pytest.mark.django_db(transaction=True)  # real commits: the tournament's standings are queued on commit
def test_demo_data_loads_matches_and_a_tournament_once():
    call_command("demo_data", stdout=io.StringIO())
    alone = Match.objects.filter(table__isnull=True)
    assert sorted(alone.values_list("status", flat=True)) == ["finished", "in_progress"]
    finished = alone.get(status="finished")
    rows = selectors.match_sheet(match=finished).sheet.rows
    assert {"thrown_in", "mesa", "made"} <= {str(row.result) for row in rows}
    assert any(row.deal.capot is not None for row in rows)
    assert max(selectors.match_sheet(match=finished).sheet.totals) >= 1000
    night = Tournament.objects.get(name="Friday club night")
    assert [(r.number, r.status) for r in night.rounds.order_by("number")] == [
        (1, "finished"),
        (2, "started"),
    ]
    assert len(night.standings.rows) == 8
    cup = Tournament.objects.get(status="finished")  # the club's finished round robin of four teams
    assert cup.club == night.club and len(cup.standings.ranking) == 4
    club = Club.objects.get(slug="demo-club")
    assert club.members.count() == Player.objects.count()
    table = season_table(Season.objects.get(club=club))
    assert [row.total for row in table.rows[:2]] == [25, 25]  # the cup's winners, on the default scale
    assert (
        Player.objects.filter(rating__isnull=False).count() == 8 * 2
    )  # the cup's eight played the night too
    call_command("demo_data", stdout=io.StringIO())
    assert Match.objects.count() == 2 + 8 + 6


@pytest.mark.django_db(transaction=True)
def test_in_the_first_week_of_january_the_demo_season_still_holds_last_weeks_cup(monkeypatch):
    """Last week's cup was played last year: the season starts on its year's first of January."""
    from django.utils import timezone

    monkeypatch.setattr(timezone, "localdate", lambda *args, **kwargs: datetime.date(2028, 1, 3))
    call_command("demo_data", stdout=io.StringIO())
    cup = Tournament.objects.get(status="finished")
    season = Season.objects.get(club=cup.club)
    assert cup.starts_on == datetime.date(2027, 12, 27)
    assert (season.starts_on, season.ends_on) == (datetime.date(2027, 1, 1), datetime.date(2028, 12, 31))
    assert [row.total for row in season_table(season).rows[:2]] == [25, 25]


def replay_bytes(path_or_dash, stdin=b""):
    """The command in a separate process, given bytes (a file or standard input need not be text)."""
    return subprocess.run(
        [sys.executable, "manage.py", "replay", path_or_dash],
        cwd=ROOT, input=stdin, capture_output=True, timeout=60, check=False,
    )  # fmt: skip


DEEP = b"[" * 100_000
LATIN_1 = '{"teams": [{"name": "Café"}]}'.encode("latin-1")
# fmt: off
BAD_INPUTS = [
    pytest.param(b'{"deals": [', "not valid JSON: Expecting value at line 1, column 12", id="malformed"),
    pytest.param(DEEP, "not valid JSON: nested too deeply", id="100000-brackets"),
    pytest.param(b'{"ruleset": "mpourloto", "deals": ' + DEEP + b"]" * 100_000 + b"}",
                 "not valid JSON: nested too deeply", id="deep-but-well-formed"),
    pytest.param(b"[1, 2]", "a match file is a JSON object", id="a-list"),
    pytest.param(b'"mpourloto"', "a match file is a JSON object", id="a-string"),
    pytest.param(b'{"ruleset": "mp\xffourloto"}', "not UTF-8 text: byte 0xff at position 15", id="not-utf8"),
    pytest.param(LATIN_1, "not UTF-8 text: byte 0xe9", id="latin-1"),
]
# fmt: on


def _one_clean_line(done, words):
    err = done.stderr.decode("utf-8")
    assert done.returncode == 1, err
    assert done.stdout == b""
    assert "Traceback" not in err
    assert err.count("\n") == 1 and err.startswith("CommandError: "), err
    assert words in err


@pytest.mark.parametrize(("data", "words"), BAD_INPUTS)
def test_replay_of_a_bad_file_is_one_clean_line_and_status_1(tmp_path, data, words):
    path = tmp_path / "bad.json"
    path.write_bytes(data)
    _one_clean_line(replay_bytes(str(path)), words)


@pytest.mark.parametrize(("data", "words"), BAD_INPUTS)
def test_replay_of_bad_standard_input_is_one_clean_line_and_status_1(data, words):
    _one_clean_line(replay_bytes("-", stdin=data), words)


def call_replay_on(tmp_path, data: bytes) -> str:
    path = tmp_path / "match.json"
    path.write_bytes(data)
    out = io.StringIO()
    call_command("replay", str(path), stdout=out)
    return out.getvalue()


@pytest.mark.parametrize(
    ("data", "words"),
    [
        pytest.param(b"", "not valid JSON: Expecting value at line 1, column 1", id="empty"),
        pytest.param(
            b'{"first_dealer": ' + b"1" * 5000 + b"}",
            "a number has too many digits",
            id="a-5000-digit-number",
        ),
        pytest.param(b'{"options": {"target": NaN}}', "not valid JSON: NaN is not a JSON number", id="nan"),
        pytest.param(
            b'{"options": {"target": -Infinity}}',
            "not valid JSON: -Infinity is not a JSON number",
            id="infinity",
        ),
        pytest.param(b"null", "a match file is a JSON object", id="null"),
        pytest.param(b"\xff\xfe{\x00}\x00", "not UTF-8 text: byte 0xff at position 0", id="utf-16"),
        pytest.param(b'{"tea\\nms": 1}', "tea\\nms: unknown field", id="a-new-line-in-a-field-name"),
        pytest.param(b'{"ruleset": "\\ud800"}', "unknown rule set '\\ud800'", id="a-lone-surrogate"),
    ],
)
def test_replay_refuses_other_bad_input_in_one_line(tmp_path, data, words):
    with pytest.raises(CommandError) as caught:
        call_replay_on(tmp_path, data)
    assert words in str(caught.value)
    assert "\n" not in str(caught.value)


def test_replay_reads_a_file_with_a_utf8_byte_order_mark(tmp_path):
    sheet = json.loads(call_replay_on(tmp_path, b"\xef\xbb\xbf" + json.dumps(MATCH).encode()))
    assert sheet["totals"] == [120, 454]


def test_replay_reads_utf8_names_from_standard_input():
    named = json.loads(json.dumps(MATCH))
    named["teams"][0]["name"] = "Καφενείο Α"
    done = replay_bytes("-", stdin=json.dumps(named, ensure_ascii=False).encode("utf-8"))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["totals"] == [120, 454]


def test_replay_of_a_directory_is_refused(tmp_path):
    with pytest.raises(CommandError, match="cannot read"):
        call_command("replay", str(tmp_path), stdout=io.StringIO())
