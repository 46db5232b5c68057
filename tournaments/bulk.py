"""Bulk entry's page, and the player pickers of the team form (the organizer's).

- ``entries_bulk``: paste a list or upload a CSV, "Preview" shows it line by line (the records each
  name matches, chosen by a select; what is wrong, in red), "Enter these N teams" saves them all or
  nothing. The text previewed goes back and forth in a hidden field: nothing is kept on the server
  between the two steps. Works without JavaScript.
- ``entry_player_search``: the team form's suggestions as the organizer types a player's name (an
  htmx partial under the field); a suggestion picked fills the field's hidden id.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_http_methods, require_safe

from scoring import selectors as scoring_selectors

from . import services
from .models import Tournament
from .services.bulk import MOST_BYTES
from .views import manage_url, organizer_only

PICK_FIELDS = {"player_a": "player_a_id", "player_b": "player_b_id", "name": "player_id"}


@organizer_only
@require_http_methods(["GET", "HEAD", "POST"])
def entries_bulk(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Preview a paste (or a CSV), then enter it; a refusal shows the preview again (a 422)."""
    text, preview, error = "", None, None
    if request.method == "POST":
        upload = request.FILES.get("file")
        text = request.POST.get("text", "")
        try:
            if upload is not None:
                text = services.bulk_text_from_file(upload.read(MOST_BYTES + 1))
            previewed = request.POST.get("previewed")
            # The choices made in the selects count for the text they were made for only.
            same = upload is None and previewed is not None and previewed == text
            choices = services.bulk_choices(request.POST) if same else None
            if request.POST.get("action") == "confirm" and same:
                entries = services.entries_bulk_create(
                    tournament=tournament, text=text, choices=choices, user=request.user
                )
                count = len(entries)
                if tournament.format == Tournament.Format.INDIVIDUAL:
                    done = ngettext("%(count)d player entered.", "%(count)d players entered.", count)
                else:
                    done = ngettext("%(count)d team entered.", "%(count)d teams entered.", count)
                messages.success(request, done % {"count": count})
                return redirect(manage_url(tournament, "entries"))
            preview = services.entries_bulk_preview(
                tournament=tournament, text=text, choices=choices, user=request.user
            )
        except services.BulkRefused as refused:
            preview = refused.preview
        except services.TournamentError as refusal:
            error = str(refusal)
    context = {"tournament": tournament, "text": text, "preview": preview, "error": error}
    wrong = error is not None or (preview is not None and not preview.ok)
    return render(request, "tournaments/entries_bulk.html", context, status=422 if wrong else 200)


@organizer_only
@require_safe
def entry_player_search(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The records whose name holds what is typed in a field of the team form (``?field=player_a``
    and the field's value), those who played last first; or, with ``?pick=<id>``, the field filled
    with that record (its hidden id set). Typing clears the id picked before (out of band)."""
    field = request.GET.get("field", "")
    if field not in PICK_FIELDS:
        field = "player_a"
    pick = request.GET.get("pick", "")
    label = gettext("Partner") if field == "player_b" else gettext("Player")
    context = {"tournament": tournament, "field": field, "id_field": PICK_FIELDS[field], "label": label}
    if pick.isdigit():
        shown = scoring_selectors.visible_players(request.user).filter(pk=int(pick), merged_into__isnull=True)
        player = shown.first()
        context.update(value=player.name if player else "", picked=player.pk if player else "")
        return render(request, "tournaments/_entry_player.html", context)
    query = request.GET.get(field, request.GET.get("q", ""))[:80]
    found = scoring_selectors.player_search(query=query, user=request.user)
    context.update(found=found, query=query)
    return render(request, "tournaments/_entry_player.html#picks", context)
