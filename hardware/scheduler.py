"""One worker for the slow hardware work, in lanes that run side by side.

A job is a function returning a generator that does a little work and then yields the
time (by the injected clock) at which it wants to go on, or returns None for instant
work. Jobs in the same lane run one after the other (hand moves queue behind each
other); jobs in different lanes interleave (the hand sweeps while the OLED flashes).

Jobs may be submitted with a `key`: a newer job with the key of one still waiting in
its lane takes that job's place (same position in the queue) instead of queueing
behind it, so "show the latest state" or "sweep to the newest mark" stays one job
however fast the game goes. A job that has already started is never replaced.

`run_pending()` runs everything queued in the caller's thread with the injected
`sleep` (tests, `companion hw test`); `start()` runs a real worker thread that wakes
for new jobs at once and calls `tick` about every `tick_s` seconds.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Generator, Iterator

log = logging.getLogger("hardware")

Steps = Iterator[float]
Job = Callable[[], Steps | None]


class Scheduler:
    def __init__(
        self,
        *,
        now: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
        tick: Callable[[], None] | None = None,
        tick_s: float = 1.0,
    ) -> None:
        self._now = now
        self._sleep = sleep
        self._tick = tick
        self.tick_s = tick_s
        self._cond = threading.Condition()
        self._lanes: dict[str, deque[tuple[str, Job, str | None]]] = {}
        self._active: dict[str, tuple[str, Steps, float]] = {}  # lane -> (name, steps, due)
        # lane -> name of the job taken off its queue whose function is running now: still pending, lane busy
        self._starting: dict[str, str] = {}
        self._thread: threading.Thread | None = None
        self._stop = False
        self._last_tick = now()
        self.done: list[str] = []  # names of finished jobs, in order (for status and tests)
        self.merged = 0  # jobs that took a waiting job's place instead of queueing
        self.peak = 0  # the most jobs ever pending at once

    # -- submitting (any thread) ----------------------------------------------------------------

    def submit(self, lane: str, job: Job, name: str = "job", *, key: str | None = None) -> None:
        """Queue `job` in `lane`; with a `key`, replace the waiting job of that key instead, if there is one."""
        with self._cond:
            queue = self._lanes.setdefault(lane, deque())
            if key is not None:
                for i, (_, _, waiting) in enumerate(queue):
                    if waiting == key:
                        queue[i] = (name, job, key)
                        self.merged += 1
                        self._cond.notify_all()
                        return
            queue.append((name, job, key))
            self.peak = max(self.peak, self._count())
            self._cond.notify_all()

    def _count(self) -> int:
        return sum(len(q) for q in self._lanes.values()) + len(self._active) + len(self._starting)

    def pending(self) -> int:
        """Jobs queued, being started or under way (0 only when every job submitted so far has finished)."""
        with self._cond:
            return self._count()

    def waiting(self, lane: str) -> int:
        """How many jobs wait in `lane` behind the one running there (if any)."""
        with self._cond:
            return len(self._lanes.get(lane, ()))

    # -- running --------------------------------------------------------------------------------

    def start_ready(self) -> None:
        """Start the next job of every idle lane now (instant jobs finish here); nothing waits."""
        self._start_jobs()

    def _start_jobs(self) -> None:
        """Start the next job of every idle lane (instant jobs finish here)."""
        while True:
            with self._cond:
                # Taken off the queue and marked as starting in one step, so that the job is never out of
                # sight of pending() and wait_idle() while its function runs.
                ready = [(lane, q.popleft()) for lane, q in self._lanes.items() if q and not self._busy(lane)]
                for lane, (name, _, _) in ready:
                    self._starting[lane] = name
            if not ready:
                return
            for lane, (name, job, _) in ready:
                try:
                    steps = job()
                except Exception:
                    log.exception("hardware job %s failed", name)
                    steps = None
                with self._cond:
                    del self._starting[lane]
                    if steps is None:
                        self.done.append(name)
                    else:
                        self._active[lane] = (name, steps, self._now())
                    self._cond.notify_all()

    def _busy(self, lane: str) -> bool:
        return lane in self._active or lane in self._starting

    def _advance(self, lane: str) -> None:
        with self._cond:
            name, steps, _ = self._active[lane]
        try:
            due = next(steps)
        except StopIteration:
            self.done.append(name)
            with self._cond:
                del self._active[lane]
                self._cond.notify_all()
            return
        except Exception:
            log.exception("hardware job %s failed", name)
            with self._cond:
                del self._active[lane]
                self._cond.notify_all()
            return
        with self._cond:
            self._active[lane] = (name, steps, due)

    def _next_due(self) -> tuple[str, float] | None:
        with self._cond:
            if not self._active:
                return None
            lane = min(self._active, key=lambda k: self._active[k][2])
            return lane, self._active[lane][2]

    def run_pending(self, max_steps: int = 1_000_000) -> int:
        """Run every queued job to its end in this thread, waiting with the injected sleep. Returns steps taken."""
        count = self.step(max_steps)
        if self.pending():
            raise RuntimeError("hardware jobs did not finish")
        return count

    def step(self, n: int = 1) -> int:
        """Take up to `n` steps of the queued jobs (earliest due first); returns how many were taken."""
        count = 0
        while count < n:
            self._start_jobs()
            nxt = self._next_due()
            if nxt is None:
                return count
            lane, due = nxt
            delay = due - self._now()
            if delay > 0:
                self._sleep(delay)
            self._advance(lane)
            count += 1
        return count

    def wait_idle(self, timeout: float) -> bool:
        """Wait (real time) until the worker thread has finished every job; False on timeout."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while self._count():
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                self._cond.wait(remaining)
            return True

    def tick(self) -> None:
        self._last_tick = self._now()
        if self._tick is not None:
            try:
                self._tick()
            except Exception:
                log.exception("hardware tick failed")

    def start(self) -> None:
        """Run a worker thread (real time) until `stop()`."""
        if self._thread is not None:
            return
        self._stop = False
        self._thread = threading.Thread(target=self._run, name="hardware", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while True:
            self._start_jobs()
            with self._cond:
                if self._stop:
                    return
                nxt = self._next_due()
                now = self._now()
                wait_tick = self._last_tick + self.tick_s - now
                wait_job = float("inf") if nxt is None else nxt[1] - now
                has_new = any(q and not self._busy(lane) for lane, q in self._lanes.items())
                if not has_new and min(wait_tick, wait_job) > 0:
                    self._cond.wait(timeout=min(wait_tick, wait_job))
                    continue
            if self._now() - self._last_tick >= self.tick_s:
                self.tick()
            nxt = self._next_due()
            if nxt is not None and nxt[1] <= self._now():
                self._advance(nxt[0])

    def stop(self, timeout: float = 10.0) -> None:
        """Stop the worker; jobs not finished are dropped (their generators closed)."""
        with self._cond:
            self._stop = True
            self._cond.notify_all()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout)
        self._thread = None
        with self._cond:
            active = list(self._active.values())
            self._active.clear()
            self._starting.clear()
            self._lanes.clear()
        for _, steps, _ in active:
            if isinstance(steps, Generator):
                steps.close()
