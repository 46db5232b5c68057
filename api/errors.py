"""Every refusal of the API in one shape: RFC 9457 problem details (``application/problem+json``).

drf-standardized-errors catches every exception a DRF view raises (settings: ``EXCEPTION_HANDLER``
and ``DRF_STANDARDIZED_ERRORS``); its handler and formatter are subclassed here so that the body is

    {"type": "https://tsoxa.app/problems/validation-error", "title": "Invalid request",
     "status": 400, "detail": "name: This field is required.", "instance": "/api/v1/tournaments/",
     "errors": [{"attr": "name", "code": "required", "detail": "This field is required."}]}

``type`` names the kind of problem (``PROBLEM_TYPES``: an address on this site, ``/api/problems/#<kind>``,
whose page says what each kind means and what to do about it), ``title``
says it in a few words, ``status`` is the HTTP status, ``detail`` what went wrong this time in plain
words and ``instance`` the path asked for. Every 400 lists what is wrong under ``errors``, one item
a field (``attr``: the field's path, ``teams.0.name``, or null for the request as a whole). Members
of our own: ``field`` and ``deal`` when the game's rules refuse a deal or a match (and on a 409),
``version`` on a 412.

Our refusals become problems here: the rules' (``ScoringError``) and the organizers' (players',
tournaments', seasons') refusals are 400s with their words; a change asked for on an older version of
the match is a 412, a client key reused for another deal a 409, a body over
``DATA_UPLOAD_MAX_MEMORY_SIZE`` a 413. Anything else unexpected is a 500 problem (unless ``DEBUG``,
where Django shows the traceback). Outside DRF, ``problem_response`` answers the same shape: the
login limit's 429 (``web.views.ratelimited``) and an unknown path under ``/api/``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.http import Http404, HttpRequest, JsonResponse
from django.utils.encoding import escape_uri_path
from django.utils.functional import Promise
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _
from drf_standardized_errors.formatter import ExceptionFormatter, flatten_errors
from drf_standardized_errors.handler import ExceptionHandler
from drf_standardized_errors.types import Error
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.settings import api_settings

from api.throttles import refused_credentials_counted
from league.services import SeasonError
from players.errors import PlayerError
from scoring.engine import ScoringError
from scoring.messages import engine_message
from scoring.services import IdempotencyConflict, StaleSheet
from tournaments.services import TournamentError

PROBLEM_MEDIA_TYPE = "application/problem+json"
PROBLEM_PATH = "/api/problems/"  # the page that documents every type (web/views.py: problems)


@dataclass(frozen=True)
class ProblemType:
    """A kind of problem: its stable URI (``type``), its title, the status it usually comes with and
    what it means for a client (the problem types' page; for developers, in English like the API's
    docs)."""

    slug: str
    title: Promise
    status: int
    means: str = ""

    @property
    def uri(self) -> str:
        """``<TSOXA_SITE_URL>/api/problems/#<slug>``: absolute, as RFC 9457 asks, and a page that
        explains it when followed."""
        return f"{settings.TSOXA_SITE_URL.rstrip('/')}{PROBLEM_PATH}#{self.slug}"


VALIDATION_ERROR = ProblemType(
    "validation-error",
    _("Invalid request"),
    400,
    (
        "Some members of the request are missing or wrong: `errors` lists each, its `attr` the member's "
        "path (null: the request as a whole). Mend them and send again; nothing was changed."
    ),
)
MALFORMED_REQUEST = ProblemType(
    "malformed-request",
    _("Unreadable request body"),
    400,
    "The body could not be read (not JSON, or nested too deep). Nothing was changed.",
)
RULES_VIOLATION = ProblemType(
    "rules-violation",
    _("Refused by the game's rules"),
    400,
    (
        "The game's rules refuse the deal or the match: `field` names the member as the match file spells"
        " it and `deal` the deal's position (from 0) when it is about one. Nothing was recorded."
    ),
)
REFUSED = ProblemType(
    "refused",
    _("Request refused"),
    400,
    (
        "An organizer's, a club's or a season's rule refuses the request (a tournament already started, a"
        " member twice …): `detail` says which. Nothing was changed."
    ),
)
NOT_AUTHENTICATED = ProblemType(
    "not-authenticated",
    _("Not authenticated"),
    401,
    "No credentials, or wrong ones: send `Authorization: Token <key>` or `Authorization: Bearer tsx_…`.",
)
PERMISSION_DENIED = ProblemType(
    "permission-denied",
    _("Permission denied"),
    403,
    (
        "These credentials may not do this: another account's match or tournament, or a token whose scope"
        " does not allow the write."
    ),
)
NOT_FOUND = ProblemType(
    "not-found",
    _("Not found"),
    404,
    (
        "Nothing at this path, or nothing these credentials may see (a private tournament's answers are "
        "404s to others)."
    ),
)
METHOD_NOT_ALLOWED = ProblemType(
    "method-not-allowed",
    _("Method not allowed"),
    405,
    "This path does not take this method: the schema lists those it takes.",
)
NOT_ACCEPTABLE = ProblemType(
    "not-acceptable",
    _("Not acceptable"),
    406,
    "The `Accept` header asks for a format this path does not answer in.",
)
CONFLICT = ProblemType(
    "conflict",
    _("Conflict with the current state"),
    409,
    "The request conflicts with the current state of what it names: read it again.",
)
IDEMPOTENCY_CONFLICT = ProblemType(
    "idempotency-conflict",
    _("Idempotency key already used"),
    409,
    (
        "This `Idempotency-Key` was already used for a different deal: nothing was stored. Use a new key "
        "for a new deal; the same key again only for the same deal."
    ),
)
STALE_VERSION = ProblemType(
    "stale-version",
    _("The match has changed"),
    412,
    (
        "`If-Match` named another version of the match than its current one (`version`): read the match "
        "again, then send the change again if it still holds. Nothing was changed."
    ),
)
BODY_TOO_LARGE = ProblemType(
    "body-too-large",
    _("Request body too large"),
    413,
    "The body is larger than any document of this API; nothing was read.",
)
UNSUPPORTED_MEDIA_TYPE = ProblemType(
    "unsupported-media-type",
    _("Unsupported media type"),
    415,
    "The body's `Content-Type` is not one this path reads: send `application/json`.",
)
THROTTLED = ProblemType(
    "throttled",
    _("Too many requests"),
    429,
    "Too many requests from these credentials or this address: wait the seconds `Retry-After` says.",
)
SERVER_ERROR = ProblemType(
    "server-error",
    _("Server error"),
    500,
    (
        "Something failed on our side; the request may not have been carried out. Try again later; the "
        "error is logged."
    ),
)

PROBLEM_TYPES = (
    VALIDATION_ERROR,
    MALFORMED_REQUEST,
    RULES_VIOLATION,
    REFUSED,
    NOT_AUTHENTICATED,
    PERMISSION_DENIED,
    NOT_FOUND,
    METHOD_NOT_ALLOWED,
    NOT_ACCEPTABLE,
    CONFLICT,
    IDEMPOTENCY_CONFLICT,
    STALE_VERSION,
    BODY_TOO_LARGE,
    UNSUPPORTED_MEDIA_TYPE,
    THROTTLED,
    SERVER_ERROR,
)
# The type of a refusal known only by its status; any other status is RFC 9457's "about:blank".
BY_STATUS = {
    problem.status: problem
    for problem in (
        NOT_AUTHENTICATED,
        PERMISSION_DENIED,
        NOT_FOUND,
        METHOD_NOT_ALLOWED,
        NOT_ACCEPTABLE,
        CONFLICT,
        BODY_TOO_LARGE,
        UNSUPPORTED_MEDIA_TYPE,
        THROTTLED,
        SERVER_ERROR,
    )
}


def problem_body(
    problem: ProblemType | None, *, status: int, detail: str, instance: str, **members: Any
) -> dict[str, Any]:
    """The problem details object, its standard members first."""
    if problem is None:
        kind, title = "about:blank", HTTPStatus(status).phrase
    else:
        kind, title = problem.uri, str(problem.title)
    return {"type": kind, "title": title, "status": status, "detail": detail, "instance": instance, **members}


def problem_response(request: HttpRequest, problem: ProblemType, detail: str, **members: Any) -> JsonResponse:
    """A problem answered outside DRF (a plain Django view), in the same shape."""
    body = problem_body(
        problem, status=problem.status, detail=detail, instance=escape_uri_path(request.path), **members
    )
    return JsonResponse(body, status=problem.status, content_type=PROBLEM_MEDIA_TYPE)


class Problem(exceptions.APIException):
    """One of our refusals, with its problem type, its ``errors`` (a 400) and members of its own."""

    def __init__(
        self,
        problem: ProblemType,
        detail: str,
        *,
        code: str,
        attr: str | None = None,
        **members: Any,
    ) -> None:
        super().__init__(detail=detail, code=code)
        self.status_code = problem.status
        self.problem = problem
        self.error = Error(code=code, detail=detail, attr=attr)
        self.members = members


def _attr(field: str | None) -> str | None:
    """A field as the match file spells it (``teams[0].players[1]``, ``melds[1][0]``) written as
    ``errors`` spell a field's path (``teams.0.players.1``, ``melds.1.0``)."""
    if not field:
        return None
    return re.sub(r"\[(\d+)\]", r".\1", field)


