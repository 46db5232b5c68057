from django.apps import AppConfig


class LeagueConfig(AppConfig):
    """What results say about people across events: records, statistics, clubs' pages, seasons and
    ratings. It reads every other app and none reads it (docs/developers/contributing.md, the code's
    layout)."""

    name = "league"
    verbose_name = "Records, seasons and ratings"

    def ready(self) -> None:
        from . import receivers  # noqa: F401 - a changed result asks for the ratings
