"""The OpenAPI schema documents the refusals every operation can give, with their bodies.

drf-spectacular writes the success answers from the serializers; this adds, to each operation, the
error answers it can give (unless the view documents its own), each an RFC 9457 problem
(``application/problem+json``, api/errors.py) named as a component:

- 400 ``ValidationProblem`` (``DealProblem`` on the scoring app's operations, where the game's rules
  may refuse a deal or a match): writes, and operations with path or query parameters;
- 401 ``Problem``: every operation (credentials that are wrong, revoked or missing where needed);
- 403 ``Problem``: writes, and reads that the view's permissions refuse to someone signed out;
- 404 ``Problem``: paths that name an object;
- 409 ``DealProblem`` and 412 ``StaleVersionProblem``: operations taking ``Idempotency-Key`` and
  ``If-Match``;
- 413 and 415 ``Problem``: operations with a body;
- 429 ``Problem``, with ``Retry-After``: every operation (the API's rates; the login limit).

It also makes the schema read as a club's developer uses it (the pages at /api/docs/ and
/api/redoc/, and a client generated from it):

- the operations grouped by what a club does with them (``TAGS``, in that order), each with a
  summary in words (``OPERATIONS``: the table of every operation, by its id; the ids, from which a
  generated client names its functions, stay as drf-spectacular makes them);
- a read anyone may make lists no credentials at all (``security: [{}]``: no padlock on the page),
  the others the credentials they take; ``POST /api/v1/token/`` none (it takes a password);
- the credentials' descriptions say what to send, the token's placeholder written out.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from django.contrib.auth.models import AnonymousUser
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import get_doc
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers

from api.errors import PROBLEM_MEDIA_TYPE, PROBLEM_TYPES

SAFE = ("GET", "HEAD", "OPTIONS")
# Reads that only the tournament's organizer may make, refused further in than the permission
# classes that _reads_refused asks (the view's ``_managed()``).
ORGANIZER_READS = {"v1_tournaments_console_retrieve", "v1_tournaments_checkin_retrieve"}
PAGINATION = ("limit", "offset")
STANDARD_ACTIONS = ("list", "retrieve", "create", "update", "partial_update", "destroy")

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

    # The metaclass moves a declared field into _declared_fields: Serializer.errors stays the property.
    errors = ProblemErrorSerializer(  # type: ignore[assignment]  # the stubs read it as an override
        many=True, help_text="What is wrong, one item a field"
    )


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
        """The credentials an operation takes. A read anyone may make takes none (``[{}]``: the
        views' own permission classes hide that from drf-spectacular; a token still reads more, a
        private tournament, but the docs pages show no padlock on it);
        a view that asks for no permission at all (the token's, which takes a password) lists none."""
        auths = super().get_auth()  # also registers the security schemes
        if not self.view.get_permissions():
            return []
        if self.method in SAFE and not self._reads_refused():
            return [{}]
        return [auth for auth in auths if auth]

    # drf-spectacular's AutoSchema.get_description takes no arguments (and ignores DRF's the same way).
    def get_description(self) -> str:  # type: ignore[override]  # DRF's ViewInspector's takes two
        """The action's own docstring; else, on the view's usual actions (list, retrieve, create …),
        the view's, which is about them; an extra action without its own says nothing rather than
        repeat the view's."""
        action = getattr(self.view, "action", None)
        own = get_doc(getattr(self.view, action or self.method.lower(), None))
        if own or action not in (None, *STANDARD_ACTIONS):
            return own
        return get_doc(self.view.__class__)

    def _reads_refused(self) -> bool:
        """Whether a read may be refused for its credentials: the view's permissions refuse a read
        to someone signed out (an account's own things, such as its tokens)."""
        if self.get_operation_id() in ORGANIZER_READS:
            return True
        # Any: a stand-in for a signed-out GET, with what permissions read (one that reads more fails).
        request: Any = SimpleNamespace(method="GET", user=AnonymousUser(), auth=None)
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


# The operations as a club uses them ---------------------------------------------------------------

RESULTS = "Tournaments and results"
STANDINGS = "Standings and rankings"
SCORING = "Entering results"
RUNNING = "Running a tournament"
PEOPLE = "Players and clubs"
SEASONS = "Seasons"
PRESETS = "Rule presets"
WEBHOOKS = "Webhooks"
TOKENS = "Tokens and sync"

# The groups, in the pages' order, each with what it is for.
TAGS = {
    RESULTS: "A tournament, its entries, rounds and tables, the matches with their sheets and deals, "
    "and the exports. A public tournament's are read without a token, from any website too.",
    STANDINGS: "The standings with every tie-break, the final ranking, the prize list and a knockout's "
    "bracket; a season's table and the players' ratings. Read without a token, from any website too.",
    SCORING: "Keeping score: start a match, record, correct, delete and check deals, finish it, import a "
    "match file; a table's result from its paper sheet. The match's scorekeepers, or the organizer.",
    RUNNING: "The organizer's evening: create and set up a tournament, register and edit entries, "
    "check-in, draw and start rounds, the clock, the director's console and decisions, the prizes, "
    "the finish.",
    PEOPLE: "Players and teams with their public record (matches, merges, rating); clubs and their "
    "members. Claiming a record as yours, confirming your matches, merging two records of one person.",
    SEASONS: "A club's or a league's events over some dates, counted in one table.",
    PRESETS: "Named rule sets (a game with its options), built in or an organizer's: what a match or a "
    "tournament is played under.",
    WEBHOOKS: "Your server told of a tournament's events (a match finished, a round started or finished, "
    "the standings updated, the tournament finished), each delivery signed (see the quick start).",
    TOKENS: "The account's token, scoped tokens for a website's server or a script, and the removals a "
    "mirror of the API must drop.",
}

# Every operation: its group and its summary, by operation id.
OPERATIONS: dict[str, tuple[str, str]] = {
    # Tournaments and results
    "v1_tournaments_list": (RESULTS, "List the tournaments"),
    "v1_tournaments_retrieve": (RESULTS, "Read a tournament"),
    "v1_tournaments_entries_list": (RESULTS, "A tournament's entries (teams or players)"),
    "v1_tournaments_rounds_list": (RESULTS, "A tournament's rounds, with their tables"),
    "v1_tournaments_rounds_retrieve": (RESULTS, "One round: its tables and their results"),
    "v1_tournaments_adjustments_list": (RESULTS, "The director's decisions: penalties, forfeits, awards"),
    "v1_tournaments_find_retrieve": (RESULTS, "Find your table by name"),
    "v1_tournaments_export_retrieve": (RESULTS, "The whole tournament as one JSON document"),
    "v1_tournaments_deals.csv_retrieve": (RESULTS, "Every deal of the tournament, as CSV"),
    "v1_matches_list": (RESULTS, "List the matches"),
    "v1_matches_retrieve": (RESULTS, "Read a match with its deals and sheet"),
    "v1_matches_deals_list": (RESULTS, "A match's deals, in playing order"),
    "v1_matches_sheet_retrieve": (RESULTS, "A match's score sheet"),
    "v1_matches_file_retrieve": (RESULTS, "A match as a match file (FORMAT.md)"),
    # Standings and rankings
    "v1_tournaments_standings_retrieve": (STANDINGS, "The standings, with every tie-break value"),
    "v1_tournaments_standings.csv_retrieve": (STANDINGS, "The standings, as CSV"),
    "v1_tournaments_ranking_retrieve": (STANDINGS, "The final ranking"),
    "v1_tournaments_ranking.csv_retrieve": (STANDINGS, "The final ranking, as CSV"),
    "v1_tournaments_prizes_retrieve": (STANDINGS, "The prize list"),
    "v1_tournaments_bracket_retrieve": (STANDINGS, "The knockout's bracket"),
    "v1_seasons_table_retrieve": (STANDINGS, "A season's table"),
    "v1_ratings_list": (STANDINGS, "The players by rating, best first"),
    # Entering results
    "v1_matches_create": (SCORING, "Start a match"),
    "v1_matches_import_create": (SCORING, "Import a match from a match file"),
    "v1_matches_deals_create": (SCORING, "Record a deal"),
    "v1_matches_deals_update": (SCORING, "Correct a deal"),
    "v1_matches_deals_destroy": (SCORING, "Delete a deal"),
    "v1_matches_deals_check_create": (SCORING, "Check a deal, for the other team"),
    "v1_matches_finish_create": (SCORING, "End a match now, by agreement"),
    "v1_tournaments_rounds_tables_paper_create": (SCORING, "Enter a table's result from its paper sheet"),
    "v1_tournaments_rounds_tables_paper_destroy": (SCORING, "Remove a table's paper result"),
    # Running a tournament
    "v1_tournaments_create": (RUNNING, "Create a tournament"),
    "v1_tournaments_partial_update": (RUNNING, "Change a tournament's settings"),
    "v1_tournaments_entries_create": (RUNNING, "Register an entry"),
    "v1_tournaments_entries_bulk_create": (RUNNING, "Enter many teams at once, from a list or a CSV file"),
    "v1_tournaments_entries_partial_update": (RUNNING, "Edit an entry: its name, players or number"),
    "v1_tournaments_entries_status_create": (
        RUNNING,
        "Set an entry's status: registered, checked in or withdrawn",
    ),
    "v1_tournaments_entries_reinstate_create": (RUNNING, "Reinstate a withdrawn entry"),
    "v1_tournaments_avoid_create": (RUNNING, "Keep pairs of entries apart when pairing"),
    "v1_tournaments_checkin_retrieve": (RUNNING, "Who is checked in, who is missing, and each team's link"),
    "v1_tournaments_checkin_create": (RUNNING, "Open or close self check-in"),
    "v1_tournaments_checkin_all_create": (RUNNING, "Check in every registered entry at once"),
    "v1_tournaments_start_create": (RUNNING, "Start the tournament"),
    "v1_tournaments_rounds_create": (RUNNING, "Draw the next round"),
    "v1_tournaments_rounds_redraw_create": (RUNNING, "Draw a drawn round again"),
    "v1_tournaments_rounds_swap_create": (RUNNING, "Swap two teams of a drawn round"),
    "v1_tournaments_rounds_destroy": (RUNNING, "Delete a drawn round"),
    "v1_tournaments_rounds_start_create": (RUNNING, "Start a drawn round"),
    "v1_tournaments_rounds_clock_create": (RUNNING, "Start, pause, resume or extend a timed round's clock"),
    "v1_tournaments_console_retrieve": (RUNNING, "The director's console: each table's state, the calls"),
    "v1_tournaments_calls_acknowledge_create": (RUNNING, "Acknowledge a table's call for the director"),
    "v1_tournaments_adjustments_create": (RUNNING, "Give a penalty, a forfeit or a match awarded"),
    "v1_tournaments_adjustments_destroy": (RUNNING, "Take back a director's decision"),
    "v1_tournaments_prizes_update": (RUNNING, "Set the prizes"),
    "v1_tournaments_prizes_partial_update": (RUNNING, "Change the prizes"),
    "v1_tournaments_finish_create": (RUNNING, "Finish the tournament early"),
    # Players and clubs
    "v1_players_list": (PEOPLE, "List the players"),
    "v1_players_retrieve": (PEOPLE, "Read a player"),
    "v1_players_history_list": (PEOPLE, "A player's matches: their public record"),
    "v1_players_rating_retrieve": (PEOPLE, "A player's rating and its history"),
    "v1_players_merges_list": (PEOPLE, "The records merged into a player's"),
    "v1_players_claim_create": (PEOPLE, "Ask to be this player (claim the record)"),
    "v1_players_confirm_create": (PEOPLE, "Say whether a match you sat at counts for you"),
    "v1_players_merge_create": (PEOPLE, "Merge another record of the same person into this one"),
    "v1_players_split_create": (PEOPLE, "Undo a merge of records"),
    "v1_teams_list": (PEOPLE, "List the teams"),
    "v1_teams_retrieve": (PEOPLE, "Read a team"),
    "v1_clubs_list": (PEOPLE, "List the clubs"),
    "v1_clubs_retrieve": (PEOPLE, "Read a club: its members, events and seasons"),
    "v1_clubs_members_create": (PEOPLE, "Add a member to a club"),
    "v1_clubs_members_destroy": (PEOPLE, "A member leaves the club"),
    "v1_clubs_invitations_list": (PEOPLE, "The clubs' invitations waiting for your answer"),
    "v1_clubs_invitation_create": (PEOPLE, "Accept or decline a club's invitation"),
    # Seasons
    "v1_seasons_list": (SEASONS, "List the seasons"),
    "v1_seasons_retrieve": (SEASONS, "Read a season"),
    "v1_seasons_create": (SEASONS, "Create a season"),
    "v1_seasons_partial_update": (SEASONS, "Change a season"),
    "v1_seasons_destroy": (SEASONS, "Delete a season"),
    # Rule presets
    "v1_presets_list": (PRESETS, "List the rule presets"),
    "v1_presets_retrieve": (PRESETS, "Read a rule preset"),
    "v1_presets_create": (PRESETS, "Save a rule preset: a copy of another with changes"),
    "v1_presets_partial_update": (PRESETS, "Change a rule preset"),
    "v1_presets_destroy": (PRESETS, "Delete a rule preset"),
    # Webhooks
    "v1_webhooks_list": (WEBHOOKS, "List your webhooks"),
    "v1_webhooks_retrieve": (WEBHOOKS, "Read a webhook"),
    "v1_webhooks_create": (WEBHOOKS, "Register a webhook"),
    "v1_webhooks_partial_update": (WEBHOOKS, "Change, pause or resume a webhook"),
    "v1_webhooks_destroy": (WEBHOOKS, "Delete a webhook"),
    "v1_webhooks_secret_create": (WEBHOOKS, "Give a webhook a new signing secret"),
    "v1_webhooks_deliveries_list": (WEBHOOKS, "A webhook's deliveries, newest first"),
    "v1_webhooks_deliveries_redeliver_create": (WEBHOOKS, "Send a delivery again"),
    # Tokens and sync
    "v1_token_create": (TOKENS, "Get your account's token, with your username and password"),
    "v1_tokens_list": (TOKENS, "List your scoped tokens"),
    "v1_tokens_create": (TOKENS, "Make a scoped token"),
    "v1_tokens_destroy": (TOKENS, "Revoke a scoped token"),
    "v1_changes_list": (TOKENS, "What a mirror must drop: the removals since a moment"),
}

# What each kind of credentials is, and what to send: the placeholder written out.
SCHEME_DESCRIPTIONS = {
    "tokenAuth": "The account's own token, from `POST /api/v1/token/` (username and password). Send it "
    "as `Authorization: Token <your token>`. In this page's Authorize box, type the word `Token`, a "
    "space, then the token.",
    "cookieAuth": "The session of a browser signed in on this site (this page's own requests use it). "
    "A write also sends the CSRF token.",
}
SCOPED_TOKEN_PLACEHOLDER = (
    "Send it as `Authorization: Bearer <your tsx_… key>`; in this page's Authorize box, paste the key alone."
)


def group_and_summarize(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """drf-spectacular's postprocessing hook: each operation's group and summary from ``OPERATIONS``
    (an operation not there keeps its view's, and a test fails), the groups from ``TAGS``, and the
    credentials' descriptions."""
    result["tags"] = [{"name": name, "description": text} for name, text in TAGS.items()]
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            known = OPERATIONS.get(operation.get("operationId", ""))
            if known is not None:
                operation["tags"], operation["summary"] = [known[0]], known[1]
    schemes = result.get("components", {}).get("securitySchemes", {})
    for name, text in SCHEME_DESCRIPTIONS.items():
        if name in schemes:
            schemes[name]["description"] = text
    if "scopedToken" in schemes:
        scoped = schemes["scopedToken"]
        scoped["description"] = f"{scoped.get('description', '')} {SCOPED_TOKEN_PLACEHOLDER}".strip()
    return result
