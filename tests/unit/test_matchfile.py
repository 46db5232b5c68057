"""The match file of FORMAT.md: reading it, refusing bad ones clearly, writing it back."""

from __future__ import annotations

import copy
import json

import pytest

from scoring.engine import Deal, MatchFile, ScoringError, Status, TeamEntry, load_match, loads


def format_example() -> dict:
    """FORMAT.md's input, its third deal made Mpourloto-valid (no contract, no belote)."""
    return {
        "ruleset": "mpourloto",
        "options": {"target": 1000, "ties_hang": False},
        "teams": [
            {"name": "Kafeneio A", "players": ["Nikos", "Eleni"]},
            {"name": "Kafeneio B", "players": ["Giorgos", "Maria"]},
        ],
        "first_dealer": 0,
        "deals": [
            {"thrown_in": True},
            {"maker": 0, "card_points": [90, 62], "last_trick": 0, "melds": [["seq3"], []]},
            {"maker": 1, "card_points": [0, 152], "capot": 1, "melds": [[], ["fourJ", "seq4"]],
             "declarations_winner": None},
        ],
    }  # fmt: skip


def test_format_example_is_read():
    match = load_match(format_example())
    assert match.ruleset == "mpourloto"
    assert match.options == {"target": 1000, "ties_hang": False}
    assert match.teams == (
        TeamEntry("Kafeneio A", ("Nikos", "Eleni")),
        TeamEntry("Kafeneio B", ("Giorgos", "Maria")),
    )
    assert match.first_dealer == 0
    assert match.deals == (
        Deal(thrown_in=True),
        Deal(maker=0, card_points=(90, 62), last_trick=0, melds=(("seq3",), ())),
        Deal(maker=1, card_points=(0, 152), capot=1, melds=((), ("fourJ", "seq4"))),
    )


def test_format_example_sheet():
    out = load_match(format_example()).sheet().to_dict()
    # deal 2: 90+10+20 = 120 against 62, made; deal 3: team 1 capo 152+90+100+50 = 392 against 0, made
    assert [(row["result"], row["scores"], row["totals"], row["dealer"]) for row in out["deals"]] == [
        ("thrown_in", [0, 0], [0, 0], 0),
        ("made", [120, 62], [120, 62], 1),
        ("made", [0, 392], [120, 454], 2),
    ]
    assert out["totals"] == [120, 454]
    assert out["held"] == 0
    assert out["status"] == "in_progress"
    assert out["winner"] is None
    assert out["next_dealer"] == 3


def test_loads_reads_json_text():
    match = loads(json.dumps(format_example()))
    assert match == load_match(format_example())


def test_format_example_as_printed_is_refused_for_mpourloto():
    """FORMAT.md's third deal is a Pilotta deal (bid, contra, belote): Mpourloto has none of these."""
    data = format_example()
    data["deals"][2] = {
        "maker": 1, "contract": {"suit": "spades", "bid": 110, "multiplier": 2},
        "card_points": [0, 152], "capot": 1, "melds": [[], ["fourJ", "seq4"]],
        "belote": [0, 1], "declarations_winner": None,
    }  # fmt: skip
    with pytest.raises(ScoringError) as caught:
        load_match(data)
    assert str(caught.value).startswith("deal 3 (deals[2]), contract: ")
    assert "no auction" in caught.value.message


def test_a_match_file_needs_little():
    match = load_match({"deals": [{"maker": 0, "card_points": [90, 62], "last_trick": 0}]})
    assert (match.ruleset, match.options, match.teams, match.first_dealer) == ("mpourloto", {}, None, 0)
    assert match.sheet().totals == (100, 62)
    assert load_match({}).sheet().rows == ()


def test_team_names_are_trimmed():
    data = format_example()
    data["teams"][0] = {"name": "  Kafeneio A ", "players": [" Nikos", "Eleni  "]}
    assert load_match(data).teams[0] == TeamEntry("Kafeneio A", ("Nikos", "Eleni"))


def test_options_are_kept_and_shown_on_the_sheet():
    data = format_example()
    data["options"] = {"target": 751, "ties_hang": True, "best_melds_only": True}
    match = load_match(data)
    sheet = match.sheet()
    assert sheet.target == 751
    assert sheet.to_dict()["options"] == {
        "target": 751, "deals": 0, "ties_hang": True, "best_melds_only": True, "capo_100": False,
        "partner_relief": False,
    }  # fmt: skip


