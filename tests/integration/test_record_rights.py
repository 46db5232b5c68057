"""A person's record belongs to that person (issue 24): no account gains a say over a record by
anything it does alone, every decision is kept and the staff may take it back, a claimed record's
club membership needs its account's consent, and a record known only from private events never
shows its name on a public page through a merge.

The people: Giorgos and Maria, public records of a casual match long ago (nobody's club or event);
Mallory, any account, who enters Giorgos in tournaments of her own or adds him to a club she runs;
Chloe, her accomplice, who claims Giorgos; the Kafeneio club (admin Anna), which made Nikos's record
as its member; Olga, who ran the public Autumn Cup, whose entries made Dora's and Dimitra's records;
Root, the site's staff.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from league import permissions
from players import club_services as clubs
from players import identity_services as identity
from players.errors import PlayerError
from players.models import Club, Membership, Player, PlayerClaim, PlayerMerge, RecordEvent
from scoring import services as scoring
from tests.factories import made
from tournaments import services as tournaments

pytestmark = pytest.mark.django_db


def account(django_user_model, name, **extra):
    return django_user_model.objects.create_user(name, password=f"pw-{name}-12345", **extra)


def finished_cup(organizer, name, teams, *, public=True, player_ids=None):
    """A tournament of ``organizer`` with these teams, started, one round played, finished."""
    cup = tournaments.tournament_create(organizer=organizer, name=name, deals_per_match=1, public=public)
    for number, (team, players) in enumerate(teams):
        ids = (player_ids or {}).get(number)
        tournaments.entry_register(tournament=cup, name=team, players=players, player_ids=ids, user=organizer)
    cup = tournaments.tournament_start(tournament=cup, user=organizer)
    rnd = tournaments.round_start(
        rnd=tournaments.round_generate(tournament=cup, user=organizer), user=organizer
    )
    for table in rnd.tables.select_related("match"):
        scoring.deal_record(match=table.match, deal=made(0), user=organizer)
    return tournaments.tournament_finish(tournament=cup, reason="Done", user=organizer)


@pytest.fixture
def world(django_user_model):
    casual = scoring.match_create(teams=[("A", ("Giorgos", "Maria")), ("B", ("Kostas", "Eleni"))])
    scoring.deal_record(match=casual, deal=made(0))
    anna, olga = account(django_user_model, "anna"), account(django_user_model, "olga")
    club = Club.objects.create(name="Kafeneio")
    club.admins.add(anna)
    nikos = Player.objects.create(name="Nikos")
    clubs.member_add(club=club, player=nikos, by=anna)  # the club made the record: its first trace
    finished_cup(olga, "Autumn Cup", [("D", ["Dora", "Dimitra"]), ("E", ["Elias", "Efi"])])
    return {
        "giorgos": Player.objects.get(name="Giorgos"),
        "maria": Player.objects.get(name="Maria"),
        "nikos": nikos,
        "dora": Player.objects.get(name="Dora"),
        "dimitra": Player.objects.get(name="Dimitra"),
        "club": club,
        "anna": anna,
        "olga": olga,
        "mallory": account(django_user_model, "mallory"),
        "chloe": account(django_user_model, "chloe"),
        "root": account(django_user_model, "root", is_staff=True),
    }


def approve(client, claim):
    return client.post(reverse("players:claim_decide", args=[claim.pk]), {"decision": "approve"})


def assert_no_say(client, w, claim):
    """Mallory, signed in on ``client``, may not approve Chloe's claim, merge Giorgos or split him."""
    assert approve(client, claim).status_code == 404
    claim.refresh_from_db()
    assert claim.status == PlayerClaim.Status.PENDING
    assert Player.objects.get(pk=w["giorgos"].pk).user is None
    assert "Giorgos" not in client.get(reverse("players:claims")).text
    merge_url = reverse("players:merge", args=[w["giorgos"].pk])
    assert client.get(merge_url).status_code == 403
    assert client.post(merge_url, {"other": w["maria"].pk, "keep": "this"}).status_code == 403
    merge = identity.player_merge(survivor=w["giorgos"], absorbed=w["maria"], by=w["root"])
    assert client.post(reverse("players:split", args=[merge.pk])).status_code == 403
    assert PlayerMerge.objects.get(pk=merge.pk).undone_at is None


# The two ways in, closed -----------------------------------------------------------------------