def as_problem(exc: Exception) -> Exception:
    """Our services' refusals and Django's own exceptions as the API exceptions they answer."""
    if isinstance(exc, StaleSheet):
        # If-Match named another version: nothing was changed; here is the version to read and retry on.
        return Problem(STALE_VERSION, str(exc), code="stale_version", version=exc.version)
    if isinstance(exc, IdempotencyConflict):
        return Problem(
            IDEMPOTENCY_CONFLICT, str(exc), code="idempotency_conflict", field="Idempotency-Key", deal=None
        )
    if isinstance(exc, ScoringError):
        # The deal's position and the field as they are (a number, a name or null), not as strings.
        return Problem(
            RULES_VIOLATION,
            str(exc),
            code="refused_by_rules",
            attr=_attr(exc.field),
            field=exc.field,
            deal=exc.deal,
        )
    if isinstance(exc, PlayerError):  # a club's member, admin or details refused
        return Problem(REFUSED, engine_message(exc.message), code="refused", attr=_attr(exc.field))
    if isinstance(exc, SeasonError):
        return Problem(REFUSED, str(exc), code="refused", attr=_attr(exc.field))
    if isinstance(exc, TournamentError):
        return Problem(REFUSED, str(exc), code="refused")
    if isinstance(exc, RequestDataTooBig):
        # DRF reads a JSON or form body through request.body, where Django refuses one over
        # DATA_UPLOAD_MAX_MEMORY_SIZE before reading it: say so, rather than Django's bare 400 page.
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        detail = gettext("The body is larger than %(limit)s bytes, more than any document of this API.")
        return Problem(BODY_TOO_LARGE, detail % {"limit": limit}, code="body_too_large")
    if isinstance(exc, Http404):  # its words kept, as DRF's own handler keeps them
        return exceptions.NotFound(*exc.args)
    if isinstance(exc, PermissionDenied):
        return exceptions.PermissionDenied(*exc.args)
    return exc