# ---------------------------------------------------------------------------
# A bad deal: the message names the deal by its position and the field
# ---------------------------------------------------------------------------

GOOD = {"maker": 0, "card_points": [90, 62], "last_trick": 0}

# fmt: off
BAD_DEALS = [
    pytest.param({**GOOD, "card_points": [90, 60]}, "card_points", "add up to 152", id="card-points-sum"),
    pytest.param({**GOOD, "card_points": [-2, 154]}, "card_points[0]", "between 0 and 152",
                 id="negative-card-points"),
    pytest.param({**GOOD, "card_points": [90]}, "card_points", "two numbers", id="one-card-points-number"),
    pytest.param({**GOOD, "card_points": "90-62"}, "card_points", "two numbers", id="card-points-as-text"),
    pytest.param({**GOOD, "card_points": [90, "62"]}, "card_points[1]", "whole number",
                 id="card-points-quoted"),
    pytest.param({**GOOD, "card_points": [90.5, 61.5]}, "card_points[0]", "whole number",
                 id="fractional-card-points"),
    pytest.param({"card_points": [90, 62], "last_trick": 0}, "maker", "missing", id="no-maker"),
    pytest.param({"maker": 0, "last_trick": 0}, "card_points", "missing", id="no-card-points"),
    pytest.param({**GOOD, "maker": 2}, "maker", "0 or 1", id="maker-not-a-team"),
    pytest.param({**GOOD, "maker": True}, "maker", "0 or 1", id="maker-true"),
    pytest.param({**GOOD, "maker": None}, "maker", "0 or 1", id="maker-null"),
    pytest.param({"maker": 0, "card_points": [90, 62]}, "last_trick", "missing", id="no-last-trick"),
    pytest.param({**GOOD, "last_trick": "us"}, "last_trick", "0 or 1", id="last-trick-not-a-team"),
    pytest.param({"maker": 0, "card_points": [150, 2], "capot": 0}, "card_points", "every trick",
                 id="capo-without-all-152"),
    pytest.param({"maker": 0, "card_points": [152, 0], "capot": 0, "last_trick": 1}, "last_trick",
                 "every trick", id="capo-and-last-trick-disagree"),
    pytest.param({**GOOD, "melds": [["seq3"], ["pair"]]}, "melds[1][0]", "unknown meld 'pair'",
                 id="unknown-meld"),
    pytest.param({**GOOD, "melds": ["seq3"]}, "melds", "two lists", id="melds-not-per-team"),
    pytest.param({**GOOD, "melds": [[], "seq3"]}, "melds[1]", "list of meld names",
                 id="team-melds-not-a-list"),
    pytest.param({**GOOD, "melds": [["seq3"] * 5, []]}, "melds[0]", "at most 4", id="five-melds"),
    pytest.param({**GOOD, "melds": [["mpourloto"], ["mpourloto"]]}, "melds", "only one mpourloto",
                 id="two-mpourloto"),
    pytest.param({**GOOD, "melds": [["fourJ"], ["fourJ"]]}, "melds", "Jacks", id="four-jacks-twice"),
    pytest.param({**GOOD, "score": 100}, "score", "unknown field", id="unknown-deal-field"),
    pytest.param({"thrown_in": "yes"}, "thrown_in", "true or false", id="thrown-in-not-boolean"),
    pytest.param({"thrown_in": True, "card_points": [90, 62]}, "card_points", "no other fields",
                 id="thrown-in-with-card-points"),
    pytest.param({"thrown_in": True, "maker": 1}, "maker", "no other fields", id="thrown-in-with-maker-1"),
    pytest.param({**GOOD, "contract": {"suit": "notrump"}}, "contract", "no auction", id="notrump"),
    pytest.param({**GOOD, "contract": {"suit": "trumps"}}, "contract.suit", "spades", id="unknown-suit"),
    pytest.param({**GOOD, "contract": "hearts"}, "contract", "object", id="contract-not-an-object"),
    pytest.param({**GOOD, "belote": [1, 0]}, "belote", "mpourloto", id="belote"),
    pytest.param({**GOOD, "solo_capot": True}, "solo_capot", "solo capo", id="solo-capot"),
    pytest.param({**GOOD, "declarations_winner": 2}, "declarations_winner", "0 or 1",
                 id="declarations-winner-not-a-team"),
]
# fmt: on


