"""The OpenAPI schema documents the refusals every operation can give, with their bodies.

drf-spectacular writes the success answers from the serializers; this adds, to each operation, the
error answers it can give (unless the view documents its own), each an RFC 9457 problem
(``application/problem+json``, config/api_errors.py) named as a component:

- 400 ``ValidationProblem`` (``DealProblem`` on the scoring app's operations, where the game's rules
  may refuse a deal or a match): writes, and operations with path or query parameters;
- 401 ``Problem``: every operation (credentials that are wrong, revoked or missing where needed);
- 403 ``Problem``: writes, and reads that the view's permissions refuse to someone signed out;
- 404 ``Problem``: paths that name an object;
- 409 ``DealProblem`` and 412 ``StaleVersionProblem``: operations taking ``Idempotency-Key`` and
  ``If-Match``;
- 413 and 415 ``Problem``: operations with a body;
- 429 ``Problem``, with ``Retry-After``: every operation (the API's rates; the login limit).
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from django.contrib.auth.models import AnonymousUser
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers

from config.api_errors import PROBLEM_MEDIA_TYPE, PROBLEM_TYPES

SAFE = ("GET", "HEAD", "OPTIONS")
PAGINATION = ("limit", "offset")

TYPES = ", ".join(f"`{problem.uri}` ({problem.status})" for problem in PROBLEM_TYPES)


class ProblemErrorSerializer(serializers.Serializer):
    """One thing wrong with a request."""

    attr = serializers.CharField(
        allow_null=True,
        help_text="The field's path in the request (`teams.0.name`, `melds.1.0`); null: the whole request",
    )
    code = serializers.CharField(help_text="What kind of error (`required`, `invalid`, `refused_by_rules` …)")
    detail = serializers.CharField(help_text="What is wrong, in plain words")


class ProblemSerializer(serializers.Serializer):
    """A refusal, as RFC 9457 problem details (``application/problem+json``)."""

    type = serializers.URLField(
        help_text="The kind of problem: a URI that stays the same (the list: `Problem`)"
    )
    title = serializers.CharField(help_text="The kind of problem in a few words")
    status = serializers.IntegerField(help_text="The HTTP status")
    detail = serializers.CharField(help_text="What went wrong this time, in plain words")
    instance = serializers.CharField(help_text="The path asked for")


ProblemSerializer.__doc__ = f"{ProblemSerializer.__doc__} Its `type`, one of: {TYPES}."


class ValidationProblemSerializer(ProblemSerializer):
    """A refused request (400): every error is listed under ``errors``; ``detail`` tells the first."""

    errors = ProblemErrorSerializer(many=True, help_text="What is wrong, one item a field")


class DealProblemSerializer(ValidationProblemSerializer):
    """A refused request about a match (400), or an ``Idempotency-Key`` used for another deal (409).
    ``field`` and ``deal`` are there when the game's rules refused a deal or a match."""

    field = serializers.CharField(
        allow_null=True,
        required=False,
        help_text="The part of the deal or match file at fault as FORMAT.md spells it (`card_points`, "
        "`melds[1][0]`), or null",
    )
    deal = serializers.IntegerField(
        allow_null=True, required=False, help_text="The deal's position in the match (from 0), or null"
    )


class StaleVersionProblemSerializer(ProblemSerializer):
    """``If-Match`` named another version of the match than its current one: nothing was changed (412)."""

    version = serializers.IntegerField(help_text="The match's version now: read it, then try again")


# The name webhooks/api.py documents its own refusals with.
ErrorSerializer = ProblemSerializer

RETRY_AFTER = {
    "Retry-After": {"description": "Seconds to wait before trying again", "schema": {"type": "integer"}}
}


class TsoxaAutoSchema(AutoSchema):
    def get_auth(self) -> list[dict[str, Any]]:
        """The credentials an operation takes; a read anyone may make also lists none (``{}``): the
        views' own permission classes hide that from drf-spectacular, and a client generated from the
        schema would otherwise ask for a token to read public standings."""
        auths = super().get_auth()
        if self.method in SAFE and auths and {} not in auths and not self._reads_refused():
            auths.append({})
        return auths

    def _reads_refused(self) -> bool:
        """Whether a read may be refused for its credentials: the view's permissions refuse a read
        to someone signed out (an account's own things, such as its tokens)."""
        request = SimpleNamespace(method="GET", user=AnonymousUser(), auth=None)
        for permission in self.view.get_permissions():
            try:
                if not permission.has_permission(request, self.view):
                    return True
            except Exception:  # a permission that needs more of a request than this: say it may refuse
                return True
        return False

    def _error_responses(self) -> dict[str, OpenApiResponse]:
        method = self.method
        writes = method not in SAFE
        parameters = self._get_parameters()
        in_path = any(p["in"] == "path" for p in parameters)
        in_query = any(p["in"] == "query" and p["name"] not in PAGINATION for p in parameters)
        headers = {p["name"].lower() for p in parameters if p["in"] == "header"}
        body = method in ("POST", "PUT", "PATCH") and self.get_request_serializer() is not None
        rules = type(self.view).__module__.startswith("scoring.")

        errors: dict[str, OpenApiResponse] = {}
        if writes or in_path or in_query:
            errors["400"] = OpenApiResponse(
                DealProblemSerializer if rules and writes else ValidationProblemSerializer,
                "Refused: the request is invalid or breaks a rule; nothing was changed. `errors` lists "
                "what is wrong (`attr`: the field), `detail` says it in words.",
            )
        if self.view.get_authenticators():
            errors["401"] = OpenApiResponse(
                ProblemSerializer,
                "Credentials missing where they are needed, or wrong (a bad or revoked token).",
            )
        if writes or self._reads_refused():
            errors["403"] = OpenApiResponse(
                ProblemSerializer, "These credentials may not do this (or CSRF failed for a session)."
            )
        if in_path:
            errors["404"] = OpenApiResponse(
                ProblemSerializer, "No such object, or not one these credentials may see."
            )
        if "idempotency-key" in headers:
            errors["409"] = OpenApiResponse(
                DealProblemSerializer,
                "This `Idempotency-Key` was already used for a different deal: nothing was stored.",
            )
        if "if-match" in headers:
            errors["412"] = OpenApiResponse(
                StaleVersionProblemSerializer,
                "`If-Match` named another version of the match than its current one: nothing was changed.",
            )
        if body:
            errors["413"] = OpenApiResponse(
                ProblemSerializer, "The body is larger than any document of this API."
            )
            errors["415"] = OpenApiResponse(
                ProblemSerializer, "A body in a media type this operation does not read."
            )
        errors["429"] = OpenApiResponse(
            ProblemSerializer, "Too many requests (or attempts to log in): wait `Retry-After` seconds."
        )
        return errors

    def _get_response_bodies(self, direction="response") -> dict[str, Any]:
        responses = super()._get_response_bodies(direction)
        if direction != "response":
            return responses
        for code, response in responses.items():  # a refusal the view documents itself is a problem too
            if code.isdigit() and code >= "400" and len(response.get("content", {})) == 1:
                response["content"] = {PROBLEM_MEDIA_TYPE: next(iter(response["content"].values()))}
        for code, response in self._error_responses().items():
            if code not in responses:
                answer = self._get_response_for_code(response, code, [PROBLEM_MEDIA_TYPE], direction)
                if code == "429":
                    answer["headers"] = {**answer.get("headers", {}), **RETRY_AFTER}
                responses[code] = answer
        return responses
