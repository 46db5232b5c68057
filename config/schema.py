"""The OpenAPI schema documents the refusals every operation can give, with their bodies.

drf-spectacular writes the success answers from the serializers; this adds, to each operation,
the error answers it can give (unless the view documents its own): 400 for a refused request,
401/403 for writes without the right, 404 where the path names an object, 412 and 409 for the
match writes that take ``If-Match`` and ``Idempotency-Key``, 429 for the rate-limited ones.
"""

from __future__ import annotations

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers

SAFE = ("GET", "HEAD", "OPTIONS")


class ErrorSerializer(serializers.Serializer):
    """A refusal: what is wrong, in plain words."""

    detail = serializers.CharField()


class DealErrorSerializer(ErrorSerializer):
    """A refused match or deal: the field and the deal (its position, from 0) it concerns, if any."""

    field = serializers.CharField(allow_null=True, required=False)
    deal = serializers.IntegerField(allow_null=True, required=False)


class StaleVersionSerializer(ErrorSerializer):
    """``If-Match`` named an older version of the match: nothing was changed."""

    version = serializers.IntegerField(help_text="The match's version now: read it, then try again")


def _error(serializer, description: str) -> OpenApiResponse:
    return OpenApiResponse(response=serializer, description=description)


class TsoxaAutoSchema(AutoSchema):
    # Operations that write a match: (path ends with, method) -> extra answers.
    MATCH_WRITES = ("/deals/", "/deals/{deal_id}/", "/finish/")

    def _error_responses(self) -> dict[str, OpenApiResponse]:
        path, method = self.path, self.method
        errors: dict[str, OpenApiResponse] = {}
        writes = method not in SAFE
        if writes or self.get_filter_backends() or "{" in path:
            errors["400"] = _error(
                DealErrorSerializer if path.startswith("/api/v1/matches") else ErrorSerializer,
                "Refused: the request breaks a rule; nothing was changed. `detail` says why.",
            )
        if writes:
            errors["401"] = _error(ErrorSerializer, "No credentials (send `Authorization: Token …`).")
            errors["403"] = _error(ErrorSerializer, "These credentials may not do this (or CSRF failed).")
        if "{" in path:
            errors["404"] = _error(ErrorSerializer, "No such object, or not one these credentials may see.")
        if writes and path.startswith("/api/v1/matches/{id}") and path.endswith(self.MATCH_WRITES):
            errors["412"] = _error(
                StaleVersionSerializer,
                "`If-Match` named another version of the match than its current one: nothing was changed.",
            )
            if method == "POST" and path.endswith("/deals/"):
                errors["409"] = _error(
                    DealErrorSerializer,
                    "This `Idempotency-Key` was already used for a different deal: nothing was stored.",
                )
        if path.endswith("/token/"):
            errors["429"] = _error(ErrorSerializer, "Too many attempts from this address or for this name.")
        return errors

    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        if direction != "response":
            return responses
        for code, response in self._error_responses().items():
            if code not in responses:
                responses[code] = self._get_response_for_code(response, code, direction=direction)
        return responses