class ProblemHandler(ExceptionHandler):
    """drf-standardized-errors' handler, knowing our refusals, answering ``application/problem+json``."""

    def convert_known_exceptions(self, exc: Exception) -> Exception:
        if isinstance(exc, (exceptions.NotAuthenticated, exceptions.AuthenticationFailed)):
            # Refused before the throttle was asked: counted at the address's anonymous rate all the
            # same (api/throttles.py), a 429 past it, so that guessing tokens is limited.
            request, view = self.context.get("request"), self.context.get("view")
            if request is not None:
                exc = refused_credentials_counted(request, view) or exc
        return as_problem(exc)

    def get_response(self, exc: exceptions.APIException, data: dict) -> Response:
        return ProblemResponse(data, status=exc.status_code, headers=self.get_headers(exc))


class ProblemResponse(Response):
    """A DRF answer whose JSON is labelled ``application/problem+json`` (the browsable API's HTML,
    for a browser that asked for it, keeps its own type)."""

    @property
    def rendered_content(self):
        renderer = getattr(self, "accepted_renderer", None)
        if renderer is not None and renderer.format == "json":
            self.content_type = PROBLEM_MEDIA_TYPE
        return super().rendered_content


class ProblemFormatter(ExceptionFormatter):
    """The body of an API exception as problem details (the module's docstring)."""

    def run(self) -> dict[str, Any]:
        exc = self.exc
        errors = self.get_errors()
        members: dict[str, Any] = {}
        problem: ProblemType | None  # None: a status with no type of its own (about:blank)
        if isinstance(exc, Problem):
            problem, detail = exc.problem, str(exc.detail)
            members = exc.members
        elif isinstance(exc, exceptions.ValidationError):
            problem, detail = VALIDATION_ERROR, summary(errors)
        elif isinstance(exc, exceptions.ParseError):
            problem, detail = MALFORMED_REQUEST, summary(errors)
        elif exc.status_code == 400:
            problem, detail = VALIDATION_ERROR, summary(errors)
        else:
            problem = BY_STATUS.get(exc.status_code)
            detail = str(exc.detail) if isinstance(exc.detail, str) else summary(errors)
        if exc.status_code == 400 or problem is IDEMPOTENCY_CONFLICT:
            listed = [{"attr": error.attr, "code": error.code, "detail": error.detail} for error in errors]
            members = {"errors": listed, **members}
        request = self.context.get("request")
        return problem_body(
            problem,
            status=exc.status_code,
            detail=detail,
            instance=escape_uri_path(request.path) if request is not None else "",
            **members,
        )

    def get_errors(self) -> list[Error]:
        if isinstance(self.exc, Problem):
            return [self.exc.error]
        return [
            Error(error.code, error.detail, _field_path(error.attr))
            for error in flatten_errors(self.exc.detail)
        ]


def _field_path(attr: str | None) -> str | None:
    """The request as a whole is null: DRF's ``non_field_errors`` (at the top or in a nested object)
    and a top-level ``detail`` key (``ValidationError({"detail": …})``, a message for the request)."""
    if attr is None or attr == "detail":
        return None
    key = api_settings.NON_FIELD_ERRORS_KEY
    if attr == key:
        return None
    return attr.removesuffix("." + key)


def summary(errors: list[Error]) -> str:
    """A 400's ``detail``: its first error (with the field it concerns), and how many more there are."""
    if not errors:
        return gettext("The request is invalid.")
    first = errors[0]
    text = f"{first.attr}: {first.detail}" if first.attr else first.detail
    more = len(errors) - 1
    if not more:
        return text
    return ngettext("%(first)s (and %(count)d more error)", "%(first)s (and %(count)d more errors)", more) % {
        "first": text,
        "count": more,
    }
