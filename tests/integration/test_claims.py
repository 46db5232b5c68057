"""An account claims its player record; the club or an organizer decides (issue 14).

The club here: the Kafeneio club (admin Anna) made Nikos's record as its member; Olga organized the
Spring Cup (public, finished), whose entry made Giorgos's record; Petros, a record made before, played
a match of it as a replacement (seated there, never entered). Eleni belongs to nobody's club or event:
only the site's staff decide for her (issue 24: who decides, tests/integration/test_record_rights.py).
"""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from league import permissions
from players import identity_services as identity
from players.errors import PlayerError
from players.models import Club, Player, PlayerClaim
from scoring import services as scoring
from scoring.models import Match
from tournaments import services as tournaments

pytestmark = pytest.mark.django_db


def account(django_user_model, name, **extra):
    return django_user_model.objects.create_user(name, password=f"pw-{name}-12345", **extra)


@pytest.fixture
def people(django_user_model):
    anna, olga = account(django_user_model, "anna"), account(django_user_model, "olga")
    club = Club.objects.create(name="Kafeneio club")
    club.admins.add(anna)
    nikos, eleni, petros = (Player.objects.create(name=n) for n in ("Nikos", "Eleni", "Petros"))
    club.memberships.create(player=nikos)
    cup = tournaments.tournament_create(organizer=olga, name="Spring Cup", deals_per_match=1)
    tournaments.entry_register(tournament=cup, name="G", players=["Giorgos", "Gogo"], user=olga)
    giorgos = Player.objects.get(name="Giorgos")
    tournaments.entry_register(tournament=cup, name="H", players=["Hara", "Ilias"])
    cup = tournaments.tournament_start(tournament=cup, user=olga)
    rnd = tournaments.round_start(rnd=tournaments.round_generate(tournament=cup, user=olga), user=olga)
    Match.objects.filter(pk=rnd.tables.get().match_id).update(seat1=petros)  # a replacement at the table
    tournaments.tournament_finish(tournament=cup, reason="Rain", in_play="left_out", user=olga)
    return {
        "anna": anna,
        "olga": olga,
        "club": club,
        "nikos": nikos,
        "eleni": eleni,
        "giorgos": giorgos,
        "petros": petros,
        "claimant": account(django_user_model, "claimant"),
        "stranger": account(django_user_model, "stranger"),
        "root": account(django_user_model, "root", is_superuser=True),
    }


# The services --------------------------------------------------------------------------------


def test_a_claim_waits_then_the_approval_makes_the_account_the_player(people):
    claim = identity.claim_request(
        player=people["nikos"], user=people["claimant"], message="  I play  Thursdays "
    )
    assert (claim.status, claim.message) == (PlayerClaim.Status.PENDING, "I play Thursdays")
    people["nikos"].refresh_from_db()
    assert people["nikos"].user is None  # nothing changes before the decision
    identity.claim_approve(claim=claim, by=people["anna"])
    claim.refresh_from_db()
    people["nikos"].refresh_from_db()
    assert people["nikos"].user == people["claimant"]
    assert (claim.status, claim.decided_by) == (PlayerClaim.Status.APPROVED, people["anna"])
    assert claim.decided_at is not None


def test_an_approval_refuses_the_other_claims_on_the_same_player(people, django_user_model):
    first = identity.claim_request(player=people["nikos"], user=people["claimant"])
    other = identity.claim_request(player=people["nikos"], user=people["stranger"])
    identity.claim_approve(claim=first, by=people["anna"])
    other.refresh_from_db()
    assert (other.status, other.decided_by) == (PlayerClaim.Status.REFUSED, people["anna"])


def test_a_refused_claim_changes_nothing_and_may_be_asked_again(people):
    claim = identity.claim_request(player=people["nikos"], user=people["claimant"])
    identity.claim_refuse(claim=claim, by=people["anna"])
    claim.refresh_from_db()
    people["nikos"].refresh_from_db()
    assert claim.status == PlayerClaim.Status.REFUSED and people["nikos"].user is None
    with pytest.raises(PlayerError, match="already been decided"):
        identity.claim_approve(claim=claim, by=people["anna"])
    assert identity.claim_request(player=people["nikos"], user=people["claimant"]).status == "pending"


def test_the_claimant_withdraws_their_own_claim_only(people):
    claim = identity.claim_request(player=people["nikos"], user=people["claimant"])
    with pytest.raises(PlayerError, match="Only the claimant"):
        identity.claim_withdraw(claim=claim, user=people["stranger"])
    identity.claim_withdraw(claim=claim, user=people["claimant"])
    claim.refresh_from_db()
    assert claim.status == PlayerClaim.Status.WITHDRAWN
    with pytest.raises(PlayerError, match="already been decided"):
        identity.claim_withdraw(claim=claim, user=people["claimant"])


