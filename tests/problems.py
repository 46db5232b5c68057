"""Reading the API's refusals in tests: RFC 9457 problem details (api/errors.py)."""

from __future__ import annotations

from typing import Any

PROBLEM_MEDIA_TYPE = "application/problem+json"


def kind(slug: str) -> str:
    """A problem type's URI: the problem types' page of this site, the kind as its fragment."""
    from django.conf import settings

    return f"{settings.TSOXA_SITE_URL.rstrip('/')}/api/problems/#{slug}"


STANDARD = {"type", "title", "status", "detail", "instance"}


def problem(response: Any, status: int) -> dict[str, Any]:
    """The body of a refusal with this status, checked to be a problem of that status."""
    assert response.status_code == status, (response.status_code, response.content[:300])
    assert response["Content-Type"] == PROBLEM_MEDIA_TYPE, response["Content-Type"]
    body = response.json()
    assert set(body) >= STANDARD and body["status"] == status, body
    return body


def fields(body: dict[str, Any]) -> set[str | None]:
    """The fields a 400 names, each by its top-level name (``teams`` for ``teams.0.name``); None
    for an error about the request as a whole."""
    return {error["attr"].split(".")[0] if error["attr"] else None for error in body["errors"]}


def attrs(body: dict[str, Any]) -> set[str | None]:
    """The fields a 400 names, each by its whole path (``teams.0.name``)."""
    return {error["attr"] for error in body["errors"]}


def messages(body: dict[str, Any]) -> str:
    """Every error's words, one a line."""
    return "\n".join(error["detail"] for error in body["errors"])


def said(body: dict[str, Any], attr: str | None) -> list[str]:
    """The words of the errors about one field (by its whole path), in order."""
    return [error["detail"] for error in body["errors"] if error["attr"] == attr]