@pytest.mark.parametrize("public", [False, True])
def test_entering_a_player_in_a_tournament_of_ones_own_gives_no_say(client, world, public):
    """A private tournament that never starts, or even a public one played to its end: Giorgos's
    record was made before it, so its organizer decides nothing about him."""
    w = world
    if public:
        finished_cup(
            w["mallory"],
            "Mine",
            [("G", ["Giorgos", "X"]), ("H", ["Y", "Z"])],
            player_ids={0: [w["giorgos"].pk, None]},
        )
    else:
        cup = tournaments.tournament_create(organizer=w["mallory"], name="Mine", public=False)
        tournaments.entry_register(
            tournament=cup,
            name="G",
            players=["Giorgos", "X"],
            player_ids=[w["giorgos"].pk, None],
            user=w["mallory"],
        )
    claim = identity.claim_request(player=w["giorgos"], user=w["chloe"])
    assert not permissions.may_decide(w["mallory"], claim)
    client.force_login(w["mallory"])
    assert_no_say(client, w, claim)


def test_adding_a_player_to_ones_club_gives_no_say(client, world, django_user_model):
    w = world
    club = Club.objects.create(name="Mallory's")
    club.admins.add(w["mallory"])
    client.force_login(w["mallory"])
    manage = reverse("league:club_manage", args=[club.slug])
    for player in (w["giorgos"], w["maria"]):
        response = client.post(manage, {"action": "member_add", "member-player": player.pk})
        assert response.status_code == 302
    assert set(clubs.current_members(club)) == {w["giorgos"], w["maria"]}  # members, but no say
    claim = identity.claim_request(player=w["giorgos"], user=w["chloe"])
    assert not permissions.may_decide(w["mallory"], claim)
    assert not permissions.may_merge(w["mallory"], w["giorgos"], w["maria"])
    assert_no_say(client, w, claim)


def test_a_membership_begun_after_the_claim_gives_no_say_over_it(world):
    w = world
    lone = Player.objects.create(name="Lone")
    claim = identity.claim_request(player=lone, user=w["chloe"])
    clubs.member_add(club=w["club"], player=lone, by=w["anna"])  # its first trace, but after the claim
    assert permissions.may_decide_claim(w["anna"], lone)  # the club made it: merges are hers
    assert not permissions.may_decide(w["anna"], claim)
    assert claim not in permissions.decidable_claims(w["anna"])


# Who still decides ------------------------------------------------------------------------------


def test_the_club_that_made_a_record_decides_its_claim_on_the_pages(client, world):
    w = world
    client.force_login(w["anna"])
    manage = reverse("league:club_manage", args=[w["club"].slug])
    assert client.post(manage, {"action": "member_add", "member-name": "Stella"}).status_code == 302
    stella = Player.objects.get(name="Stella")
    claim = identity.claim_request(player=stella, user=w["chloe"])
    assert "Stella" in client.get(reverse("players:claims")).text
    assert approve(client, claim).status_code == 302
    assert Player.objects.get(pk=stella.pk).user == w["chloe"]


def test_the_organizer_of_a_finished_public_event_decides_for_the_records_it_made(client, world):
    w = world
    claim = identity.claim_request(player=w["dora"], user=w["chloe"])
    assert [c.pk for c in permissions.decidable_claims(w["olga"])] == [claim.pk]
    assert permissions.may_merge(w["olga"], w["dora"], w["dimitra"])
    assert not permissions.may_merge(w["olga"], w["dora"], w["giorgos"])  # not a record the event made
    client.force_login(w["olga"])
    url = reverse("players:merge", args=[w["dora"].pk])
    response = client.post(url, {"other": w["giorgos"].pk, "keep": "this"})
    assert response.status_code == 422 and "You may not decide for both records together" in response.text
    response = client.post(url, {"other": w["dimitra"].pk, "keep": "this", "reason": "Typed twice"})
    assert response.status_code == 302
    merge = PlayerMerge.objects.get()
    assert client.post(reverse("players:split", args=[merge.pk])).status_code == 302
    assert approve(client, claim).status_code == 302
    assert Player.objects.get(pk=w["dora"].pk).user == w["chloe"]


def test_an_unfinished_or_private_event_makes_no_decider(world):
    w = world
    cup = tournaments.tournament_create(organizer=w["olga"], name="Winter Cup", deals_per_match=1)
    tournaments.entry_register(tournament=cup, name="W", players=["Wanda", "Vera"], user=w["olga"])
    wanda = Player.objects.get(name="Wanda")
    assert not permissions.may_decide_claim(w["olga"], wanda)  # not finished
    finished_cup(w["olga"], "Secret", [("S", ["Sia", "Sofia"]), ("T", ["Tia", "Toni"])], public=False)
    assert not permissions.may_decide_claim(w["olga"], Player.objects.get(name="Sia"))  # not public


def test_the_staff_decide_for_anyone(client, world):
    w = world
    claim = identity.claim_request(player=w["giorgos"], user=w["chloe"])
    client.force_login(w["root"])
    assert approve(client, claim).status_code == 302
    assert permissions.may_merge(w["root"], w["giorgos"], w["maria"])


