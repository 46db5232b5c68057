"""The tournaments' REST API (v1): one viewset (``viewset.py``), its actions by resource in this
package's modules."""

from .viewset import TournamentViewSet

__all__ = ["TournamentViewSet"]
