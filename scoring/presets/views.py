"""The presets' pages: every preset by game, one preset's rules in words, and an organizer's copy with
changes (its owner changes or deletes it). Thin: the form collects, ``scoring.presets`` decides."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from .. import engine, presets
from ..messages import engine_sentence, game_name
from ..permissions import can_write
from .forms import PresetForm

INVALID = 422


def _found(slug: str) -> presets.Preset:
    preset = presets.preset_get(slug)
    if preset is None or preset.slug != slug:  # by its slug only: one address a preset
        raise Http404("No such preset.")
    return preset


def _owned(request: HttpRequest, slug: str) -> presets.Preset:
    """A saved preset its owner (or a superuser) may change; a built-in one or another's: 403."""
    preset = _found(slug)
    if not preset.may_change(request.user) or not can_write(request.user):
        raise PermissionDenied(gettext("Only the preset's owner may change it: make a copy of it instead."))
    return preset


@require_safe
def preset_list(request: HttpRequest) -> HttpResponse:
    """Every preset, grouped by game in the games' order, built-in ones first."""
    by_game: dict[str, list[presets.Preset]] = {key: [] for key in engine.RULESETS}
    for preset in presets.preset_list():
        by_game[preset.ruleset].append(preset)
    games = [(key, game_name(key), found) for key, found in by_game.items()]
    context = {"games": games, "can_copy": can_write(request.user)}
    return render(request, "scoring/presets.html", context)


@require_safe
def preset_detail(request: HttpRequest, slug: str) -> HttpResponse:
    preset = _found(slug)
    context = {
        "preset": preset,
        "rows": presets.option_rows(preset),
        "can_copy": can_write(request.user),
        "can_change": preset.may_change(request.user) and can_write(request.user),
    }
    return render(request, "scoring/preset.html", context)


def _form_page(request: HttpRequest, form: PresetForm, preset: presets.Preset | None) -> HttpResponse:
    status = INVALID if form.errors else 200
    # The base apart from the form: ``form.base`` would be Coinche's option of that name in a template.
    context = {"form": form, "preset": preset, "base": form.base}
    return render(request, "scoring/preset_form.html", context, status=status)


def _saved(request: HttpRequest, form: PresetForm, preset: Any, save: Callable[[], Any]) -> HttpResponse:
    """Save through the service: its refusal shown on the form (422, nothing saved), else the preset's
    page with a word that it is saved."""
    try:
        saved = save()
    except engine.ScoringError as error:
        form.add_refusal(error.field, engine_sentence(error.message))
        return _form_page(request, form, preset)
    messages.success(request, gettext("%(name)s saved.") % {"name": saved.name})
    return redirect("scoring:preset", slug=saved.slug)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def preset_new(request: HttpRequest) -> HttpResponse:
    """A copy with changes of the preset (or the game's defaults) named by ``?from=``, named."""
    if not can_write(request.user):
        raise PermissionDenied(gettext("This account reads only: it cannot make presets."))
    source = request.POST.get("from") or request.GET.get("from") or ""
    if not source:
        return redirect("scoring:presets")
    try:
        base = presets.preset_base(source)
    except engine.ScoringError:
        raise Http404("No such preset or game.") from None
    form = PresetForm(request.POST or None, base=base)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        return _saved(
            request,
            form,
            None,
            lambda: presets.preset_create(
                owner=request.user,
                base=base,
                name=d["name"],
                changes=form.changes(),
                about=d["about"],
                time_limit=d["time_limit"],
            ),
        )
    return _form_page(request, form, None)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def preset_edit(request: HttpRequest, slug: str) -> HttpResponse:
    preset = _owned(request, slug)
    form = PresetForm(request.POST or None, base=preset, editing=True)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        return _saved(
            request,
            form,
            preset,
            lambda: presets.preset_update(
                preset=preset,
                user=request.user,
                changes=form.changes(),
                about=d["about"],
                time_limit=d["time_limit"],
            ),
        )
    return _form_page(request, form, preset)


@login_required
@require_POST
def preset_delete(request: HttpRequest, slug: str) -> HttpResponse:
    preset = _owned(request, slug)
    presets.preset_delete(preset=preset, user=request.user)
    messages.success(
        request,
        gettext("%(name)s deleted. The matches and tournaments played under it keep its rules.")
        % {"name": preset.name},
    )
    return redirect("scoring:presets")
