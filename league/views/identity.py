"""Who a player is, on the player pages: an account claims a record ("This is me"), a decider (the
site's staff, a club or an event with a say: ``league.permissions``) decides the claims, merges two
records of one person and splits a wrong merge; the staff take a claim's decision back; a claimed
player's account answers a club's invitation.

The services are ``players.identity_services``; who may do what, ``league.permissions``. A record this account
may not see is a 404 (as on the player page); one it sees but may not decide for, a 403. After a
merge or a split the ratings are computed again (``league.ratings.ratings_request``).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from league import identity_selectors as selectors
from league import permissions, ratings, records
from players import club_services as clubs
from players import identity_services as identity
from players.errors import PlayerError
from players.models import Player, PlayerClaim, PlayerMerge
from scoring.selectors import visible_players

CANDIDATES_MOST = 20  # records offered by the merge page's search
DECIDED_MOST = 50  # decided claims the staff see on the claims page, the latest first


def _visible(request: HttpRequest, pk: int) -> Player:
    try:
        return records.player_get(pk=pk, user=request.user)
    except Player.DoesNotExist:
        raise Http404(gettext("No such player.")) from None


class ClaimForm(forms.Form):
    message = forms.CharField(
        max_length=identity.MESSAGE_MOST,
        required=False,
        label=_("How can the club tell it is you?"),
        help_text=_("For example: your club, your usual partner, the events you played."),
        widget=forms.Textarea(attrs={"rows": 3}),
    )


class MergeForm(forms.Form):
    """The other record (picked by the search), which of the two keeps its name and page, and why."""

    other = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    keep = forms.ChoiceField(
        choices=[("this", _("This record")), ("other", _("The other record"))],
        initial="this",
        widget=forms.RadioSelect,
        label=_("Keep the name and page of"),
    )
    reason = forms.CharField(
        max_length=identity.MESSAGE_MOST,
        required=False,
        label=_("Why (kept with the merge)"),
        widget=forms.TextInput(attrs={"placeholder": _("The same person, typed twice")}),
    )

    def name_choices(self, this: Player, other: Player | None) -> None:
        """The two records by their names, once the other is known."""
        if other is not None:
            keep = self.fields["keep"]
            assert isinstance(keep, forms.ChoiceField)  # declared above
            keep.choices = [("this", this.name), ("other", other.name)]


# Page parts ------------------------------------------------------------------------------------


def identity_context(*, player: Player, user: Any = None) -> selectors.IdentityPanel:
    """The identity part of a person's page (``templates/league/_identity.html``)."""
    return selectors.identity_panel(player=player, user=user)


# Claims ----------------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def claim(request: HttpRequest, pk: int) -> HttpResponse:
    """ "This is me": the account asks to be this player; a club admin or an organizer decides."""
    player = _visible(request, pk)
    if player.merged_into_id is not None:
        return redirect("players:claim", pk=player.merged_into_id)
    if not permissions.may_claim(request.user):
        raise PermissionDenied(gettext("A club's account cannot be a player."))
    form = ClaimForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            identity.claim_request(player=player, user=request.user, message=form.cleaned_data["message"])
        except PlayerError as error:
            form.add_error(None, error.message)
        else:
            messages.success(
                request, gettext("Your claim is waiting for the club or an organizer to approve it.")
            )
            return redirect("players:detail", pk=player.pk)
    status = 422 if form.errors else 200
    return render(request, "league/claim.html", {"player": player, "form": form}, status=status)


@login_required
@require_POST
def claim_withdraw(request: HttpRequest, pk: int) -> HttpResponse:
    """The claimant takes their waiting claim back."""
    claim = get_object_or_404(PlayerClaim, pk=pk, user=request.user)
    try:
        identity.claim_withdraw(claim=claim, user=request.user)
    except PlayerError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, gettext("Your claim is withdrawn."))
    return redirect("players:detail", pk=claim.player_id)


@login_required
@require_safe
def claims(request: HttpRequest) -> HttpResponse:
    """The claims waiting that this account may decide (``league.permissions``), this account's own
    claim if one waits, the clubs' invitations waiting for its answer, and (the site's staff) the
    latest decided claims, each with a button to take its decision back."""
    return _claims_page(request)


def _claims_page(request: HttpRequest, error: str | None = None, status: int = 200) -> HttpResponse:
    user = request.user
    assert user.is_authenticated  # each view that shows the page is login_required
    decided = []
    if permissions.may_revert(request.user):
        decisions = [PlayerClaim.Status.APPROVED, PlayerClaim.Status.REFUSED]
        done = PlayerClaim.objects.filter(status__in=decisions)
        done = done.select_related("player", "user", "decided_by").order_by("-decided_at", "-pk")
        decided = list(done[:DECIDED_MOST])
    context = {
        "claims": permissions.decidable_claims(request.user),
        "mine": PlayerClaim.objects.filter(user=user, status=PlayerClaim.Status.PENDING)
        .select_related("player")
        .first(),
        "invitations": list(clubs.invitations(request.user)),
        "decided": decided,
        "error": error,
    }
    return render(request, "league/claims.html", context, status=status)