# A claimed record's club membership needs its consent -------------------------------------------


def test_a_claimed_player_is_invited_and_is_a_member_only_once_their_account_accepts(client, world):
    w = world
    identity.claim_approve(claim=identity.claim_request(player=w["giorgos"], user=w["chloe"]), by=w["root"])
    client.force_login(w["anna"])
    manage = reverse("league:club_manage", args=[w["club"].slug])
    response = client.post(manage, {"action": "member_add", "member-player": w["giorgos"].pk}, follow=True)
    assert "Giorgos is invited" in response.text and 'data-testid="invited"' in response.text
    row = Membership.objects.get(club=w["club"], player=w["giorgos"])
    assert row.status == Membership.Status.INVITED
    assert w["giorgos"] not in clubs.current_members(w["club"])
    assert "Giorgos" not in client.get(reverse("league:club", args=[w["club"].slug])).text
    assert not permissions.may_decide_claim(w["anna"], w["giorgos"])  # an invitation grants nothing
    # Only the person's account answers.
    client.force_login(w["mallory"])
    assert (
        client.post(reverse("players:invitation_answer", args=[row.pk]), {"answer": "accept"}).status_code
        == 404
    )
    client.force_login(w["chloe"])
    assert (
        'data-testid="invitations-waiting"'
        in client.get(reverse("players:detail", args=[w["giorgos"].pk])).text
    )
    assert "Kafeneio invites you" in client.get(reverse("players:claims")).text
    response = client.post(reverse("players:invitation_answer", args=[row.pk]), {"answer": "accept"})
    assert response.status_code == 302
    row.refresh_from_db()
    assert (row.status, row.consented_by) == (Membership.Status.ACTIVE, w["chloe"])
    assert w["giorgos"] in clubs.current_members(w["club"])
    assert permissions.may_decide_claim(w["anna"], w["giorgos"])  # a member by his consent


def test_a_declined_invitation_is_no_membership(world):
    w = world
    identity.claim_approve(claim=identity.claim_request(player=w["giorgos"], user=w["chloe"]), by=w["root"])
    row = clubs.member_add(club=w["club"], player=w["giorgos"], by=w["anna"])
    with pytest.raises(PlayerError, match="already invited"):
        clubs.member_add(club=w["club"], player=w["giorgos"], by=w["anna"])
    with pytest.raises(PlayerError, match="own account"):
        clubs.member_answer(membership=row, user=w["anna"], accept=True)
    clubs.member_answer(membership=row, user=w["chloe"], accept=False)
    assert Membership.objects.get(pk=row.pk).status == Membership.Status.DECLINED
    assert w["giorgos"] not in clubs.current_members(w["club"])
    with pytest.raises(PlayerError, match="no longer waiting"):
        clubs.member_answer(membership=row, user=w["chloe"], accept=True)


def test_a_claim_keeps_the_records_clubs_but_only_a_founded_one_has_a_say(client, world):
    """Nikos's record was made by the Kafeneio club; Mallory's club added it on her word alone. Once
    Chloe's claim on it is approved, both still list Nikos; only the Kafeneio club has a say."""
    w = world
    club = Club.objects.create(name="Mallory's")
    club.admins.add(w["mallory"])
    clubs.member_add(club=club, player=w["nikos"], by=w["mallory"])
    assert not permissions.may_decide_claim(w["mallory"], w["nikos"])
    identity.claim_approve(claim=identity.claim_request(player=w["nikos"], user=w["chloe"]), by=w["anna"])
    assert w["nikos"] in clubs.current_members(club) and w["nikos"] in clubs.current_members(w["club"])
    assert permissions.may_decide_claim(w["anna"], w["nikos"])
    assert not permissions.may_decide_claim(w["mallory"], w["nikos"])
    assert Membership.objects.filter(consented_by__isnull=False).count() == 0


# Every decision kept, and the staff take it back -------------------------------------------------


def test_every_decision_is_kept_with_who_and_when(world):
    w = world
    claim = identity.claim_request(player=w["nikos"], user=w["chloe"])
    identity.claim_approve(claim=claim, by=w["anna"])
    other = identity.claim_request(player=w["maria"], user=w["mallory"])
    identity.claim_refuse(claim=other, by=w["root"])
    merge = identity.player_merge(survivor=w["dora"], absorbed=w["dimitra"], by=w["olga"], reason="Twice")
    identity.player_split(merge=merge, by=w["root"])
    clubs.member_add(club=w["club"], player=w["giorgos"], by=w["anna"])
    clubs.member_remove(club=w["club"], player=w["nikos"], by=w["anna"])
    rows = list(RecordEvent.objects.order_by("pk").values_list("action", "by__username", "player__name"))
    assert rows == [
        ("member_added", "anna", "Nikos"),  # the fixture's
        ("claim_approved", "anna", "Nikos"),
        ("claim_refused", "root", "Maria"),
        ("merged", "olga", "Dora"),
        ("split", "root", "Dimitra"),
        ("member_added", "anna", "Giorgos"),
        ("member_left", "anna", "Nikos"),
    ]
    assert all(row.at is not None for row in RecordEvent.objects.all())
    assert RecordEvent.objects.get(action="merged").merge == merge


