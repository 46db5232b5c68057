"""A tournament's JSON export (tournaments/api/exports.py) is sent part by part as each is made:
its first part is the tournament alone, before anything else is read, and the parts join to the
very text one ``json.dumps`` makes of the whole document."""

import json

from rest_framework.utils.encoders import JSONEncoder

PARTS = ["tournament", "entries", "rounds", "standings", "ranking", "prizes", "matches"]


def test_the_export_starts_with_the_tournament_and_is_the_text_of_one_document(anon, public_tournament):
    response = anon.get(f"/api/v1/tournaments/{public_tournament.slug}/export/")
    assert response.status_code == 200 and response.streaming
    parts = iter(response.streaming_content)
    first = next(parts)
    assert json.loads(first + b"}") == {
        "tournament": anon.get(f"/api/v1/tournaments/{public_tournament.slug}/").json()
    }
    text = first + b"".join(parts)
    document = json.loads(text)
    assert list(document) == PARTS
    assert text == json.dumps(document, cls=JSONEncoder, ensure_ascii=False).encode()
