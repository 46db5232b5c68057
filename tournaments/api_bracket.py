"""The tournaments API: A knockout's bracket, its rounds named.

Its actions join ``TournamentViewSet`` (tournaments/api.py) as a mixin: the paths stay under
/api/v1/tournaments/{slug}/, with the viewset's permission and ``_managed()``."""


class BracketActions:
    pass
