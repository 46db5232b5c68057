"""The tournaments API: Bulk entry: a pasted list or a CSV previewed, then saved all or nothing.

Its actions join ``TournamentViewSet`` (tournaments/api.py) as a mixin: the paths stay under
/api/v1/tournaments/{slug}/, with the viewset's permission and ``_managed()``."""


class BulkActions:
    pass
