import pytest

from scoring import services

TEAMS = [("Kafeneio A", ("Nikos", "Eleni")), ("Kafeneio B", ("Giorgos", "Maria"))]


@pytest.fixture
def user(django_user_model):
    return django_user_model.objects.create_user(username="keeper", password="pw-keeper-123")


@pytest.fixture
def match(db, user):
    """A fresh Mpourloto match to 1000; Nikos (seat 0) deals first."""
    return services.match_create(teams=TEAMS, first_dealer=0, created_by=user)


def made(maker=0, cards=(90, 62), last_trick=0, melds=((), ())):
    """A deal dict in the FORMAT.md shape."""
    return {
        "maker": maker,
        "card_points": list(cards),
        "last_trick": last_trick,
        "melds": [list(m) for m in melds],
    }
