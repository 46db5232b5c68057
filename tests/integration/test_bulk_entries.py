"""Bulk entry: a pasted list or a CSV previewed line by line, then entered all or nothing."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from players.models import Club, Membership, Player, Team
from tournaments import services
from tournaments.models import Entry, Tournament
from tournaments.services import bulk

pytestmark = pytest.mark.django_db


@pytest.fixture
def organizer(django_user_model):
    return django_user_model.objects.create_user(username="org", password="pw-org-12345")


@pytest.fixture
def tournament(organizer):
    return services.tournament_create(organizer=organizer, name="Friday concours", format="concours")


def preview(tournament, text, organizer, **kw):
    return services.entries_bulk_preview(tournament=tournament, text=text, user=organizer, **kw)


def teams(p):
    return [(line.team, [s.name for s in line.seats]) for line in p.lines]


# Reading the paste --------------------------------------------------------------------------


def test_a_line_is_split_by_tab_else_semicolon_else_comma(tournament, organizer):
    text = "Aces\tNikos, Jr\tEleni\nBees; Maria ;Kostas\n\n   \nCats,Yannis,  Dimitra  Papa \n"
    p = preview(tournament, text, organizer)
    assert teams(p) == [
        ("Aces", ["Nikos, Jr", "Eleni"]),
        ("Bees", ["Maria", "Kostas"]),
        ("Cats", ["Yannis", "Dimitra Papa"]),
    ]
    assert [line.number for line in p.lines] == [1, 2, 5]
    assert p.ok


def test_a_csv_file_with_bom_and_header_gives_the_same_lines(tournament, organizer):
    data = '\ufeffteam,player,partner\r\nAces,"Papas, Nikos",Eleni\r\nBees,Maria,Kostas\r\n'.encode()
    text = services.bulk_text_from_file(data)
    p = preview(tournament, text, organizer)
    assert teams(p) == [("Aces", ["Papas, Nikos", "Eleni"]), ("Bees", ["Maria", "Kostas"])]
    assert p.ok


def test_a_semicolon_csv_and_a_pasted_header_are_read_too(tournament, organizer):
    text = services.bulk_text_from_file("Équipe;Joueur;Partenaire\nAces;Nikos;Eleni\n".encode())
    assert teams(preview(tournament, text, organizer)) == [("Aces", ["Nikos", "Eleni"])]
    assert teams(preview(tournament, "Team\tPlayer 1\tPlayer 2\nAces\tA\tB", organizer)) == [
        ("Aces", ["A", "B"])
    ]


def test_a_file_not_utf8_is_refused_in_words(tournament):
    with pytest.raises(services.TournamentError, match="UTF-8"):
        services.bulk_text_from_file("Ομάδα;Νίκος;Ελένη".encode("cp1253"))


def test_too_many_lines_or_bytes_are_refused(tournament, organizer):
    with pytest.raises(services.TournamentError, match="at most 500 lines"):
        preview(tournament, "\n".join(f"T{i};a{i};b{i}" for i in range(501)), organizer)
    with pytest.raises(services.TournamentError, match="200 kB"):
        preview(tournament, "x" * 200_001, organizer)
    assert len(preview(tournament, "\n".join(f"T{i};a{i};b{i}" for i in range(500)), organizer).lines) == 500


# What is wrong, line by line ----------------------------------------------------------------


def test_errors_are_given_line_by_line(tournament, organizer):
    services.entry_register(tournament=tournament, name="Old Hands", players=["Stavros", "Anna"])
    text = "\n".join(
        [
            "Aces;Nikos",  # 1: two fields
            ";Maria;Kostas",  # 2: no team name
            "Bees;Maria;",  # 3: two fields (trailing separator)
            "Cats;Yannis;yannis",  # 4: the same player twice
            "Dogs;" + "x" * 81 + ";Eleni",  # 5: too long
            "Emus;Petros;Sofia",  # 6: ok
            "emus;Lena;Vasso",  # 7: the team name twice
            "old hands;Irini;Giorgos",  # 8: already entered
            "Foxes;Petros;Zoe",  # 9: Petros in two teams
        ]
    )
    p = preview(tournament, text, organizer)
    errors = {line.number: line.errors for line in p.lines}
    assert "found 2 fields" in errors[1][0]
    assert errors[2] == ["The team's name is empty."]
    assert "found 2 fields" in errors[3][0]
    assert errors[4] == ["The same player is twice in the team."]
    assert "longer than 80 characters" in errors[5][0]
    assert errors[6] == []
    assert errors[7] == ["emus is on line 6 too."]
    assert errors[8] == ["Old Hands is already entered."]
    assert errors[9] == ["Petros is on line 6 too."]
    assert not p.ok
    with pytest.raises(services.BulkRefused) as refused:
        services.entries_bulk_create(tournament=tournament, text=text, user=organizer)
    assert "8 lines are wrong" in str(refused.value)
    assert refused.value.preview.lines[5].ok
    assert Entry.objects.filter(tournament=tournament).count() == 1
    assert not Player.objects.filter(name__in=["Petros", "Sofia"]).exists()


def test_a_player_already_playing_in_the_tournament_is_refused(tournament, organizer):
    entry = services.entry_register(tournament=tournament, name="Old Hands", players=["Stavros", "Anna"])
    p = preview(tournament, "Aces;Stavros;Eleni", organizer)
    assert p.lines[0].seats[0].chosen == entry.team.player_a_id
    assert p.lines[0].errors == ["Stavros already plays for Old Hands."]
    # As a new record (a namesake), the line is right.
    p = preview(tournament, "Aces;Stavros;Eleni", organizer, choices={1: [None, None]})
    assert p.ok


def test_registration_closed_refuses_the_whole_paste(tournament, organizer):
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)
    tournament.refresh_from_db()
    p = preview(tournament, "Aces;Nikos;Eleni", organizer)
    assert p.errors == ["Registration is closed: the tournament has started."]
    with pytest.raises(services.TournamentError, match="Registration is closed"):
        services.entries_bulk_create(tournament=tournament, text="Aces;Nikos;Eleni", user=organizer)
    assert not Entry.objects.exists()


def test_an_empty_paste_is_not_ok(tournament, organizer):
    p = preview(tournament, "\n \n", organizer)
    assert not p.ok
    assert "empty" in p.summary()


# Matching existing records ------------------------------------------------------------------


def _played(organizer, name, players, tournament_name):
    other = services.tournament_create(organizer=organizer, name=tournament_name)
    services.entry_register(tournament=other, name=name, players=players)
    return other


def test_a_name_matches_the_record_casefolded_with_its_club_and_last_event(tournament, organizer):
    _played(organizer, "Old", ["Nikos  Papas", "Anna"], "Winter cup")
    nikos = Player.objects.get(name="Nikos Papas")
    club = Club.objects.create(name="Kafeneio")
    Membership.objects.create(club=club, player=nikos)
    p = preview(tournament, "Aces;  NIKOS papas ;Eleni", organizer)
    seat = p.lines[0].seats[0]
    assert [(c.pk, c.club, c.last_event) for c in seat.matches] == [(nikos.pk, "Kafeneio", "Winter cup")]
    assert seat.chosen == nikos.pk
    assert p.lines[0].seats[1].matches == [] and p.lines[0].seats[1].chosen is None


def test_namesakes_offer_the_one_who_played_last_first(tournament, organizer):
    _played(organizer, "Old", ["Nikos", "Anna"], "Winter cup")
    _played(organizer, "Older", ["Nikos", "Irini"], "Spring cup")
    first, last = Player.objects.filter(name="Nikos").order_by("pk")
    p = preview(tournament, "Aces;Nikos;Eleni", organizer)
    seat = p.lines[0].seats[0]
    assert [c.pk for c in seat.matches] == [last.pk, first.pk]
    assert [c.last_event for c in seat.matches] == ["Spring cup", "Winter cup"]
    assert seat.chosen == last.pk
    # The organizer chooses the other one.
    p = preview(tournament, "Aces;Nikos;Eleni", organizer, choices={1: [first.pk, None]})
    assert p.lines[0].seats[0].chosen == first.pk
    entries = services.entries_bulk_create(
        tournament=tournament, text="Aces;Nikos;Eleni", user=organizer, choices={1: [first.pk, None]}
    )
    assert entries[0].team.player_a_id == first.pk
    assert Player.objects.filter(name="Nikos").count() == 2


def test_records_the_organizer_may_not_see_are_never_offered(tournament, organizer, django_user_model):
    stranger = django_user_model.objects.create_user(username="other", password="pw-other-12345")
    secret = services.tournament_create(organizer=stranger, name="Secret", public=False)
    services.entry_register(tournament=secret, name="Hidden", players=["Nikos", "Anna"])
    hidden = Player.objects.get(name="Nikos")
    p = preview(tournament, "Aces;Nikos;Eleni", organizer)
    assert p.lines[0].seats[0].matches == []
    # Nor may they be chosen by their id.
    p = preview(tournament, "Aces;Nikos;Eleni", organizer, choices={1: [hidden.pk, None]})
    assert p.lines[0].errors == [f"Record {hidden.pk} is not one of those offered for Nikos."]
    with pytest.raises(services.BulkRefused):
        services.entries_bulk_create(
            tournament=tournament, text="Aces;Nikos;Eleni", user=organizer, choices={1: [hidden.pk, None]}
        )
    assert not Entry.objects.filter(tournament=tournament).exists()


def test_matching_is_a_constant_number_of_queries(tournament, organizer):
    for i in range(30):
        Player.objects.create(name=f"Player {i}")

    def count(n):
        text = "\n".join(f"T{i};Player {i};New {i}" for i in range(n))
        with CaptureQueriesContext(connection) as queries:
            p = preview(tournament, text, organizer)
        assert p.ok and all(line.seats[0].chosen for line in p.lines)
        return len(queries.captured_queries)

    assert count(2) == count(30) <= 11  # names, visible, people, records, entries, 4 seats, clubs, taken


# Saving --------------------------------------------------------------------------------------


def test_the_paste_is_entered_in_order_with_numbers_after_the_last(tournament, organizer):
    services.entry_register(tournament=tournament, name="First", players=["A", "B"])
    _played(organizer, "Old", ["Nikos", "Anna"], "Winter cup")
    nikos = Player.objects.get(name="Nikos")
    entries = services.entries_bulk_create(
        tournament=tournament, text="Aces;Nikos;Eleni\nBees;Maria;Kostas\nCats;Yannis;Dimitra", user=organizer
    )
    assert [(e.number, e.team.name) for e in entries] == [(2, "Aces"), (3, "Bees"), (4, "Cats")]
    saved = Entry.objects.filter(tournament=tournament).order_by("number")
    assert [(e.number, e.name, e.status) for e in saved] == [
        (1, "First", "registered"),
        (2, "Aces", "registered"),
        (3, "Bees", "registered"),
        (4, "Cats", "registered"),
    ]
    assert saved[1].team.player_a_id == nikos.pk
    assert Player.objects.filter(name="Nikos").count() == 1
    assert saved[1].history.first().history_user == organizer
    assert len({e.checkin_token for e in saved}) == 4


def test_an_existing_team_of_the_same_people_is_reused(tournament, organizer):
    _played(organizer, "Aces", ["Nikos", "Anna"], "Winter cup")
    entries = services.entries_bulk_create(tournament=tournament, text="Aces;Nikos;Anna", user=organizer)
    assert Team.objects.filter(name="Aces").count() == 1
    assert entries[0].team == Team.objects.get(name="Aces")


def test_all_or_nothing_when_the_database_refuses(tournament, organizer, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(bulk, "bulk_create_with_history", broken)
    with pytest.raises(RuntimeError):
        services.entries_bulk_create(tournament=tournament, text="Aces;Nikos;Eleni", user=organizer)
    assert not Player.objects.exists() and not Team.objects.exists()


def test_an_individual_event_takes_a_player_a_line(organizer):
    t = services.tournament_create(organizer=organizer, name="Whist drive", format="individual")
    services.entry_register(tournament=t, name="Nikos", players=["Nikos"])
    _played(organizer, "Old", ["Maria", "Anna"], "Winter cup")
    p = preview(t, "Maria\nKostas\nnikos\nKostas\nA;B", organizer)
    assert p.individual
    errors = {line.number: line.errors for line in p.lines}
    assert errors[1] == [] and p.lines[0].seats[0].chosen == Player.objects.get(name="Maria").pk
    assert errors[2] == []
    assert errors[3] == ["nikos is already entered."]
    assert errors[4] == ["Kostas is on line 2 too."]
    assert "one player's name" in errors[5][0]
    entries = services.entries_bulk_create(tournament=t, text="Maria\nKostas", user=organizer)
    assert [(e.number, e.player.name) for e in entries] == [(2, "Maria"), (3, "Kostas")]
    assert Player.objects.filter(name="Maria").count() == 1


def test_bulk_choices_read_the_pages_selects():
    data = {"pick-3-0": "12", "pick-3-1": "new", "pick-5-0": "new", "text": "x", "pick-x-1": "3"}
    assert services.bulk_choices(data) == {3: {0: 12, 1: None}, 5: {0: None}}


# The page -------------------------------------------------------------------------------------


@pytest.fixture
def signed_in(client, organizer):
    client.force_login(organizer)
    return client


def url(tournament):
    return reverse("tournaments:entries_bulk", args=[tournament.slug])


def test_the_page_previews_then_enters_with_the_record_chosen(signed_in, tournament, organizer):
    _played(organizer, "Old", ["Nikos", "Anna"], "Winter cup")
    _played(organizer, "Older", ["Nikos", "Irini"], "Spring cup")
    first, last = Player.objects.filter(name="Nikos").order_by("pk")
    text = "Aces;Nikos;Eleni\nBees;Maria;Kostas"
    response = signed_in.post(url(tournament), {"text": text, "action": "preview"})
    page = response.content.decode()
    assert response.status_code == 200
    assert 'name="pick-1-0"' in page and "last: Spring cup" in page and "last: Winter cup" in page
    assert f'<option value="{last.pk}" selected>' in page
    assert "Enter these 2 teams" in page
    assert not Entry.objects.filter(tournament=tournament).exists()
    # The organizer picks the other Nikos and confirms.
    data = {"text": text, "previewed": text, "pick-1-0": str(first.pk), "action": "confirm"}
    response = signed_in.post(url(tournament), data, follow=True)
    assert (
        response.redirect_chain[-1][0] == reverse("tournaments:manage", args=[tournament.slug]) + "#entries"
    )
    assert "2 teams entered." in response.content.decode()
    aces = Entry.objects.get(tournament=tournament, team__name="Aces")
    assert aces.team.player_a_id == first.pk and aces.number == 1


def test_a_wrong_line_is_shown_in_red_and_nothing_can_be_confirmed(signed_in, tournament):
    text = "Aces;Nikos;Eleni\nBees;Maria"
    response = signed_in.post(url(tournament), {"text": text, "action": "preview"})
    page = response.content.decode()
    assert response.status_code == 422
    assert 'class="error" data-testid="line-error"' in page and "found 2 fields" in page
    assert "bulk-confirm" not in page
    # Confirming anyway (a forged post) saves nothing.
    data = {"text": text, "previewed": text, "action": "confirm"}
    assert signed_in.post(url(tournament), data).status_code == 422
    assert not Entry.objects.exists() and not Player.objects.exists()


def test_a_text_changed_after_the_preview_is_previewed_again_not_entered(signed_in, tournament):
    data = {"text": "Aces;Nikos;Eleni", "previewed": "Bees;Maria;Kostas", "action": "confirm"}
    response = signed_in.post(url(tournament), data)
    assert response.status_code == 200 and "Enter this team" in response.content.decode()
    assert not Entry.objects.exists()


def test_a_csv_uploaded_is_previewed_with_its_text_to_confirm(signed_in, tournament):
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile(
        "teams.csv", "\ufeffteam,player,partner\nAces,Nikos,Eleni\n".encode(), "text/csv"
    )
    response = signed_in.post(url(tournament), {"text": "", "file": upload, "action": "preview"})
    page = response.content.decode()
    assert response.status_code == 200 and "Enter this team" in page
    assert 'name="previewed" value="team\tplayer\tpartner\nAces\tNikos\tEleni"' in page


def test_a_bad_file_is_refused_in_words(signed_in, tournament):
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("teams.csv", "Ομάδα;Νίκος;Ελένη".encode("cp1253"), "text/csv")
    response = signed_in.post(url(tournament), {"file": upload, "action": "preview"})
    assert response.status_code == 422 and "not UTF-8" in response.content.decode()


def test_only_the_organizer_sees_the_page(client, tournament, django_user_model):
    assert client.get(url(tournament)).status_code == 302  # to the login page
    client.force_login(django_user_model.objects.create_user(username="x", password="pw-x-1234567"))
    assert client.get(url(tournament)).status_code == 404
    assert (
        client.post(
            url(tournament), {"text": "Aces;A;B", "previewed": "Aces;A;B", "action": "confirm"}
        ).status_code
        == 404
    )
    assert not Entry.objects.exists()


def test_the_manage_page_links_to_the_bulk_page_and_suggests_players(signed_in, tournament, organizer):
    page = signed_in.get(reverse("tournaments:manage", args=[tournament.slug])).content.decode()
    assert url(tournament) in page and "Paste a list or upload a CSV" in page
    assert 'name="player_a_id"' in page and 'hx-target="#picks-player_a"' in page


def test_the_player_suggestions_pick_a_record(signed_in, tournament, organizer, django_user_model):
    _played(organizer, "Old", ["Nikos Papas", "Anna"], "Winter cup")
    stranger = django_user_model.objects.create_user(username="other", password="pw-other-12345")
    secret = services.tournament_create(organizer=stranger, name="Secret", public=False)
    services.entry_register(tournament=secret, name="Hidden", players=["Nikos Hidden", "Zoe"])
    nikos = Player.objects.get(name="Nikos Papas")
    search = reverse("tournaments:entry_player_search", args=[tournament.slug])
    page = signed_in.get(search, {"field": "player_b", "player_b": "niko"}).content.decode()
    assert f"pick={nikos.pk}" in page and "Nikos Hidden" not in page
    assert 'id="id_player_b_id" value="" hx-swap-oob="true"' in page
    page = signed_in.get(search, {"field": "player_b", "pick": nikos.pk}).content.decode()
    assert (
        'value="Nikos Papas"' in page and f'name="player_b_id" id="id_player_b_id" value="{nikos.pk}"' in page
    )
    hidden = Player.objects.get(name="Nikos Hidden")
    page = signed_in.get(search, {"field": "player_b", "pick": hidden.pk}).content.decode()
    assert "Nikos Hidden" not in page


def test_the_team_forms_ids_go_to_entry_register(tournament, organizer):
    from tournaments.forms import entry_form

    _played(organizer, "Old", ["Nikos", "Anna"], "Winter cup")
    nikos = Player.objects.get(name="Nikos")
    form = entry_form(tournament)(
        {"name": "Aces", "player_a": "Nikos", "player_b": "Eleni", "player_a_id": nikos.pk}
    )
    assert form.is_valid() and form.player_ids() == [nikos.pk, None]
    entry = services.entry_register(
        tournament=tournament,
        name="Aces",
        players=form.players(),
        player_ids=form.player_ids(),
        user=organizer,
    )
    assert entry.team.player_a == nikos
    form = entry_form(tournament)({"name": "Bees", "player_a": "Maria", "player_b": "Kostas"})
    assert form.is_valid() and form.player_ids() is None