@pytest.mark.parametrize(
    ("situation", "refusal"),
    [
        ("claimed by another", "already claimed by an account"),
        ("already mine", "already you"),
        ("account is a player", "Your account is already a player"),
        ("waiting elsewhere", "Your claim on Eleni is waiting: withdraw it first"),
        ("waiting here", "already waiting"),
        ("merged record", "Nikos was merged into Eleni: use Eleni instead"),
        ("long message", "At most 300 characters"),
    ],
)
def test_a_claim_is_refused_and_nothing_is_saved(people, situation, refusal):
    nikos, me = people["nikos"], people["claimant"]
    message = ""
    if situation == "claimed by another":
        Player.objects.filter(pk=nikos.pk).update(user=people["stranger"])
    elif situation == "already mine":
        Player.objects.filter(pk=nikos.pk).update(user=me)
    elif situation == "account is a player":
        Player.objects.filter(pk=people["eleni"].pk).update(user=me)
    elif situation == "waiting elsewhere":
        identity.claim_request(player=people["eleni"], user=me)
    elif situation == "waiting here":
        identity.claim_request(player=nikos, user=me)
    elif situation == "merged record":
        identity.player_merge(survivor=people["eleni"], absorbed=nikos, by=people["root"])
    elif situation == "long message":
        message = "x" * 301
    claims = PlayerClaim.objects.count()
    nikos.refresh_from_db()
    with pytest.raises(PlayerError, match=refusal):
        identity.claim_request(player=nikos, user=me, message=message)
    assert PlayerClaim.objects.count() == claims


def test_an_approval_is_refused_once_the_record_was_merged_meanwhile(people):
    claim = identity.claim_request(player=people["nikos"], user=people["claimant"])
    identity.player_merge(survivor=people["eleni"], absorbed=people["nikos"], by=people["root"])
    with pytest.raises(PlayerError, match="merged into Eleni"):
        identity.claim_approve(claim=claim, by=people["root"])
    assert not Player.objects.filter(user=people["claimant"]).exists()


# Who decides -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("who", "player", "decides"),
    [
        ("root", "eleni", True),  # a superuser decides for anyone
        ("anna", "nikos", True),  # the admin of the club that made the record
        ("anna", "giorgos", False),  # … not for others
        ("olga", "giorgos", True),  # the organizer of the finished public event that made the record
        ("olga", "petros", False),  # … not for a record made before it (a replacement at its table)
        ("olga", "nikos", False),
        ("stranger", "nikos", False),
        ("anonymous", "nikos", False),
    ],
)
def test_who_may_decide_a_claim(people, who, player, decides):
    from django.contrib.auth.models import AnonymousUser

    user = AnonymousUser() if who == "anonymous" else people[who]
    assert permissions.may_decide_claim(user, people[player]) is decides


def test_a_former_member_is_no_longer_the_clubs_to_decide(people):
    people["club"].memberships.filter(player=people["nikos"]).update(left_on=datetime.date(2020, 1, 1))
    assert not permissions.may_decide_claim(people["anna"], people["nikos"])


def test_the_club_decides_for_every_record_of_its_member(people):
    """Eleni's record merged into Nikos (a member): Anna decides for both records, as one person."""
    identity.player_merge(survivor=people["nikos"], absorbed=people["eleni"], by=people["root"])
    people["eleni"].refresh_from_db()
    assert permissions.may_decide_claim(people["anna"], people["eleni"])
    identity.player_split(merge=people["nikos"].merges_in.get(), by=people["root"])
    people["eleni"].refresh_from_db()
    assert not permissions.may_decide_claim(people["anna"], people["eleni"])


def test_the_claims_a_decider_sees(people):
    on_nikos = identity.claim_request(player=people["nikos"], user=people["claimant"])
    on_giorgos = identity.claim_request(player=people["giorgos"], user=people["stranger"])
    assert list(permissions.decidable_claims(people["anna"])) == [on_nikos]
    assert list(permissions.decidable_claims(people["olga"])) == [on_giorgos]
    assert list(permissions.decidable_claims(people["root"])) == [on_nikos, on_giorgos]
    assert list(permissions.decidable_claims(people["claimant"])) == []
    on_petros = identity.claim_request(player=people["petros"], user=people["root"])
    assert on_petros not in permissions.decidable_claims(people["olga"])


# The pages -------------------------------------------------------------------------------------


def page(client, player):
    response = client.get(reverse("players:detail", args=[player.pk]))
    assert response.status_code == 200
    return response.text


