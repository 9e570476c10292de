"""The dice's luck: how many attempts came good against how many the odds shown said, and how unusual that is.

Pure: no I/O, no clock. Each attempt had a chance p_i shown on the page before it was rolled and either came good
or not. The number that came good, S, is a sum of independent Bernoulli(p_i): its exact distribution is the
Poisson-binomial, worked out here by dynamic programming (adding one attempt at a time: O(n^2), exact up to the
floats' rounding; with fractions.Fraction chances it is exact). From it:

- ``expected``: the sum of the chances shown, what the odds said;
- ``below`` = P(S <= s) and ``above`` = P(S >= s): how often a table would do this badly (or this well) or more so;
- ``percentile`` = 100 * (P(S < s) + P(S = s) / 2), the mid-rank percentile: 50 is just what the odds said, near 0
  the dice were as cruel as they come, near 100 as kind.

    >>> luck = luck_of([0.5, 0.5], 0)
    >>> luck.below, luck.percentile
    (0.25, 12.5)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = [
    "CALIBRATION_BINS",
    "Luck",
    "calibration",
    "distribution",
    "distributions",
    "float_distributions",
    "luck_of",
    "unweighed_words",
]

#: how unusual a tail must be for the words to call the dice lucky or luckless, and charmed or cursed
LUCKY_TAIL = 0.25
CHARMED_TAIL = 0.05
#: the calibration chart's groups of the chance shown: 0-20%, 20-40% ... 80-100%
CALIBRATION_BINS = 5


#: why an attempt is counted but not weighed: the page showed no one chance of it coming good (a game may show each
#: task's chance alone where the whole would take too long to work out), though the odds of its parts may have been shown
UNWEIGHED = "the page showed no chance of the whole attempt coming good (at most each task's chance alone)"


def unweighed_words(n: int) -> str:
    """ "2 attempts are counted but not weighed: for them the page showed no chance of the whole attempt ..." """
    return f"{n} attempt{'s are' if n != 1 else ' is'} counted but not weighed: for {'them' if n != 1 else 'it'} {UNWEIGHED}."


def distribution(chances: Sequence[Any]) -> list[Any]:
    """P(S = k) for k = 0 .. len(chances), S the number of attempts that come good (the Poisson-binomial).

    Works with floats and with fractions.Fraction alike (exact with fractions)."""
    last: list[Any] = [1]
    for last in distributions(chances):  # noqa: B007 - the last one is the answer
        pass
    return last


def distributions(chances: Iterable[Any]) -> Iterator[list[Any]]:
    """The distribution after each attempt in turn (the first attempt alone, the first two, ...): one attempt is
    added at a time, so all of them together cost what the last one does."""
    dist: list[Any] = [1]
    for p in chances:
        _check(p)
        step: list[Any] = [0] * (len(dist) + 1)
        for k, q in enumerate(dist):
            step[k] += q * (1 - p)
            step[k + 1] += q * p
        dist = step
        yield dist


def _check(p: Any) -> None:
    if not 0 <= p <= 1:
        raise ValueError(f"a chance must lie between 0 and 1, not {p!r}")


def float_distributions(chances: Iterable[float]) -> Iterator[Any]:
    """:func:`distributions` in floats, each step one vector operation (numpy): the same sums in the same order,
    for the hundreds or thousands of attempts of many games."""
    import numpy as np

    dist = np.ones(1)
    for p in chances:
        _check(p)
        step = np.zeros(len(dist) + 1)
        step[:-1] += dist * (1 - p)
        step[1:] += dist * p
        dist = step
        yield dist


@dataclass(frozen=True)
class Luck:
    """The luck of some attempts (one player's, one game's, one night's, every game's)."""

    attempts: int
    successes: int
    expected: float
    below: float  # P(S <= successes)
    above: float  # P(S >= successes)
    percentile: float

    @property
    def verdict(self) -> str:
        """One word or so: "cursed", "luckless", "about as the odds said", "lucky", "charmed"."""
        if self.attempts == 0:
            return "no odds shown"
        low = self.successes < self.expected
        tail = self.below if low else self.above
        if tail <= CHARMED_TAIL:
            return "cursed" if low else "charmed"
        if tail <= LUCKY_TAIL:
            return "luckless" if low else "lucky"
        return "about as the odds said"

    @property
    def one_in(self) -> int | None:
        """A span as lucky (or as luckless) as this one comes about once in this many; None when it is common."""
        if self.attempts == 0 or self.verdict == "about as the odds said":
            return None
        tail = self.below if self.successes < self.expected else self.above
        return max(1, round(1 / tail)) if tail > 0 else None

    def expected_words(self) -> str:
        """What the odds said in a player's words, not a raw figure: "the odds expected about 2 of them", "about
        half of one", "none"."""
        return expected_words(self.expected)

    def words(self, span: str = "night", who: str = "The table's", unweighed: int = 0) -> str:
        """ "The table's 9 attempts came good 4 times; the odds expected about 6 of them: luckless, about 1 night in 9 goes this
        way" (who: "The table's" for every phone and the table display, or a player's "Ann's"); `unweighed`: the
        attempts made without one chance of the whole shown, said as such (their parts' odds may have been shown)."""
        if self.attempts == 0 and unweighed:
            its = "its attempt" if unweighed == 1 else f"its {unweighed} attempts"
            return f"No attempt this {span} is weighed, so there is no luck to tell: for {its} {UNWEIGHED}."
        if self.attempts == 0:
            return f"No attempt this {span} was weighed against the odds shown, so there is no luck to tell."
        times = {0: "never", 1: "once", 2: "twice"}.get(self.successes, f"{self.successes} times")
        came = f"came good {times}" if self.successes else "never came good"
        of = f"{who} {self.attempts} attempt{'s' if self.attempts != 1 else ''}"
        text = f"{of} {came}; {self.expected_words()}: {self.verdict}"
        if self.one_in is not None:
            text += f", about 1 {span} in {self.one_in} goes this way"
        return text + "." + (f" {unweighed_words(unweighed)}" if unweighed else "")

    def short(self) -> str:
        """For a small screen: "Luck 4 of 6.2, luckless"."""
        if self.attempts == 0:
            return "Luck: no odds shown"
        verdict = "fair dice" if self.verdict == "about as the odds said" else self.verdict
        return f"Luck {self.successes} of {self.expected:.1f}, {verdict}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "attempts": self.attempts,
            "successes": self.successes,
            "expected": round(self.expected, 6),
            "below": round(self.below, 6),
            "above": round(self.above, 6),
            "percentile": round(self.percentile, 2),
            "verdict": self.verdict,
            "one_in": self.one_in,
        }


