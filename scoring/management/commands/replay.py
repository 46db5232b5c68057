"""``manage.py replay FILE``: score a match file and print its sheet (FORMAT.md)."""

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from scoring import engine


class Command(BaseCommand):
    help = "Read a match file (FORMAT.md; FILE or - for standard input) and print its score sheet as JSON."
    # It reads a file and the engine, never the database, the URLs or the templates: Django's
    # checks of those (most of its start-up) would only make every replay wait.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser):
        parser.add_argument("file", help="the match file, or - to read standard input")

    def handle(self, *args, **options):
        path = options["file"]
        try:
            if path == "-":  # bytes, so that the engine decides what is UTF-8, not the terminal's locale
                stdin = getattr(sys.stdin, "buffer", sys.stdin)
                data = stdin.read()
            else:
                with open(path, "rb") as file:
                    data = file.read()
        except OSError as error:
            raise CommandError(one_line(f"cannot read {path}: {error.strerror or error}")) from None
        try:
            match = engine.loads(data)
        except engine.ScoringError as error:
            raise CommandError(one_line(str(error))) from None
        self.stdout.write(json.dumps(match.sheet().to_dict(), indent=2))


def one_line(message: str) -> str:
    """The message with its unprintable characters (new lines, a field name's controls) escaped."""
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in message)
