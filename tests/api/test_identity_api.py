"""Claims, merges and splits through the API (issue 14): ``POST /api/v1/players/{id}/claim/``,
``…/merge/``, ``…/split/`` and ``GET …/merges/``.

The organizer ran the Spring Cup (Lions: Alexis, Vaso; Owls: Petros, Rena; …), public and finished
here: they decide for the records it made (issue 24). Alexis was typed twice: "Alexis K.", entered
late in the cup, also played a casual match of his own.
"""

import pytest
from rest_framework.authtoken.models import Token

from players.models import Player, PlayerClaim, PlayerMerge
from scoring import services as scoring
from tests.factories import made
from tests.problems import fields, problem
from tournaments import services as tournaments

from .conftest import client_for

pytestmark = pytest.mark.django_db
PLAYERS = "/api/v1/players/"


def who(response):
    """The person a player's answer is (its ``updated_at`` aside)."""
    return {key: response.json()[key] for key in ("id", "name")}


@pytest.fixture
def twice(public_tournament, organizer):
    """Alexis (in the cup) and "Alexis K.", entered late in the cup and seated there (a replacement),
    and in a casual match; the cup then finished."""
    alexis = Player.objects.get(name="Alexis")
    tournaments.entry_register(
        tournament=public_tournament, name="Hawks", players=["Alexis K.", "Fotini"], late=True
    )
    other = Player.objects.get(name="Alexis K.")
    table = public_tournament.rounds.get(number=2).tables.order_by("number").first()
    type(table.match).objects.filter(pk=table.match_id).update(seat0=other)
    casual = scoring.match_create(
        teams=[("X", (other, "Yorgos")), ("Z", ("Zeta", "Wanda"))], options={"deals": 1}
    )
    scoring.deal_record(match=casual, deal=made(0))
    tournaments.tournament_finish(
        tournament=public_tournament, reason="Rain", in_play="left_out", user=organizer
    )
    return alexis, other, casual


def test_an_account_claims_a_player(api, public_tournament, scorekeeper):
    vaso = Player.objects.get(name="Vaso")
    response = api("scorekeeper").post(f"{PLAYERS}{vaso.pk}/claim/", {"message": "Lions"}, format="json")
    assert response.status_code == 201, response.content
    claim = PlayerClaim.objects.get()
    assert response.json() == {
        "id": claim.pk,
        "player": vaso.pk,
        "status": "pending",
        "message": "Lions",
        "created_at": response.json()["created_at"],
    }
    assert claim.user == scorekeeper
    again = api("scorekeeper").post(f"{PLAYERS}{vaso.pk}/claim/", {}, format="json")
    assert "already waiting" in problem(again, 400)["detail"]
    assert PlayerClaim.objects.count() == 1


@pytest.mark.parametrize(("role", "status"), [("anonymous", 401), ("player", 400), ("club_reader", 403)])
def test_a_claim_is_refused(api, public_tournament, role, status):
    """Nobody without an account; the player account is a player already; a club's account is none."""
    vaso = Player.objects.get(name="Vaso")
    response = api(role).post(f"{PLAYERS}{vaso.pk}/claim/", {"message": "me"}, format="json")
    assert response.status_code == status, response.content
    assert PlayerClaim.objects.count() == 0


def test_an_organizer_merges_and_splits(api, twice):
    alexis, other, casual = twice
    client = api("organizer")
    response = client.post(
        f"{PLAYERS}{alexis.pk}/merge/", {"absorbed": other.pk, "reason": "Twice"}, format="json"
    )
    assert response.status_code == 201, response.content
    merge = PlayerMerge.objects.get()
    body = response.json()
    assert body == {
        "id": merge.pk,
        "survivor": alexis.pk,
        "absorbed": other.pk,
        "absorbed_name": "Alexis K.",
        "records": [other.pk],
        "reason": "Twice",
        "at": body["at"],
        "undone_at": None,
    }
    anon = client_for()
    assert who(anon.get(f"{PLAYERS}{other.pk}/")) == {"id": alexis.pk, "name": "Alexis"}  # as its person
    assert other.pk not in [p["id"] for p in anon.get(PLAYERS, {"limit": 100}).json()["results"]]
    history = [m["id"] for m in anon.get(f"{PLAYERS}{alexis.pk}/history/").json()["results"]]
    assert casual.pk in history and len(history) == 3  # the cup's two rounds and the casual match
    matches = [m["id"] for m in anon.get("/api/v1/matches/", {"player": alexis.pk}).json()["results"]]
    assert sorted(matches) == sorted(history)
    assert [m["id"] for m in anon.get(f"{PLAYERS}{alexis.pk}/merges/").json()] == [merge.pk]

    response = client.post(f"{PLAYERS}{alexis.pk}/split/", {"merge": merge.pk}, format="json")
    assert response.status_code == 200 and response.json()["undone_at"] is not None
    assert who(anon.get(f"{PLAYERS}{other.pk}/")) == {"id": other.pk, "name": "Alexis K."}
    assert casual.pk not in [m["id"] for m in anon.get(f"{PLAYERS}{alexis.pk}/history/").json()["results"]]
    assert anon.get(f"{PLAYERS}{alexis.pk}/merges/").json() == []
    again = client.post(f"{PLAYERS}{alexis.pk}/split/", {"merge": merge.pk}, format="json")
    assert "already been split" in problem(again, 400)["detail"]


