"""Webhooks pages: a tournament's (its organizer's) and a club's (its admins'), and each
subscription's page: its secret, pause and resume, a new secret, delete, and its delivery log with a
Redeliver button. Thin: a form, a service, a message, back to the page."""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from players.models import Club
from tournaments.models import Tournament

from . import selectors, services
from .forms import EVENT_LABELS, STATUS_LABELS, SubscriptionForm
from .models import Delivery, Subscription

LOG_SIZE = 50  # deliveries on the page (the API pages through all of them)


def _subscriptions(**owner: Any) -> list[Subscription]:
    found = list(
        Subscription.objects.filter(**owner).select_related("created_by").order_by("-created_at", "-pk")
    )
    for subscription in found:
        subscription.event_labels = [EVENT_LABELS.get(e, e) for e in subscription.events]
    return found


def _owner_page(
    request: HttpRequest, *, owner: Tournament | Club, kind: str, template_context: dict[str, Any]
) -> HttpResponse:
    """The list and the form to add one, for a tournament or a club."""
    form = SubscriptionForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            subscription = services.subscription_create(
                user=request.user,
                url=form.cleaned_data["url"],
                events=form.cleaned_data["events"],
                tournament=owner if isinstance(owner, Tournament) else None,
                club=owner if isinstance(owner, Club) else None,
            )
        except services.WebhookError as error:
            form.add_error(error.field if error.field in form.fields else None, error.message)
        else:
            messages.success(
                request,
                gettext("Webhook added. Copy its secret to your server: it signs every delivery."),
            )
            return redirect("webhooks:detail", pk=subscription.pk)
    context = {**template_context, "form": form, "subscriptions": _subscriptions(**{kind: owner})}
    return render(request, "webhooks/list.html", context, status=422 if form.errors else 200)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def tournament_webhooks(request: HttpRequest, slug: str) -> HttpResponse:
    """A tournament's webhooks: its organizer's only (anyone else: no such page)."""
    tournament = get_object_or_404(Tournament, slug=slug)
    if not selectors.may_manage_tournament(request.user, tournament):
        raise Http404("No such tournament.")
    return _owner_page(
        request, owner=tournament, kind="tournament", template_context={"tournament": tournament}
    )


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def club_webhooks(request: HttpRequest, slug: str) -> HttpResponse:
    """A club's webhooks (the events of each of its public tournaments): its admins' only."""
    club = get_object_or_404(Club, slug=slug)
    if not selectors.may_manage_club(request.user, club):
        raise PermissionDenied(gettext("Only the club's admins manage it."))
    return _owner_page(request, owner=club, kind="club", template_context={"club": club})


def _managed(request: HttpRequest, pk: int) -> Subscription:
    subscription = get_object_or_404(
        Subscription.objects.select_related("tournament", "club", "created_by"), pk=pk
    )
    if not selectors.may_manage(request.user, subscription):
        raise Http404("No such webhook.")
    return subscription


def _log(subscription: Subscription) -> list[Delivery]:
    """The newest deliveries, each with its attempts, its last answer and its body laid out."""
    deliveries = list(selectors.delivery_log(subscription=subscription)[:LOG_SIZE])
    for delivery in deliveries:
        attempts = list(delivery.log.all())
        delivery.last = attempts[-1] if attempts else None
        delivery.attempt_rows = attempts
        delivery.status_label = STATUS_LABELS.get(delivery.status, delivery.status)
        delivery.event_label = EVENT_LABELS.get(delivery.event, delivery.event)
        try:
            delivery.pretty = json.dumps(json.loads(delivery.body), indent=2, ensure_ascii=False)
        except ValueError:
            delivery.pretty = delivery.body
    return deliveries


def _back(subscription: Subscription) -> tuple[str, list[Any]]:
    if subscription.tournament is not None:
        return "webhooks:tournament", [subscription.tournament.slug]
    assert subscription.club is not None  # the table's constraint: a tournament or a club
    return "webhooks:club", [subscription.club.slug]


def _edit(request: HttpRequest, subscription: Subscription) -> tuple[str | None, SubscriptionForm | None]:
    form = SubscriptionForm(request.POST)
    if not form.is_valid():
        return None, form
    try:
        services.subscription_update(
            subscription=subscription, url=form.cleaned_data["url"], events=form.cleaned_data["events"]
        )
    except services.WebhookError as error:
        form.add_error(error.field if error.field in form.fields else None, error.message)
        return None, form
    return gettext("Saved."), None


@never_cache  # the page shows the secret
@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def subscription_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A webhook: its address, events and secret, what it does now, and its delivery log. Each form
    posts ``action``: edit, pause, resume, rotate (a new secret) or delete."""
    subscription = _managed(request, pk)
    form = None
    if request.method == "POST":
        action = request.POST.get("action", "")
        done = None
        if action == "edit":
            done, form = _edit(request, subscription)
        elif action == "pause":
            services.subscription_pause(subscription=subscription)
            done = gettext("Paused: nothing is sent until you resume it.")
        elif action == "resume":
            services.subscription_resume(subscription=subscription)
            done = gettext("Resumed: the next events are sent.")
        elif action == "rotate":
            services.subscription_rotate(subscription=subscription)
            done = gettext("A new secret: put it on your server, the old one no longer signs anything.")
        elif action == "delete":
            page, args = _back(subscription)
            services.subscription_delete(subscription=subscription)
            messages.success(request, gettext("Webhook deleted."))
            return redirect(page, *args)
        else:
            messages.error(request, gettext("Unknown action."))
            return redirect("webhooks:detail", pk=subscription.pk)
        if done is not None:
            messages.success(request, done)
            return redirect("webhooks:detail", pk=subscription.pk)
    subscription.refresh_from_db()
    subscription.event_labels = [EVENT_LABELS.get(e, e) for e in subscription.events]
    back, args = _back(subscription)
    context = {
        "subscription": subscription,
        "owner": subscription.tournament or subscription.club,
        "back": back,
        "back_args": args[0],
        "form": form or SubscriptionForm(initial={"url": subscription.url, "events": subscription.events}),
        "deliveries": _log(subscription),
        "pause_after": services.pause_after(),
    }
    return render(request, "webhooks/detail.html", context, status=422 if form is not None else 200)


@login_required
@require_POST
def redeliver(request: HttpRequest, pk: int, delivery: str) -> HttpResponse:
    """Send one delivery again (the worker does, after this answer): the same body, signed anew."""
    subscription = _managed(request, pk)
    found = get_object_or_404(Delivery, pk=delivery, subscription=subscription)
    try:
        services.delivery_redeliver(delivery=found)
    except services.WebhookError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, gettext("Sent again: its new attempt appears in the log."))
    return redirect("webhooks:detail", pk=subscription.pk)
