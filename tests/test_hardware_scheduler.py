"""The hardware scheduler counts a job as pending from the moment it is queued until it has finished.

A job's function runs on the worker thread; while it runs (an instant job doing its work, or a generator
job being made) the job is neither in its lane's queue nor yet among the active ones, and `pending()` and
`wait_idle()` must still see it: `Table.wait_idle` trusts them before a test or a shutdown reads the parts.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator

from hardware.scheduler import Scheduler


def test_a_job_whose_function_is_running_is_pending_and_not_idle() -> None:
    scheduler = Scheduler(tick_s=3600.0)
    started, release = threading.Event(), threading.Event()

    def slow_instant_job() -> None:  # an instant job: all its work happens in the call
        started.set()
        release.wait(30)

    scheduler.start()
    try:
        scheduler.submit("screen", slow_instant_job, "show")
        assert started.wait(30), "the worker did not start the job"
        assert scheduler.pending() == 1
        assert scheduler.wait_idle(0.05) is False  # it is still running: not idle
        release.set()
        assert scheduler.wait_idle(30) is True
        assert scheduler.pending() == 0
        assert scheduler.done == ["show"]
    finally:
        release.set()
        scheduler.stop()


def test_a_second_job_of_the_lane_waits_while_the_first_is_being_started() -> None:
    scheduler = Scheduler(tick_s=3600.0)
    started, release = threading.Event(), threading.Event()
    order: list[str] = []

    def first() -> Iterator[float]:
        order.append("first called")
        started.set()
        release.wait(30)

        def steps() -> Iterator[float]:
            order.append("first runs")
            yield 0.0
            order.append("first ends")

        return steps()

    def second() -> None:
        order.append("second")

    scheduler.start()
    try:
        scheduler.submit("hand", first, "first")
        assert started.wait(30)
        scheduler.submit("hand", second, "second")
        assert scheduler.pending() == 2 and scheduler.waiting("hand") == 1
        release.set()
        assert scheduler.wait_idle(30) is True
        assert order == ["first called", "first runs", "first ends", "second"]
    finally:
        release.set()
        scheduler.stop()


def test_run_pending_still_runs_everything_in_the_callers_thread() -> None:
    clock = [0.0]
    scheduler = Scheduler(now=lambda: clock[0], sleep=lambda s: clock.__setitem__(0, clock[0] + s))
    ran: list[str] = []

    def sweep() -> Iterator[float]:
        ran.append("sweep")
        yield clock[0] + 1.0
        ran.append("sweep done")

    scheduler.submit("hand", sweep, "sweep")
    scheduler.submit("screen", lambda: ran.append("show") and None, "show")
    scheduler.run_pending()
    assert scheduler.pending() == 0 and clock[0] == 1.0
    assert sorted(ran) == ["show", "sweep", "sweep done"]