@pytest.mark.parametrize("role", ["scorekeeper", "player", "club_writer"])
def test_only_a_decider_for_both_records_merges(api, twice, role):
    alexis, other, _ = twice
    response = api(role).post(f"{PLAYERS}{alexis.pk}/merge/", {"absorbed": other.pk}, format="json")
    assert response.status_code == 403
    assert PlayerMerge.objects.count() == 0


def test_an_organizer_does_not_merge_a_player_of_no_event_of_theirs(api, twice, standalone):
    alexis, _, _ = twice
    nikos = Player.objects.get(name="Nikos")
    response = api("organizer").post(f"{PLAYERS}{alexis.pk}/merge/", {"absorbed": nikos.pk}, format="json")
    assert response.status_code == 403 and PlayerMerge.objects.count() == 0


@pytest.mark.parametrize(
    ("body", "field", "words"),
    [
        ({"absorbed": 999999}, "absorbed", "There is no player 999999."),
        ({"absorbed": "self"}, "absorbed", "cannot be merged into itself"),
        ({"absorbed": 0}, "absorbed", None),
        ({"reason": "no absorbed"}, "absorbed", None),
    ],
)
def test_a_bad_merge_is_a_400_and_nothing_changes(api, twice, body, field, words):
    alexis, _, _ = twice
    if body.get("absorbed") == "self":
        body = {"absorbed": alexis.pk}
    response = api("organizer").post(f"{PLAYERS}{alexis.pk}/merge/", body, format="json")
    answer = problem(response, 400)
    if words:
        assert words in answer["detail"] and fields(answer) == {field}
    else:
        assert field in fields(answer)
    assert PlayerMerge.objects.count() == 0


def test_a_split_names_a_merge_of_this_player(api, twice):
    alexis, other, _ = twice
    vaso = Player.objects.get(name="Vaso")
    client = api("organizer")
    merge = client.post(f"{PLAYERS}{alexis.pk}/merge/", {"absorbed": other.pk}, format="json").json()
    response = client.post(f"{PLAYERS}{vaso.pk}/split/", {"merge": merge["id"]}, format="json")
    assert fields(problem(response, 400)) == {"merge"}
    assert (
        api("scorekeeper")
        .post(f"{PLAYERS}{alexis.pk}/split/", {"merge": merge["id"]}, format="json")
        .status_code
        == 403
    )
    assert PlayerMerge.objects.get().undone_at is None


def test_the_tournaments_of_a_person_include_those_of_their_merged_records(
    public_tournament, django_user_model
):
    alexis, other = Player.objects.get(name="Alexis"), Player.objects.create(name="Alexis C.")
    anon = client_for()
    assert anon.get("/api/v1/tournaments/", {"player": other.pk}).json()["results"] == []
    staff = django_user_model.objects.create_user("staff", password="pw-staff-12345", is_staff=True)
    staff.token = Token.objects.create(user=staff).key  # the site's staff decide for any record
    response = client_for(staff).post(f"{PLAYERS}{other.pk}/merge/", {"absorbed": alexis.pk}, format="json")
    assert response.status_code == 201, response.content
    found = anon.get("/api/v1/tournaments/", {"player": other.pk}).json()["results"]
    assert [t["slug"] for t in found] == [public_tournament.slug]