@login_required
@require_POST
def claim_decide(request: HttpRequest, pk: int) -> HttpResponse:
    """Approve (``decision=approve``) or refuse (``decision=refuse``) a waiting claim."""
    claim = get_object_or_404(PlayerClaim.objects.select_related("player"), pk=pk)
    if not permissions.may_decide(request.user, claim):
        raise Http404(gettext("No such claim."))
    decision = request.POST.get("decision")
    if decision not in ("approve", "refuse"):
        return _claims_page(request, gettext("Approve or refuse the claim."), status=422)
    try:
        if decision == "approve":
            identity.claim_approve(claim=claim, by=request.user)
        else:
            identity.claim_refuse(claim=claim, by=request.user)
    except PlayerError as error:
        return _claims_page(request, error.message, status=422)
    done = gettext("%(account)s is now %(player)s.") if decision == "approve" else gettext("Claim refused.")
    messages.success(request, done % {"account": claim.user.get_username(), "player": claim.player.name})
    return redirect("players:claims")


@login_required
@require_POST
def claim_revert(request: HttpRequest, pk: int) -> HttpResponse:
    """Take an approved or refused claim's decision back (the site's staff): the claim waits again."""
    if not permissions.may_revert(request.user):
        raise PermissionDenied(gettext("Only the site's staff take a decision back."))
    claim = get_object_or_404(PlayerClaim.objects.select_related("player"), pk=pk)
    try:
        identity.claim_revert(claim=claim, by=request.user)
    except PlayerError as error:
        return _claims_page(request, error.message, status=422)
    messages.success(request, gettext("The decision is taken back: the claim waits again."))
    return redirect("players:claims")


@login_required
@require_POST
def invitation_answer(request: HttpRequest, pk: int) -> HttpResponse:
    """The player's account accepts (``answer=accept``) or declines (``answer=decline``) a club's
    invitation to be its member."""
    membership = get_object_or_404(clubs.invitations(request.user), pk=pk)
    answer = request.POST.get("answer")
    if answer not in ("accept", "decline"):
        return _claims_page(request, gettext("Accept or decline the invitation."), status=422)
    try:
        clubs.member_answer(membership=membership, user=request.user, accept=answer == "accept")
    except PlayerError as error:
        return _claims_page(request, error.message, status=422)
    done = gettext("You are a member of %(club)s.") if answer == "accept" else gettext("Invitation declined.")
    messages.success(request, done % {"club": membership.club.name})
    return redirect("players:claims")


# Merges and splits -----------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def merge(request: HttpRequest, pk: int) -> HttpResponse:
    """Merge another record of the same person into this one (or this one into it): search the other
    record (``?q=``), see both records' counts (``?other=``), confirm with a POST."""
    player = _visible(request, pk)
    if player.merged_into_id is not None:
        return redirect("players:merge", pk=player.merged_into_id)
    if not permissions.may_decide_claim(request.user, player):
        raise PermissionDenied(gettext("Only the site's staff, or a club or an event with a say, merge it."))
    form = MergeForm(request.POST or None, initial={"other": request.GET.get("other")})
    query = request.GET.get("q", "")[:80].strip()
    other = None
    raw_other = request.POST.get("other") if request.method == "POST" else request.GET.get("other")
    if raw_other and raw_other.isascii() and raw_other.isdigit() and len(raw_other) < 19:
        people = visible_players(request.user).filter(merged_into__isnull=True).exclude(pk=player.pk)
        other = people.filter(pk=int(raw_other)).first()
    form.name_choices(player, other)
    allowed = other is not None and permissions.may_merge(request.user, player, other)
    if request.method == "POST" and form.is_valid():
        if other is None:
            form.add_error("other", gettext("Pick the other record from the list."))
        elif not allowed:
            form.add_error(
                "other", gettext("You may not decide for both records together: ask the site's staff.")
            )
        else:
            survivor, absorbed = (player, other) if form.cleaned_data["keep"] == "this" else (other, player)
            problem = selectors.merge_problem(survivor=survivor, absorbed=absorbed)
            try:
                if problem is not None:
                    raise PlayerError(problem, field="keep")
                identity.player_merge(
                    survivor=survivor, absorbed=absorbed, by=request.user, reason=form.cleaned_data["reason"]
                )
            except PlayerError as error:
                form.add_error(None, error.message)
            else:
                ratings.ratings_request()
                messages.success(
                    request,
                    gettext("%(absorbed)s is now recorded as %(survivor)s.")
                    % {"absorbed": absorbed.name, "survivor": survivor.name},
                )
                return redirect("players:detail", pk=survivor.pk)
    candidates = []
    if query and other is None:
        candidates = list(
            records.player_list(search=query, user=request.user).exclude(pk=player.pk)[:CANDIDATES_MOST]
        )
    context = {
        "player": player,
        "form": form,
        "query": query,
        "candidates": candidates,
        "other": other,
        "allowed": allowed,
        "counts": [
            selectors.record_counts(player=p, user=request.user) for p in (player, other) if p is not None
        ],
    }
    return render(request, "league/merge.html", context, status=422 if form.errors else 200)


@login_required
@require_POST
def split(request: HttpRequest, pk: int) -> HttpResponse:
    """Undo a merge: every record moved by it has its own page and matches again."""
    merge = get_object_or_404(PlayerMerge.objects.select_related("survivor", "absorbed"), pk=pk)
    if not permissions.may_split(request.user, merge):
        raise PermissionDenied(gettext("Only the site's staff, or a club or an event with a say, split it."))
    try:
        identity.player_split(merge=merge, by=request.user)
    except PlayerError as error:
        messages.error(request, error.message)
        return redirect("players:detail", pk=identity.root_of(merge.survivor).pk)
    ratings.ratings_request()
    messages.success(
        request,
        gettext("%(absorbed)s has their own record again.") % {"absorbed": merge.absorbed.name},
    )
    return redirect("players:detail", pk=merge.absorbed_id)