def test_the_staff_take_a_claims_decision_back_on_the_claims_page(client, world):
    w = world
    claim = identity.claim_request(player=w["nikos"], user=w["chloe"])
    identity.claim_approve(claim=claim, by=w["anna"])
    club = Club.objects.create(name="Mallory's")
    club.admins.add(w["mallory"])
    invited = clubs.member_add(club=club, player=w["nikos"], by=w["mallory"])
    clubs.member_answer(membership=invited, user=w["chloe"], accept=True)
    assert permissions.may_decide_claim(w["mallory"], w["nikos"])  # by the account's consent
    revert = reverse("players:claim_revert", args=[claim.pk])
    client.force_login(w["anna"])  # a decider, not staff
    assert client.post(revert).status_code == 403
    client.force_login(w["root"])
    assert 'data-testid="decided-claims"' in client.get(reverse("players:claims")).text
    assert client.post(revert).status_code == 302
    claim.refresh_from_db()
    assert claim.status == PlayerClaim.Status.PENDING and claim.decided_by is None
    assert Player.objects.get(pk=w["nikos"].pk).user is None
    assert Membership.objects.get(pk=invited.pk).consented_by is None  # that account's word is void
    assert not permissions.may_decide_claim(w["mallory"], w["nikos"])
    event = RecordEvent.objects.get(action="claim_reverted")
    assert (event.by, event.claim, event.note) == (w["root"], claim, "Approved")
    response = client.post(revert)  # waiting again: nothing to take back
    assert response.status_code == 422 and "Only an approved or refused claim" in response.text


def test_an_approval_is_taken_back_from_the_record_the_claim_moved_to(world):
    w = world
    claim = identity.claim_request(player=w["dora"], user=w["chloe"])
    identity.claim_approve(claim=claim, by=w["olga"])
    identity.player_merge(survivor=w["dimitra"], absorbed=w["dora"], by=w["olga"])
    assert Player.objects.get(pk=w["dimitra"].pk).user == w["chloe"]
    identity.claim_revert(claim=claim, by=w["root"])
    assert not Player.objects.filter(user=w["chloe"]).exists()


# A private record's name stays private ----------------------------------------------------------


def test_a_private_record_merged_into_a_public_one_never_shows_its_name(client, world):
    w = world
    finished_cup(
        w["olga"], "Hidden", [("Q", ["Quintus Secret", "Qora"]), ("R", ["Rho", "Rea"])], public=False
    )
    secret = Player.objects.get(name="Quintus Secret")
    identity.player_merge(survivor=w["giorgos"], absorbed=secret, by=w["root"], reason="Same man")
    page = client.get(reverse("players:detail", args=[w["giorgos"].pk])).text
    assert "Quintus Secret" not in page and "Also recorded as" not in page
    found = client.get(reverse("players:list"), {"q": "Quintus"}).text  # nor is he found by it
    assert reverse("players:detail", args=[w["giorgos"].pk]) not in found
    client.force_login(w["olga"])  # she sees the private event: the name is hers to see
    assert (
        "Also recorded as: Quintus Secret"
        in client.get(reverse("players:detail", args=[w["giorgos"].pk])).text
    )
    found = client.get(reverse("players:list"), {"q": "Quintus"}).text
    assert reverse("players:detail", args=[w["giorgos"].pk]) in found


def test_a_private_record_does_not_keep_its_name_over_a_public_one(client, world, django_user_model):
    w = world
    finished_cup(
        w["olga"], "Hidden", [("Q", ["Quintus Secret", "Qora"]), ("R", ["Rho", "Rea"])], public=False
    )
    secret = Player.objects.get(name="Quintus Secret")
    client.force_login(account(django_user_model, "super", is_superuser=True))  # sees every record
    url = reverse("players:merge", args=[secret.pk])
    response = client.post(url, {"other": w["giorgos"].pk, "keep": "this"})
    assert response.status_code == 422 and "known only from private events" in response.text
    assert PlayerMerge.objects.count() == 0
    assert client.post(url, {"other": w["giorgos"].pk, "keep": "other"}).status_code == 302
