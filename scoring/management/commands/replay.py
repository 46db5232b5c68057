"""``manage.py replay FILE``: score a match file and print its sheet (FORMAT.md)."""

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from scoring import engine


class Command(BaseCommand):
    help = "Read a match file (FORMAT.md; FILE or - for standard input) and print its score sheet as JSON."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the match file, or - to read standard input")

    def handle(self, *args, **options):
        path = options["file"]
        try:
            text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()  # noqa: SIM115
        except OSError as error:
            raise CommandError(f"cannot read {path}: {error.strerror}") from None
        try:
            match = engine.loads(text)
        except engine.ScoringError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(json.dumps(match.sheet().to_dict(), indent=2))