@pytest.mark.parametrize(("bad", "field", "words"), BAD_DEALS)
def test_bad_deal_names_its_position_and_field(bad, field, words):
    data = format_example()
    data["deals"][1] = bad
    with pytest.raises(ScoringError) as caught:
        load_match(data)
    assert caught.value.deal == 1
    assert caught.value.field == field
    assert words in caught.value.message
    assert str(caught.value).startswith(f"deal 2 (deals[1]), {field}: ")


def test_the_position_counts_thrown_in_deals():
    data = format_example()
    data["deals"] = [{"thrown_in": True}] * 4 + [{**GOOD, "card_points": [100, 62]}]
    with pytest.raises(ScoringError) as caught:
        loads(json.dumps(data))
    assert "deal 5 (deals[4])" in str(caught.value)
    assert "card_points" in str(caught.value)


def test_deal_that_is_not_an_object():
    data = format_example()
    data["deals"][0] = ["thrown_in"]
    with pytest.raises(ScoringError) as caught:
        load_match(data)
    assert str(caught.value) == "deal 1 (deals[0]): a deal must be a JSON object"


def test_deal_after_the_match_is_won_is_refused():
    big = {"maker": 0, "card_points": [152, 0], "capot": 0, "melds": [["seq5", "four", "fourJ", "four9"], []]}
    data = {"deals": [big, big, GOOD]}  # 642, then 1284: won after deal 2
    with pytest.raises(ScoringError) as caught:
        load_match(data)
    assert "deal 3 (deals[2])" in str(caught.value)
    assert "already won" in str(caught.value)
    assert load_match({"deals": [big, big]}).sheet().status == Status.FINISHED


# Whole-number floats (1.0) pass the team check, since 1.0 == 1, and then crash
# the scoring with TypeError; card points refuse them ("must be a whole number").
# Teams are whole numbers (1.0 is not a team) and a thrown-in deal carries
# nothing else, not even a falsy 0.
FORMAT_BUGS = [
    pytest.param({**GOOD, "maker": 1.0}, "maker", id="maker-1.0"),
    pytest.param({**GOOD, "last_trick": 0.0}, "last_trick", id="last-trick-0.0"),
    pytest.param({"maker": 0, "card_points": [152, 0], "capot": 0.0}, "capot", id="capot-0.0"),
    pytest.param({"thrown_in": True, "maker": 0}, "maker", id="thrown-in-with-maker-0"),
    pytest.param({"thrown_in": True, "last_trick": 0}, "last_trick", id="thrown-in-with-last-trick-0"),
]


@pytest.mark.parametrize(("bad", "field"), FORMAT_BUGS)
def test_teams_must_be_whole_numbers_and_thrown_in_deals_carry_nothing(bad, field):
    data = format_example()
    data["deals"][1] = bad
    with pytest.raises(ScoringError) as caught:
        load_match(data)
    assert caught.value.field == field
    assert caught.value.deal == 1


def test_first_dealer_must_be_a_whole_number():
    data = format_example()
    data["first_dealer"] = 1.0
    with pytest.raises(ScoringError) as caught:
        load_match(data)
    assert caught.value.field == "first_dealer"


# ---------------------------------------------------------------------------
# A bad match file: top-level fields, teams, options, JSON
# ---------------------------------------------------------------------------


def changed(**fields) -> dict:
    data = format_example()
    data.update(fields)
    return data


def team(name="Kafeneio A", players=("Nikos", "Eleni")) -> dict:
    return {"name": name, "players": list(players) if isinstance(players, tuple) else players}


