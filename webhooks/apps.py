from django.apps import AppConfig


class WebhooksConfig(AppConfig):
    """Webhooks: a club's or an organizer's server told of a tournament's events, signed, by the
    worker. It listens to the tournaments' signals; no app reads it (docs/developers/contributing.md,
    the code's layout)."""

    name = "webhooks"
    verbose_name = "Webhooks"

    def ready(self) -> None:
        from . import checks, receivers  # noqa: F401 - the deploy check; the tournaments' events queue deliveries
