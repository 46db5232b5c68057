"""The tournaments API: The organizer's console of the current round, and the tables' calls for the director.

Its actions join ``TournamentViewSet`` (tournaments/api.py) as a mixin: the paths stay under
/api/v1/tournaments/{slug}/, with the viewset's permission and ``_managed()``."""


class ConsoleActions:
    pass
