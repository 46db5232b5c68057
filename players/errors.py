"""The people app's own refusal. It reads no other app: the apps that store matches and events turn
it into theirs (``scoring`` into a ``ScoringError`` with the same words and field)."""


class PlayerError(ValueError):
    """Bad input about a person, a team or a club, told in words a player understands; ``field``
    names the part of the form or request that is wrong."""

    def __init__(self, message: str, *, field: str | None = None):
        super().__init__(message)
        self.message = message
        self.field = field
