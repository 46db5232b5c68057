"""Deploy checks (``manage.py check --deploy``) on settings that must not reach production.

- ``tsoxa.W002``: ``TSOXA_WEBHOOKS_ALLOW_PRIVATE`` is on, so webhooks may be sent to the server's
  own network (loopback, private and link-local addresses) and over plain http.
- ``tsoxa.W003``: a rate limit is off: ``RATELIMIT_ENABLE`` false (logins, tokens, table links
  unlimited), or the API's throttle is gone or one of its rates is empty.
- ``tsoxa.W004``: no mail server named (neither ``EMAIL_URL`` nor ``EMAIL_HOST``), or a sender
  (``DEFAULT_FROM_EMAIL``) at localhost: the password reset's mail would not reach anyone.

- ``tsoxa.W005``: Web Push is off: ``TSOXA_VAPID_PUBLIC_KEY``, ``TSOXA_VAPID_PRIVATE_KEY`` or
  ``TSOXA_VAPID_SUBJECT`` unset (players cannot ask to be told of their table), or the pair is not one.

``tsoxa.W001`` (the site's public address) is the webhooks' own, in ``webhooks/checks.py``.
Registered on import, by ``config/__init__.py``.
"""

from __future__ import annotations

from email.utils import parseaddr

from django.conf import settings
from django.core.checks import Tags, Warning, register

THROTTLE = "api.throttles.ApiRateThrottle"
RATES = ("anon", "user", "read", "score")


@register(Tags.security, deploy=True)
def webhooks_stay_public(app_configs=None, **kwargs) -> list[Warning]:
    if not getattr(settings, "TSOXA_WEBHOOKS_ALLOW_PRIVATE", False):
        return []
    return [
        Warning(
            "TSOXA_WEBHOOKS_ALLOW_PRIVATE is on: webhooks may be posted to loopback, private and link-local "
            "addresses, and over plain http. Only for a laptop or the tests: turn it off in production.",
            id="tsoxa.W002",
        )
    ]


@register(Tags.security, deploy=True)
def rate_limits_on(app_configs=None, **kwargs) -> list[Warning]:
    off = []
    if not getattr(settings, "RATELIMIT_ENABLE", True):
        off.append("RATELIMIT_ENABLE is false (logins, API tokens and table links are not limited)")
    api = getattr(settings, "REST_FRAMEWORK", {})
    if THROTTLE not in api.get("DEFAULT_THROTTLE_CLASSES", ()):
        off.append(f"REST_FRAMEWORK's DEFAULT_THROTTLE_CLASSES lacks {THROTTLE} (the API is not limited)")
    rates = api.get("DEFAULT_THROTTLE_RATES", {})
    empty = [name for name in RATES if not rates.get(name)]
    if empty:
        off.append(f"the API's rates {', '.join(empty)} are empty (those requests are not limited)")
    hint = "Leave the rate limits on in production."
    return [Warning(f"A rate limit is off: {reason}.", hint=hint, id="tsoxa.W003") for reason in off]


@register(Tags.security, deploy=True)
def mail_configured(app_configs=None, **kwargs) -> list[Warning]:
    missing = []
    if not getattr(settings, "TSOXA_MAIL_SERVER_SET", False):
        missing.append("no mail server is set (EMAIL_URL, or EMAIL_HOST and the rest)")
    sender = parseaddr(settings.DEFAULT_FROM_EMAIL)[1]
    if sender.rpartition("@")[2].casefold() in ("", "localhost", "127.0.0.1", "[127.0.0.1]"):
        missing.append(f"the sender, DEFAULT_FROM_EMAIL ({sender!r}), is no address a server sends from")
    hint = (
        "Set EMAIL_URL (e.g. smtp+tls://user:password@smtp.example.org:587) and DEFAULT_FROM_EMAIL "
        "(e.g. Tsoxa <tsoxa@example.org>): without them, nobody can reset a forgotten password."
    )
    return [Warning(f"Mail cannot be sent: {reason}.", hint=hint, id="tsoxa.W004") for reason in missing]


@register(Tags.security, deploy=True)
def push_configured(app_configs=None, **kwargs) -> list[Warning]:
    names = ("TSOXA_VAPID_PUBLIC_KEY", "TSOXA_VAPID_PRIVATE_KEY", "TSOXA_VAPID_SUBJECT")
    missing = [name for name in names if not getattr(settings, name, "")]
    hint = (
        "Make a pair with `manage.py vapid_keys` and set the three in the environment "
        "(the subject: mailto:you@example.org or your site's https:// address)."
    )
    if missing:
        return [
            Warning(
                f"Web Push is off: {', '.join(missing)} unset (players are not offered notifications).",
                hint=hint,
                id="tsoxa.W005",
            )
        ]
    problem = _vapid_problem(*(getattr(settings, name) for name in names))
    return [Warning(f"Web Push cannot work: {problem}.", hint=hint, id="tsoxa.W005")] if problem else []


def _vapid_problem(public: str, private: str, subject: str) -> str:
    """What is wrong with the VAPID settings, or ''."""
    import base64

    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    if not subject.startswith(("mailto:", "https://")):
        return "TSOXA_VAPID_SUBJECT must start with mailto: or https://"
    try:
        raw = base64.urlsafe_b64decode(private + "=" * (-len(private) % 4))
        key = ec.derive_private_key(int.from_bytes(raw, "big"), ec.SECP256R1())
        own = key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        given = base64.urlsafe_b64decode(public + "=" * (-len(public) % 4))
    except ValueError:
        return "the VAPID keys are not base64url raw P-256 keys"
    if own != given:
        return "TSOXA_VAPID_PUBLIC_KEY is not the public key of TSOXA_VAPID_PRIVATE_KEY"
    return ""