# fmt: off
BAD_FILES = [
    pytest.param(changed(score_sheet=[]), "score_sheet", "unknown field", id="unknown-top-level-field"),
    pytest.param(changed(ruleset="pilotta-online"), "ruleset", "unknown rule set", id="unknown-rule-set"),
    pytest.param(changed(ruleset=1), "ruleset", "rule set's name", id="rule-set-not-a-name"),
    pytest.param(changed(options=["ties_hang"]), "options", "object", id="options-not-an-object"),
    pytest.param(changed(options={"kremamena": True}), "options.kremamena", "no option", id="unknown-option"),
    pytest.param(changed(options={"target": "1000"}), "options.target", "whole number", id="target-as-text"),
    pytest.param(changed(options={"target": 0}), "options.target", "between 1 and", id="target-zero"),
    pytest.param(changed(options={"ties_hang": 1}), "options.ties_hang", "true or false",
                 id="ties-hang-not-boolean"),
    pytest.param(changed(first_dealer=4), "first_dealer", "0, 1, 2 or 3", id="first-dealer-4"),
    pytest.param(changed(first_dealer="0"), "first_dealer", "seat", id="first-dealer-text"),
    pytest.param(changed(deals={"1": GOOD}), "deals", "list of deals", id="deals-not-a-list"),
    pytest.param(changed(deals="[]"), "deals", "list of deals", id="deals-as-text"),
    pytest.param(changed(teams=[team()]), "teams", "two teams", id="one-team"),
    pytest.param(changed(teams=[team(), team(), team()]), "teams", "two teams", id="three-teams"),
    pytest.param(changed(teams="Kafeneio A v Kafeneio B"), "teams", "two teams", id="teams-as-text"),
    pytest.param(changed(teams=[team(), "Kafeneio B"]), "teams[1]", "name and players",
                 id="team-not-an-object"),
    pytest.param(changed(teams=[team(name=""), team()]), "teams[0].name", "non-empty", id="empty-team-name"),
    pytest.param(changed(teams=[team(name="   "), team()]), "teams[0].name", "non-empty",
                 id="blank-team-name"),
    pytest.param(changed(teams=[{"players": ["A", "B"]}, team()]), "teams[0].name", "name",
                 id="no-team-name"),
    pytest.param(changed(teams=[team(), team(players=("Maria",))]), "teams[1].players", "two players",
                 id="one-player"),
    pytest.param(changed(teams=[team(), team(players=("A", "B", "C"))]), "teams[1].players", "two players",
                 id="three-players"),
    pytest.param(changed(teams=[team(), team(players="AB")]), "teams[1].players", "two players",
                 id="players-as-text"),
    pytest.param(changed(teams=[team(), team(players=("Maria", ""))]), "teams[1].players", "two players",
                 id="empty-player-name"),
    pytest.param(changed(teams=[team(), team(players=("Maria", 7))]), "teams[1].players", "two players",
                 id="player-name-not-text"),
    pytest.param(changed(teams=[team(), {"name": "Kafeneio B"}]), "teams[1].players", "two players",
                 id="no-players"),
]
# fmt: on


@pytest.mark.parametrize(("data", "field", "words"), BAD_FILES)
def test_bad_match_file_names_the_field(data, field, words):
    with pytest.raises(ScoringError) as caught:
        load_match(data)
    assert caught.value.field == field
    assert caught.value.deal is None
    assert words in caught.value.message
    assert str(caught.value) == f"{field}: {caught.value.message}"


@pytest.mark.parametrize("data", [[], "mpourloto", 42, None], ids=repr)
def test_a_match_file_is_an_object(data):
    with pytest.raises(ScoringError) as caught:
        load_match(data)
    assert "JSON object" in str(caught.value)
    assert caught.value.field is None


# fmt: off
BAD_JSON = [
    pytest.param("{", "Expecting property name enclosed in double quotes at line 1, column 2",
                 id="unfinished"),
    # Python's own words for a trailing comma changed in 3.13; only the place is checked here.
    pytest.param('{"deals": [\n  {"thrown_in": true},\n]}', " at line ", id="trailing-comma"),
    pytest.param("{'ruleset': 'mpourloto'}",
                 "Expecting property name enclosed in double quotes at line 1, column 2",
                 id="single-quotes"),
    pytest.param("", "Expecting value at line 1, column 1", id="empty"),
]
# fmt: on


@pytest.mark.parametrize(("text", "message"), BAD_JSON)
def test_invalid_json_gets_a_plain_message(text, message):
    with pytest.raises(ScoringError) as caught:
        loads(text)
    assert str(caught.value).startswith("not valid JSON: ")
    assert str(caught.value).endswith(message) or message == " at line "
    assert " at line " in str(caught.value)
    assert caught.value.field is None
    assert caught.value.deal is None


def test_json_that_is_not_an_object():
    with pytest.raises(ScoringError) as caught:
        loads("[1, 2]")
    assert "JSON object" in str(caught.value)


# ---------------------------------------------------------------------------
# Round trip: what the app exports, it imports back to the same sheet
# ---------------------------------------------------------------------------

