"""The tournaments API: Check-in: all at once, and each team's own link while check-in is open.

Its actions join ``TournamentViewSet`` (tournaments/api.py) as a mixin: the paths stay under
/api/v1/tournaments/{slug}/, with the viewset's permission and ``_managed()``."""


class CheckinActions:
    pass