def test_this_is_me_claim_wait_and_withdraw_on_the_pages(client, people):
    nikos, me = people["nikos"], people["claimant"]
    assert 'data-testid="this-is-me"' not in page(client, nikos)  # a visitor: nothing to claim with
    client.force_login(me)
    assert 'data-testid="this-is-me"' in page(client, nikos)
    url = reverse("players:claim", args=[nikos.pk])
    assert "Are you Nikos?" in client.get(url).text
    response = client.post(url, {"message": "Thursdays, with Eleni"})
    assert response.status_code == 302 and response["Location"] == reverse("players:detail", args=[nikos.pk])
    claim = PlayerClaim.objects.get()
    assert (claim.player, claim.user, claim.message) == (nikos, me, "Thursdays, with Eleni")
    text = page(client, nikos)
    assert 'data-testid="claim-waiting"' in text and 'data-testid="this-is-me"' not in text
    assert "Your claim on Nikos is waiting." in page(client, people["eleni"])
    response = client.post(reverse("players:claim_withdraw", args=[claim.pk]))
    assert response.status_code == 302
    claim.refresh_from_db()
    assert claim.status == PlayerClaim.Status.WITHDRAWN


def test_a_refused_claim_is_said_in_the_form_and_nothing_is_saved(client, people):
    Player.objects.filter(pk=people["nikos"].pk).update(user=people["stranger"])
    client.force_login(people["claimant"])
    response = client.post(reverse("players:claim", args=[people["nikos"].pk]), {"message": "me"})
    assert response.status_code == 422
    assert "already claimed by an account" in response.text
    response = client.post(reverse("players:claim", args=[people["eleni"].pk]), {"message": "x" * 301})
    assert response.status_code == 422
    assert PlayerClaim.objects.count() == 0


def test_claiming_needs_an_account(client, people):
    url = reverse("players:claim", args=[people["nikos"].pk])
    response = client.post(url, {"message": "me"})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert PlayerClaim.objects.count() == 0


def test_a_club_admin_approves_on_the_claims_page(client, people):
    claim = identity.claim_request(player=people["nikos"], user=people["claimant"], message="Thursdays")
    client.force_login(people["anna"])
    text = page(client, people["nikos"])
    assert "1 claim waiting" in text
    listing = client.get(reverse("players:claims")).text
    assert "Thursdays" in listing and "claimant" in listing
    response = client.post(reverse("players:claim_decide", args=[claim.pk]), {"decision": "approve"})
    assert response.status_code == 302 and response["Location"] == reverse("players:claims")
    people["nikos"].refresh_from_db()
    assert people["nikos"].user == people["claimant"]
    assert "No claim waiting for you." in client.get(reverse("players:claims")).text
    client.force_login(people["claimant"])
    assert 'data-testid="claimed">This is you' in page(client, people["nikos"])


def test_a_claim_is_decided_only_by_a_decider_and_as_asked(client, people):
    claim = identity.claim_request(player=people["nikos"], user=people["claimant"])
    client.force_login(people["olga"])  # organizes nothing Nikos played
    assert "Thursdays" not in client.get(reverse("players:claims")).text
    assert (
        client.post(reverse("players:claim_decide", args=[claim.pk]), {"decision": "approve"}).status_code
        == 404
    )
    client.force_login(people["anna"])
    response = client.post(reverse("players:claim_decide", args=[claim.pk]), {"decision": "maybe"})
    assert response.status_code == 422 and "Approve or refuse the claim." in response.text
    client.post(reverse("players:claim_decide", args=[claim.pk]), {"decision": "refuse"})
    response = client.post(reverse("players:claim_decide", args=[claim.pk]), {"decision": "approve"})
    assert response.status_code == 422 and "already been decided" in response.text
    claim.refresh_from_db()
    people["nikos"].refresh_from_db()
    assert claim.status == PlayerClaim.Status.REFUSED and people["nikos"].user is None


def test_a_claimed_record_counts_only_what_an_account_stands_behind(people):
    """The record after a claim: a match typed on a tablet without an account is casual; confirmed by
    the other team's account it counts (see tests/integration/test_counting.py for every side)."""
    from league import records

    claim = identity.claim_request(player=people["nikos"], user=people["claimant"])
    identity.claim_approve(claim=claim, by=people["anna"])
    match = scoring.match_create(
        teams=[("A", (people["nikos"], "Maria")), ("B", (people["eleni"], "Kostas"))], options={"deals": 1}
    )
    scoring.deal_record(match=match, deal={"maker": 0, "card_points": [90, 62], "last_trick": 0})
    assert records.player_record(player=people["nikos"]).stats.record.played == 0
    assert [m.counted for m in records.player_record(player=people["nikos"]).matches] == [False]


def test_a_claim_on_a_record_merged_since_is_listed_for_the_persons_deciders(client, people):
    claim = identity.claim_request(player=people["eleni"], user=people["claimant"])
    assert list(permissions.decidable_claims(people["anna"])) == []
    identity.player_merge(survivor=people["nikos"], absorbed=people["eleni"], by=people["root"])
    assert list(permissions.decidable_claims(people["anna"])) == [claim]
    client.force_login(people["anna"])
    assert "merged into Nikos" in client.get(reverse("players:claims")).text
    response = client.post(reverse("players:claim_decide", args=[claim.pk]), {"decision": "approve"})
    assert response.status_code == 422 and "Eleni was merged into Nikos: use Nikos instead." in response.text