# fmt: off
ROUND_TRIP_FILES = [
    pytest.param(format_example(), id="format-example"),
    pytest.param(
        {
            "ruleset": "mpourloto",
            "options": {"ties_hang": True, "best_melds_only": True, "capo_100": True, "target": 751},
            "first_dealer": 3,
            "deals": [
                {"maker": 0, "card_points": [71, 81], "last_trick": 0},  # 81 : 81 hangs
                {"thrown_in": True},
                {"maker": 1, "contract": {"suit": "hearts"}, "card_points": [0, 152], "capot": 1,
                 "melds": [["seq4"], ["seq4", "mpourloto"]], "declarations_winner": 1},
                {"maker": 0, "card_points": [90, 62], "last_trick": 0,
                 "melds": [["four8", "four7"], ["seq5", "mpourloto"]], "declarations_winner": 0},
            ],
        },
        id="every-option-and-shape",
    ),
    pytest.param({"deals": []}, id="no-deals"),
]
# fmt: on


@pytest.mark.parametrize("data", ROUND_TRIP_FILES)
def test_round_trip_gives_the_same_sheet(data):
    match = load_match(copy.deepcopy(data))
    exported = match.to_dict()
    again = load_match(exported)
    assert again == match
    assert again.sheet() == match.sheet()
    through_json = loads(json.dumps(exported))
    assert through_json.sheet().to_dict() == match.sheet().to_dict()
    assert through_json.to_dict() == exported


def test_export_is_plain_json():
    exported = load_match(format_example()).to_dict()
    assert json.loads(json.dumps(exported)) == exported
    assert exported["deals"][0] == {"thrown_in": True}
    assert exported["deals"][2] == {"maker": 1, "card_points": [0, 152], "capot": 1,
                                    "melds": [[], ["fourJ", "seq4"]]}  # fmt: skip


def test_match_file_is_a_value():
    assert isinstance(load_match(format_example()), MatchFile)
    with pytest.raises(AttributeError):
        load_match(format_example()).deals = ()  # type: ignore[misc]


# ---------------------------------------------------------------------------
# Coinche's générale (FORMAT.md): the seat of either team's player, a seat of the capot team
# ---------------------------------------------------------------------------


def coinche_file(*deals: dict) -> dict:
    return {"ruleset": "coinche", "first_dealer": 0, "deals": list(deals)}


def test_a_coinche_file_records_a_generale_of_either_team():
    """Deal 1: team 0 bids 100 ♥ and seat 3, a defender, takes every trick alone: recorded, and scored
    as the defence's capot, 160 + 100 = 260 (only a générale bid by the takers scores a générale).
    Deal 2: team 1 bids a générale in spades and seat 1 takes every trick alone: 252 + 500 = 752 → 750."""
    defence = {"maker": 0, "contract": {"suit": "hearts", "bid": 100, "multiplier": 1},
               "card_points": [0, 152], "capot": 1, "generale": 3, "melds": [[], []]}  # fmt: skip
    takers = {"maker": 1, "contract": {"suit": "spades", "bid": "generale", "multiplier": 1},
              "card_points": [0, 152], "capot": 1, "generale": 1, "melds": [[], []]}  # fmt: skip
    match = load_match(coinche_file(defence, takers))
    assert [deal.generale for deal in match.deals] == [3, 1]
    out = match.sheet().to_dict()
    rows = [(row["result"], row["scores"]) for row in out["deals"]]
    assert rows == [("failed", [0, 260]), ("made", [0, 750])]
    assert out["totals"] == [0, 1010]
    assert [deal["generale"] for deal in match.to_dict()["deals"]] == [3, 1]  # written back as read


@pytest.mark.parametrize(
    ("deal", "field", "words"),
    [
        ({"card_points": [152, 0], "capot": 0, "generale": 1}, "generale", "the capot team (team 0)"),
        ({"card_points": [0, 152], "capot": 1, "generale": 0}, "generale", "the capot team (team 1)"),
        ({"card_points": [92, 60], "last_trick": 0, "generale": 3}, "capot", "a générale is a capot: team 1"),
    ],
    ids=["defender-in-a-takers-capot", "taker-in-a-defence-capot", "no-capot"],
)
def test_a_coinche_generale_outside_the_capot_team_is_refused(deal, field, words):
    good = {"maker": 0, "contract": {"suit": "hearts", "bid": 100}, "melds": [[], []]}
    with pytest.raises(ScoringError) as caught:
        load_match(coinche_file({"thrown_in": True}, {**good, **deal}))
    assert (caught.value.deal, caught.value.field) == (1, field)
    assert words in caught.value.message
