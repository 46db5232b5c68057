"""./run bench [NAME …]: run the benchmarks (all by default) on a throw-away database."""

import os
import sys


def main(argv: list[str]) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    import django

    django.setup()
    from django.db import connection
    from django.test.utils import setup_test_environment

    from benchmarks import (
        bulk,
        console,
        exports,
        import_file,
        load,
        personal,
        push,
        ratings,
        screens,
        standings,
        swiss,
    )

    known = {
        "swiss": swiss.run,
        "standings": standings.run,
        "exports": exports.run,
        "load": load.run,
        "import": import_file.run,
        "ratings": ratings.run,
        "screens": screens.run,
        "bulk": bulk.run,
        "console": console.run,
        "push": push.run,
        "personal": personal.run,
    }
    # As the app's processes do once started (config/startup.py): a benchmark measures their work.
    from config.startup import settled

    settled()
    names = argv or list(known)
    unknown = [n for n in names if n not in known]
    if unknown:
        sys.exit(f"unknown benchmark {unknown[0]!r}; known: {', '.join(known)}")
    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        for name in names:
            known[name]()
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main(sys.argv[1:])
