"""The webhooks' retry schedule (webhooks/services.py): a pure function, tested without waiting."""

import pytest

from webhooks import services


@pytest.mark.parametrize(
    ("attempt", "wait"),
    [(1, 60), (2, 5 * 60), (3, 30 * 60), (4, 2 * 3600), (5, 8 * 3600), (6, None), (7, None), (0, None)],
)
def test_a_failed_attempt_waits_longer_each_time_and_the_sixth_is_the_last(attempt, wait):
    assert services.retry_delay(attempt) == wait


def test_six_attempts_spread_over_about_ten_hours():
    waits = [services.retry_delay(n) for n in range(1, services.ATTEMPTS)]
    assert services.ATTEMPTS == 6
    assert waits == sorted(waits) and len(set(waits)) == len(waits)
    assert 10 * 3600 < sum(waits) < 11 * 3600


def test_the_pause_comes_after_the_setting_s_number_of_failed_deliveries(settings):
    settings.TSOXA_WEBHOOKS_PAUSE_AFTER = 10
    assert services.pause_after() == 10
    settings.TSOXA_WEBHOOKS_PAUSE_AFTER = 0  # never less than one
    assert services.pause_after() == 1
