"""Each process, once started, freezes what starting made (config/startup.py): the web and live
applications as they load, each Celery worker process as it starts."""

from tests.integration.test_deploy import run_python

# Django, the apps and their modules come to some 260,000 objects: well over this.
MADE_STARTING = 50_000


def frozen_after(code: str) -> int:
    done = run_python(code + "\nimport gc\nprint(gc.get_freeze_count())")
    assert done.returncode == 0, done.stderr[-2000:]
    return int(done.stdout.split()[-1])


def test_nothing_is_frozen_by_django_itself():
    assert frozen_after("") == 0


def test_the_web_and_live_applications_freeze_what_starting_made():
    assert frozen_after("import config.wsgi") > MADE_STARTING
    assert frozen_after("import config.asgi") > MADE_STARTING


def test_a_celery_worker_process_freezes_what_starting_made():
    started = "from config.celery import app\nfrom celery.signals import worker_process_init\n"
    assert frozen_after(started) == 0  # the app alone, as the web processes import it
    assert frozen_after(started + "worker_process_init.send(sender=None)") > MADE_STARTING
