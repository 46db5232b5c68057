from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    """Notifications: the people in the room told when their table is drawn, when their round starts
    and when the final ranking is out (Web Push, optionally e-mail), by the worker. It listens to the
    tournaments' signals; no app reads it (docs/developers/contributing.md, the code's layout)."""

    name = "notifications"
    verbose_name = "Notifications"

    def ready(self) -> None:
        from . import receivers  # noqa: F401 - the tournaments' events queue the notifications
