"""OPTIONS (and the ``Allow`` header of every API answer) lists the methods a path answers, no more:
those the schema documents for it, with HEAD and OPTIONS. Checked over every route of the URL
resolver under /api/v1/, so that a route the schema leaves out is caught too."""

import re

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, resolve
from drf_spectacular.generators import SchemaGenerator

from .conftest import client_for

pytestmark = pytest.mark.django_db

METHODS = ("get", "post", "put", "patch", "delete")
# A value for a path's parameter, the first its pattern takes (an id, a slug, a delivery's UUID).
SAMPLES = ("1", "x", "00000000-0000-0000-0000-000000000000")
GROUP = re.compile(r"\(\?P<(?P<name>\w+)>(?P<regex>[^()]*)\)")
# The router's root (/api/v1/) lists the routes; it is not an operation of the schema.
UNDOCUMENTED = {"/api/v1/": {"GET"}}


def _routes(patterns, prefix=""):
    """Every route as the regex of its whole path (from the site's root)."""
    for entry in patterns:
        regex = entry.pattern.regex.pattern.removeprefix("^").removesuffix(r"\Z").removesuffix("$")
        if isinstance(entry, URLResolver):
            yield from _routes(entry.url_patterns, prefix + regex)
        elif isinstance(entry, URLPattern):
            yield prefix + regex


def _sample(route: str) -> str | None:
    """A path the route answers, its parameters filled in; None if no sample fits."""

    def fill(match):
        value = next((s for s in SAMPLES if re.fullmatch(match["regex"], s)), None)
        if value is None:
            raise LookupError(match["name"])
        return value

    try:
        path = "/" + GROUP.sub(fill, route).replace("/?", "/").replace("\\.", ".")
    except LookupError:
        return None
    return path if "(" not in path and "\\" not in path else None


def _api_paths() -> list[str]:
    found = {_sample(route) for route in _routes(get_resolver().url_patterns)}
    return sorted(path for path in found if path and path.startswith("/api/v1/"))


def _documented() -> list[tuple[re.Pattern, str, set[str]]]:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    # Literal paths first: /matches/import/ is not /matches/{id}/.
    paths = sorted(schema["paths"].items(), key=lambda item: item[0].count("{"))
    return [
        (re.compile(re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(path)) + r"\Z"), path, set(ops))
        for path, ops in paths
    ]


def _methods(header: str) -> set[str]:
    return {m.strip().upper() for m in header.split(",") if m.strip()}


def test_every_api_route_is_sampled_and_documented():
    paths = _api_paths()
    assert len(paths) > 50  # the samples fit the routes' parameters
    documented = _documented()
    missing = [
        path
        for path in paths
        if path not in UNDOCUMENTED and not any(regex.match(path) for regex, _p, _o in documented)
    ]
    assert missing == []


@pytest.mark.parametrize("role", ["anonymous", "organizer"])
def test_allow_lists_only_the_methods_the_schema_documents(role, organizer):
    client = client_for(organizer if role == "organizer" else None)
    documented = _documented()
    wrong = []
    for path in _api_paths():
        assert resolve(path)  # the sample is a route of the site
        match = next(((p, ops) for regex, p, ops in documented if regex.match(path)), None)
        expected = UNDOCUMENTED.get(path) or {m.upper() for m in match[1] if m in METHODS}
        response = client.options(path)
        allow = _methods(response.get("Allow", "")) - {"HEAD", "OPTIONS"}
        if allow != expected:
            wrong.append(f"{path}: Allow {sorted(allow)}, documented {sorted(expected)}")
        # The body's "actions" (DRF's metadata) describe only methods the path takes.
        actions = set(response.json().get("actions", {})) if response.status_code == 200 else set()
        if not actions <= expected:
            wrong.append(f"{path}: OPTIONS describes {sorted(actions - expected)}")
    assert wrong == []


def test_a_tournament_is_not_deleted_through_the_api(organizer, public_tournament):
    """The route that refuses DELETE (405) does not offer it either."""
    organizer_client = client_for(organizer)
    url = f"/api/v1/tournaments/{public_tournament.slug}/"
    assert "DELETE" not in _methods(organizer_client.options(url)["Allow"])
    response = organizer_client.delete(url)
    assert response.status_code == 405
    assert "DELETE" not in _methods(response["Allow"])
