"""Accounts from the login page: anyone creates one (unless ``TSOXA_SIGNUP_OPEN`` is false), and a
forgotten password is reset through a link sent by e-mail (Django's own views, our templates under
``templates/registration/``, mail through Django's e-mail settings: config/settings/base.py).

Both are rate-limited like the login (web/ratelimits.py): a sign-up per client address, a reset
request per address and per e-mail address asked for. The reset's request page answers the same
whether an account has the address or not; the sign-up cannot hide that an address or a username is
taken (it refuses them), so it says no more than that and is limited per address.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth import login as auth_login
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import PasswordResetForm, UserCreationForm
from django.contrib.auth.password_validation import password_validators_help_texts
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods

from web.ratelimits import reset_limited, signup_limited


class SignupForm(UserCreationForm):
    """A username, an e-mail address (required, one account per address whatever its case) and a
    password twice, checked by the password validators (AUTH_PASSWORD_VALIDATORS)."""

    email = forms.EmailField(
        label=_("E-mail address"),
        max_length=254,
        help_text=_("Only to send you a link if you forget your password."),
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The validators' rules in plain sentences (Django's help is a list in HTML).
        self.fields["password1"].help_text = " ".join(password_validators_help_texts())

    def clean_email(self) -> str:
        email = get_user_model().objects.normalize_email(self.cleaned_data["email"].strip())
        if get_user_model().objects.filter(email__iexact=email).exists():
            raise forms.ValidationError(
                gettext(
                    "This e-mail address cannot be used for a new account. If you already have one, "
                    "“Forgot your password?” on the login page sends you a link."
                ),
                code="email_taken",
            )
        return email


def safe_next(request: HttpRequest) -> str:
    """The ?next= (or the form's next) if it stays on this site, else ""."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    allowed = url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return target if allowed else ""


@sensitive_post_parameters("password1", "password2")
@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
@signup_limited
def signup(request: HttpRequest) -> HttpResponse:
    """Create an account, log in with it and go on to ?next= (or the home page)."""
    if not settings.TSOXA_SIGNUP_OPEN:
        return render(request, "registration/signup.html", {"closed": True}, status=403)
    next_url = safe_next(request)
    if request.user.is_authenticated and request.method != "POST":
        return redirect(next_url or reverse("scoring:home"))
    if request.method != "POST":
        return render(request, "registration/signup.html", {"form": SignupForm(), "next": next_url})
    form = SignupForm(request.POST)
    if not form.is_valid():
        return render(request, "registration/signup.html", {"form": form, "next": next_url}, status=422)
    user = form.save()
    auth_login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    messages.success(request, gettext("Welcome, %(name)s: your account is ready.") % {"name": user.username})
    return redirect(next_url or reverse("scoring:home"))


class LoginView(auth_views.LoginView):
    """Django's login, with the sign-up's link shown only while the sign-up is open."""

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        return {**super().get_context_data(**kwargs), "signup_open": settings.TSOXA_SIGNUP_OPEN}


class ResetForm(PasswordResetForm):
    email = forms.EmailField(
        label=_("E-mail address"),
        max_length=254,
        widget=forms.EmailInput(attrs={"autocomplete": "email", "autofocus": True}),
    )


class PasswordResetView(auth_views.PasswordResetView):
    """Django's reset request: the same answer (the "done" page) whether an account has the address
    or not; the mail says how long its link works."""

    form_class = ResetForm

    def form_valid(self, form: PasswordResetForm) -> HttpResponse:
        self.extra_email_context = {"site_name": "Tsoxa", "hours": settings.PASSWORD_RESET_TIMEOUT // 3600}
        return super().form_valid(form)


class PasswordResetDoneView(auth_views.PasswordResetDoneView):
    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        return {**super().get_context_data(**kwargs), "hours": settings.PASSWORD_RESET_TIMEOUT // 3600}


password_reset = reset_limited(PasswordResetView.as_view())
password_reset_done = PasswordResetDoneView.as_view()
