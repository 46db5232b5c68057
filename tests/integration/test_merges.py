"""Two records of one person merged, and a wrong merge split (issue 14): no match is rewritten, so a
split gives every record exactly what it had.

The club: Nikos was typed twice, "Nikos" and "Nikos P.". Matches started by the club's account
(they count), one deal each:

1. A (Nikos, Eleni) beat B (Giorgos, Maria);
2. C (Nikos P., Eleni) lost to D (Giorgos, Maria);
3. E (Nikos P., Kostas) beat F (Giorgos, Maria), typed on a tablet without an account: casual.

Anna runs the club, which made both Nikos records as its members (before the matches: the club has
a say over them, issue 24); Eleni and the others are nobody's.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from league import permissions, records
from players import identity_services as identity
from players.errors import PlayerError
from players.models import Club, Player, PlayerMerge
from scoring import selectors, services
from tests.factories import made
from tournaments import services as tournaments

pytestmark = pytest.mark.django_db
ONE_DEAL = {"deals": 1}


def play(teams, winner, created_by=None):
    match = services.match_create(teams=teams, options=ONE_DEAL, created_by=created_by)
    services.deal_record(match=match, deal=made(winner, (90, 62) if winner == 0 else (62, 90), winner))
    return match


@pytest.fixture
def club(user, django_user_model):
    names = ("Nikos", "Nikos P.", "Eleni", "Giorgos", "Maria", "Kostas")
    p = {name: Player.objects.create(name=name) for name in names}
    n1, n2 = p["Nikos"], p["Nikos P."]
    anna = django_user_model.objects.create_user("anna", password="pw-anna-12345")
    kafeneio = Club.objects.create(name="Kafeneio")
    kafeneio.admins.add(anna)
    for player in (n1, n2):
        kafeneio.memberships.create(player=player)
    matches = [
        play([("A", (n1, p["Eleni"])), ("B", (p["Giorgos"], p["Maria"]))], 0, user),
        play([("C", (n2, p["Eleni"])), ("D", (p["Giorgos"], p["Maria"]))], 1, user),
        play([("E", (n2, p["Kostas"])), ("F", (p["Giorgos"], p["Maria"]))], 0),
    ]
    root = django_user_model.objects.create_user("root", password="pw-root-12345", is_superuser=True)
    return {"p": p, "n1": n1, "n2": n2, "matches": matches, "anna": anna, "root": root, "club": kafeneio}


def fresh(player):
    return Player.objects.get(pk=player.pk)


def snapshot(client, players):
    """Everything a reader sees of these records: their page (or where it sends), their record,
    partners and listed matches, their row in the list, and the leaderboard."""
    seen = {}
    for player in players:
        response = client.get(reverse("players:detail", args=[player.pk]))
        if response.status_code == 302:
            seen[player.pk] = ("redirect", response["Location"])
            continue
        record = records.player_record(player=fresh(player))
        stats = record.stats
        seen[player.pk] = (
            (stats.record.played, stats.record.won, stats.record.lost),
            [(p.partner.pk, p.record.played) for p in stats.partners],
            [(m.match.pk, m.seat, m.counted) for m in record.matches],
            next((p.finished_matches or 0 for p in records.player_list() if p.pk == player.pk), None),
        )
    seen["board"] = [
        (row.player.pk, row.record.played, row.record.won) for row in records.leaderboard(min_matches=1)
    ]
    return seen


def test_a_merge_makes_one_person_and_a_split_restores_both_records_exactly(client, club):
    n1, n2, eleni = club["n1"], club["n2"], club["p"]["Eleni"]
    everyone = list(club["p"].values())
    before = snapshot(client, everyone)
    assert before[n1.pk][0] == (1, 1, 0) and before[n2.pk][0] == (1, 0, 1)

    merge = identity.player_merge(survivor=n1, absorbed=n2, by=club["anna"], reason="Typed twice")
    assert (merge.records, merge.moved_user, merge.reason) == ([n2.pk], None, "Typed twice")
    merged = snapshot(client, everyone)
    assert merged[n2.pk] == ("redirect", reverse("players:detail", args=[n1.pk]))
    (played, partners, listed, finished) = merged[n1.pk]
    assert played == (2, 1, 1)  # matches 1 and 2; the casual one is listed, not counted
    assert partners == [(eleni.pk, 2)]
    assert [m for m, _, _ in listed] == [m.pk for m in reversed(club["matches"])]
    assert [counted for _, _, counted in listed] == [False, True, True]
    assert finished == 2
    assert merged[eleni.pk][1] == [(n1.pk, 2)]  # Eleni's partner is one person now
    assert [row for row in merged["board"] if row[0] in (n1.pk, n2.pk)] == [(n1.pk, 2, 1)]
    assert fresh(n2).merged_into == n1

    identity.player_split(merge=merge, by=club["anna"])
    assert snapshot(client, everyone) == before
    merge.refresh_from_db()
    assert merge.undone_by == club["anna"] and merge.undone_at is not None
    assert fresh(n2).merged_into is None


def test_a_chain_of_merges_split_in_the_middle(client, user):
    """A into B, B into C; splitting B from C leaves A in B, and C with its own matches."""
    a, b, c = (Player.objects.create(name=n) for n in ("A", "B", "C"))
    others = [Player.objects.create(name=f"x{i}") for i in range(3)]
    for player, other in zip((a, b, c), others, strict=True):
        play([("T", (player, other)), ("U", ("y1", "y2"))], 0, user)
    first = identity.player_merge(survivor=b, absorbed=a, by=None)
    second = identity.player_merge(survivor=c, absorbed=b, by=None)
    assert second.records == [b.pk, a.pk]
    assert (fresh(a).merged_into, fresh(b).merged_into) == (c, c)  # every record points to the root
    assert records.player_record(player=c).stats.record.played == 3
    assert client.get(reverse("players:detail", args=[a.pk]))["Location"] == reverse(
        "players:detail", args=[c.pk]
    )

    identity.player_split(merge=second, by=None)
    assert (fresh(a).merged_into, fresh(b).merged_into) == (b, None)
    assert records.player_record(player=c).stats.record.played == 1
    assert records.player_record(player=fresh(b)).stats.record.played == 2
    assert client.get(reverse("players:detail", args=[a.pk]))["Location"] == reverse(
        "players:detail", args=[b.pk]
    )
    identity.player_split(merge=first, by=None)
    assert {p.pk for p in records.player_list()} >= {a.pk, b.pk, c.pk}


def test_the_first_of_a_chain_split_first_then_the_second(user):
    a, b, c = (Player.objects.create(name=n) for n in ("A", "B", "C"))
    first = identity.player_merge(survivor=b, absorbed=a, by=None)
    second = identity.player_merge(survivor=c, absorbed=b, by=None)
    identity.player_split(merge=first, by=None)
    assert (fresh(a).merged_into, fresh(b).merged_into) == (None, c)
    identity.player_split(merge=second, by=None)
    assert [fresh(p).merged_into for p in (a, b, c)] == [None, None, None]


def test_a_split_waits_for_a_later_merge_that_took_one_of_its_records(user):
    """A into B, B into C, A split from B, A into C: splitting B from C would take A back to B."""
    a, b, c = (Player.objects.create(name=n) for n in ("A", "B", "C"))
    first = identity.player_merge(survivor=b, absorbed=a, by=None)
    second = identity.player_merge(survivor=c, absorbed=b, by=None)
    identity.player_split(merge=first, by=None)
    again = identity.player_merge(survivor=c, absorbed=fresh(a), by=None)
    with pytest.raises(PlayerError, match="A was merged into C since: split that merge first"):
        identity.player_split(merge=second, by=None)
    assert (fresh(a).merged_into, fresh(b).merged_into) == (c, c)
    identity.player_split(merge=again, by=None)
    identity.player_split(merge=second, by=None)
    assert [fresh(p).merged_into for p in (a, b, c)] == [None, None, None]


def test_the_claim_moves_with_the_merge_and_back_with_the_split(club, django_user_model):
    nikos_p = django_user_model.objects.create_user("nikos", password="pw-nikos-12345")
    Player.objects.filter(pk=club["n2"].pk).update(user=nikos_p)
    merge = identity.player_merge(survivor=club["n1"], absorbed=fresh(club["n2"]), by=club["anna"])
    assert merge.moved_user == nikos_p
    assert (fresh(club["n1"]).user, fresh(club["n2"]).user) == (nikos_p, None)
    identity.player_split(merge=merge, by=club["anna"])
    assert (fresh(club["n1"]).user, fresh(club["n2"]).user) == (None, nikos_p)


def test_a_claim_moved_twice_goes_back_to_its_record(django_user_model):
    account = django_user_model.objects.create_user("b", password="pw-b-1234567")
    a, b, c = (Player.objects.create(name=n) for n in ("A", "B", "C"))
    Player.objects.filter(pk=b.pk).update(user=account)
    first = identity.player_merge(survivor=c, absorbed=fresh(b), by=None)
    identity.player_merge(survivor=a, absorbed=fresh(c), by=None)
    assert fresh(a).user == account
    identity.player_split(merge=first, by=None)
    assert [fresh(p).user for p in (a, b, c)] == [None, account, None]


@pytest.mark.parametrize(
    ("case", "refusal"),
    [
        ("itself", "cannot be merged into itself"),
        ("twice", "Nikos P. is already merged into Nikos"),
        ("absorbed was merged", "Nikos P. was merged into Nikos: use Nikos instead"),
        ("into its own absorbed", "Nikos was merged into Nikos P.: merge the other way"),
        ("both claimed", "Both records are claimed, by different accounts"),
        ("long reason", "At most 300 characters"),
    ],
)
def test_a_merge_is_refused_and_nothing_changes(club, django_user_model, case, refusal):
    n1, n2, eleni = club["n1"], club["n2"], club["p"]["Eleni"]
    survivor, absorbed, reason = n1, n2, ""
    if case == "itself":
        absorbed = n1
    elif case == "twice":
        identity.player_merge(survivor=n1, absorbed=n2, by=None)
    elif case == "absorbed was merged":
        identity.player_merge(survivor=n1, absorbed=n2, by=None)
        survivor = eleni
    elif case == "into its own absorbed":
        identity.player_merge(survivor=n2, absorbed=n1, by=None)  # then n2 into n1, its own absorbed
    elif case == "both claimed":
        for player, name in ((n1, "one"), (n2, "two")):
            user = django_user_model.objects.create_user(name, password=f"pw-{name}-12345")
            Player.objects.filter(pk=player.pk).update(user=user)
    elif case == "long reason":
        reason = "x" * 301
    merges = PlayerMerge.objects.count()
    pointers = list(Player.objects.order_by("pk").values_list("pk", "merged_into", "user"))
    with pytest.raises(PlayerError, match=refusal):
        identity.player_merge(survivor=fresh(survivor), absorbed=fresh(absorbed), by=None, reason=reason)
    assert PlayerMerge.objects.count() == merges
    assert list(Player.objects.order_by("pk").values_list("pk", "merged_into", "user")) == pointers


def test_a_merge_is_split_once(club):
    merge = identity.player_merge(survivor=club["n1"], absorbed=club["n2"], by=None)
    identity.player_split(merge=merge, by=None)
    with pytest.raises(PlayerError, match="already been split"):
        identity.player_split(merge=merge, by=None)


def test_a_person_is_found_by_any_of_their_records_names(club, user):
    identity.player_merge(survivor=club["n1"], absorbed=club["n2"], by=None)
    assert [p.pk for p in selectors.player_search(query="Nikos P", user=user)] == [club["n1"].pk]
    assert [p.pk for p in records.player_list(search="Nikos P")] == [club["n1"].pk]
    assert club["n2"].pk not in [p.pk for p in records.player_list()]


def test_a_record_known_only_from_a_private_event_is_seen_through_its_public_record(client, club, user):
    """Kostas (public, at the casual match) merged into a record of his from a private tournament:
    his page leads to it, which lists his public matches only."""
    cup = tournaments.tournament_create(organizer=user, name="Secret", public=False, deals_per_match=1)
    tournaments.entry_register(tournament=cup, name="S", players=["Kostas K.", "Lena"])
    private = Player.objects.get(name="Kostas K.")
    assert client.get(reverse("players:detail", args=[private.pk])).status_code == 404
    identity.player_merge(survivor=private, absorbed=club["p"]["Kostas"], by=club["root"])
    response = client.get(reverse("players:detail", args=[club["p"]["Kostas"].pk]))
    assert response["Location"] == reverse("players:detail", args=[private.pk])
    page = client.get(response["Location"])
    assert page.status_code == 200 and reverse("scoring:match", args=[club["matches"][2].pk]) in page.text


# Who may merge and split -----------------------------------------------------------------------


def test_who_may_merge(club, django_user_model):
    stranger = django_user_model.objects.create_user("stranger", password="pw-stranger-1")
    n1, n2, eleni = club["n1"], club["n2"], club["p"]["Eleni"]
    assert permissions.may_merge(club["anna"], n1, n2)  # both members of her club
    assert not permissions.may_merge(club["anna"], n1, eleni)  # Eleni is not hers to decide
    assert permissions.may_merge(club["root"], n1, eleni)
    assert not permissions.may_merge(stranger, n1, n2)
    merge = identity.player_merge(survivor=n1, absorbed=n2, by=club["root"])
    assert permissions.may_split(club["anna"], merge) and not permissions.may_split(stranger, merge)
    other = identity.player_merge(survivor=fresh(n1), absorbed=eleni, by=club["root"])
    assert not permissions.may_split(club["anna"], other)  # she could not have made it


# The pages -------------------------------------------------------------------------------------


def test_a_club_admin_merges_on_the_merge_page_and_splits_on_the_players_page(client, club):
    n1, n2 = club["n1"], club["n2"]
    client.force_login(club["anna"])
    page = client.get(reverse("players:detail", args=[n1.pk])).text
    assert 'data-testid="merge-link"' in page
    url = reverse("players:merge", args=[n1.pk])
    search = client.get(url, {"q": "Nikos"})
    assert search.status_code == 200
    assert f'href="?other={n2.pk}"' in search.text and f'href="?other={n1.pk}"' not in search.text
    preview = client.get(url, {"other": n2.pk}).text
    assert 'data-testid="merge-preview"' in preview
    rows = preview.split('data-testid="merge-preview"')[1]
    assert '<td class="num">1</td><td class="num">1</td>' in rows  # Nikos: 1 match, 1 counted
    assert '<td class="num">2</td><td class="num">1</td>' in rows  # Nikos P.: 2 matches, 1 counted
    response = client.post(url, {"other": n2.pk, "keep": "this", "reason": "Typed twice"})
    assert response.status_code == 302 and response["Location"] == reverse("players:detail", args=[n1.pk])
    merge = PlayerMerge.objects.get()
    assert (merge.survivor, merge.absorbed, merge.by, merge.reason) == (n1, n2, club["anna"], "Typed twice")
    page = client.get(reverse("players:detail", args=[n1.pk])).text
    assert "Also recorded as: Nikos P." in page and 'data-testid="split"' in page
    client.logout()
    assert 'data-testid="split"' not in client.get(reverse("players:detail", args=[n1.pk])).text
    client.force_login(club["anna"])
    response = client.post(reverse("players:split", args=[merge.pk]))
    assert response.status_code == 302 and response["Location"] == reverse("players:detail", args=[n2.pk])
    assert fresh(n2).merged_into is None
    assert client.get(reverse("players:detail", args=[n2.pk])).status_code == 200


def test_the_other_record_may_keep_its_name(client, club):
    client.force_login(club["anna"])
    client.post(reverse("players:merge", args=[club["n1"].pk]), {"other": club["n2"].pk, "keep": "other"})
    assert fresh(club["n1"]).merged_into == club["n2"]


def test_the_merge_page_says_what_is_wrong_and_merges_nothing(client, club, django_user_model):
    client.force_login(club["anna"])
    url = reverse("players:merge", args=[club["n1"].pk])
    response = client.post(url, {"other": club["p"]["Eleni"].pk, "keep": "this"})
    assert response.status_code == 422 and "You may not decide for both records together" in response.text
    response = client.post(url, {"other": 999999, "keep": "this"})
    assert response.status_code == 422 and "Pick the other record from the list." in response.text
    for player, name in ((club["n1"], "one"), (club["n2"], "two")):
        account = django_user_model.objects.create_user(name, password=f"pw-{name}-12345")
        Player.objects.filter(pk=player.pk).update(user=account)
        club["club"].memberships.filter(player=player).update(consented_by=account)  # still hers to decide
    response = client.post(url, {"other": club["n2"].pk, "keep": "this"})
    assert response.status_code == 422 and "Both records are claimed" in response.text
    assert PlayerMerge.objects.count() == 0


def test_merging_and_splitting_is_for_deciders(client, club, django_user_model):
    url = reverse("players:merge", args=[club["n1"].pk])
    assert "/accounts/login/" in client.get(url)["Location"]
    client.force_login(django_user_model.objects.create_user("stranger", password="pw-stranger-1"))
    assert client.get(url).status_code == 403
    assert client.post(url, {"other": club["n2"].pk, "keep": "this"}).status_code == 403
    merge = identity.player_merge(survivor=club["n1"], absorbed=club["n2"], by=club["root"])
    assert client.post(reverse("players:split", args=[merge.pk])).status_code == 403
    assert fresh(club["n2"]).merged_into == club["n1"] and PlayerMerge.objects.count() == 1
