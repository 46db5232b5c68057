"""Test data in the shapes the app takes."""

TEAMS = [("Kafeneio A", ("Nikos", "Eleni")), ("Kafeneio B", ("Giorgos", "Maria"))]


def made(maker=0, cards=(90, 62), last_trick=0, melds=((), ())):
    """A Mpourloto deal dict in the FORMAT.md shape."""
    return {
        "maker": maker,
        "card_points": list(cards),
        "last_trick": last_trick,
        "melds": [list(m) for m in melds],
    }