def luck_of(chances: Sequence[float], successes: int) -> Luck:
    """The luck of attempts with these chances shown, of which ``successes`` came good."""
    if not 0 <= successes <= len(chances):
        raise ValueError(f"{successes} successes out of {len(chances)} attempts")
    if not chances:
        return Luck(0, 0, 0.0, 1.0, 1.0, 50.0)
    dist: Any = [1.0]
    for dist in float_distributions(float(p) for p in chances):  # noqa: B007 - the last one is the answer
        pass
    below = float(dist[: successes + 1].sum())
    above = float(dist[successes:].sum())
    exact = float(dist[successes])
    percentile = 100 * (below - exact / 2)
    return Luck(
        len(chances), successes, float(sum(chances)), min(1.0, below), min(1.0, above), max(0.0, min(100.0, percentile))
    )


def calibration(attempts: Iterable[tuple[float, bool]], bins: int = CALIBRATION_BINS) -> list[dict[str, Any]]:
    """The attempts grouped by the chance shown (0-20%, 20-40% ...; a chance on a border goes to the group above
    it, 100% to the last), each with how many there were, how many came good, the mean chance shown and the rate
    that came good (None for an empty group)."""
    groups: list[list[tuple[float, bool]]] = [[] for _ in range(bins)]
    for chance, came_good in attempts:
        groups[min(bins - 1, int(chance * bins + 1e-9))].append((chance, came_good))
    out = []
    for i, group in enumerate(groups):
        low, high = i / bins, (i + 1) / bins
        good = sum(1 for _, g in group if g)
        out.append(
            {
                "low": low,
                "high": high,
                "label": f"{round(low * 100)}-{round(high * 100)}%",
                "attempts": len(group),
                "good": good,
                "shown": sum(c for c, _ in group) / len(group) if group else None,
                "rate": good / len(group) if group else None,
            }
        )
    return out


def expected_words(expected: float) -> str:
    """The sum of the chances shown, said for a player: "the odds expected about 2 of them" (1.9), "about 1 of them",
    "about half of one" (0.3 to 0.7), "almost none" (below 0.3)."""
    whole = round(expected)
    if whole >= 1:
        return f"the odds expected about {whole} of them"
    return "the odds expected about half of one" if expected >= 0.3 else "the odds expected almost none"
