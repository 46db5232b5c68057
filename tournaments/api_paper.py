"""The tournaments API: a table's result typed from its paper sheet; a drawn round redrawn or deleted
before it starts.

Its actions join ``TournamentViewSet`` (tournaments/api.py) as a mixin: the paths stay under
/api/v1/tournaments/{slug}/, with the viewset's permission and ``_managed()``."""


class PaperActions:
    pass
