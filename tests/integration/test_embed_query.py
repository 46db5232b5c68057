"""The embed's cached answer does not depend on a visitor's query string (tournaments/embed.py): one
ETag and one rendered page whatever ``?x=…`` is added, and none of it in the page; ``?lang=``
counts only when it names one of the site's languages."""

import pytest
from django.core.cache import cache
from django.urls import reverse

from tests.integration.test_embeds import organizer, running  # noqa: F401 - the fixture and the setup
from tournaments import embed

pytestmark = pytest.mark.django_db


@pytest.fixture
def kept(monkeypatch) -> list[str]:
    """The keys the embeds put in the cache, as they put them."""
    keys: list[str] = []

    class Watched:
        def get(self, key, default=None):
            return cache.get(key, default)

        def set(self, key, value, timeout):
            keys.append(key)
            cache.set(key, value, timeout)

    monkeypatch.setattr(embed, "cache", Watched())
    return keys


@pytest.mark.parametrize("name", ["embed_standings", "embed_round_current"])
def test_any_other_query_is_one_answer_and_one_cache_entry(client, organizer, name, kept):  # noqa: F811
    t = running(organizer)
    url = reverse(f"tournaments:{name}", args=[t.slug])
    cache.clear()
    plain = client.get(url)
    assert plain.status_code == 200 and len(kept) == 1
    for n in range(20):
        response = client.get(f"{url}?x={n}&utm_source=club&lang=zz")
        assert response["ETag"] == plain["ETag"]
        assert response.content == plain.content  # nothing of the query reaches the page
        assert "x=" not in response.text and "utm_source" not in response.text
    assert len(kept) == 1  # rendered and kept once: every other address found it
    # The browser's copy is good for every such address.
    assert client.get(f"{url}?x=99", HTTP_IF_NONE_MATCH=plain["ETag"]).status_code == 304


def test_a_language_of_the_site_is_its_own_answer_and_is_polled_in(client, organizer):  # noqa: F811
    t = running(organizer)
    url = reverse("tournaments:embed_standings", args=[t.slug])
    greek = client.get(f"{url}?lang=el&x=1")
    assert greek["ETag"] != client.get(url)["ETag"]
    assert f'hx-get="{url}?lang=el"' in greek.text
    assert greek["ETag"] == client.get(f"{url}?x=2&lang=el")["ETag"]
