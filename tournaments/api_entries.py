"""The tournaments API: An entry edited (name, players, number), withdrawn and reinstated.

Its actions join ``TournamentViewSet`` (tournaments/api.py) as a mixin: the paths stay under
/api/v1/tournaments/{slug}/, with the viewset's permission and ``_managed()``."""


class EntryActions:
    pass
