"""Glicko-2, exactly as in Mark Glickman's "Example of the Glicko-2 system" (2013).

Pure and stdlib only. A player is a ``Rating`` (rating, RD, volatility on the Glicko
scale); ``rate`` applies one rating period's results (steps 2 to 8 of the paper), and
``rate`` with no results is step 6 alone: a player who did not compete keeps rating and
volatility and their RD grows (``idle`` does that for any, even fractional, number of
periods). The volatility is found with the paper's Illinois-algorithm iteration (step 5).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

SCALE = 173.7178  # the paper's conversion between the Glicko and Glicko-2 scales
DEFAULT_RATING = 1500.0
DEFAULT_RD = 350.0
DEFAULT_VOLATILITY = 0.06
DEFAULT_TAU = 0.5  # the system constant; the paper suggests 0.3 to 1.2
EPSILON = 0.000001  # the convergence tolerance of step 5
WIN, DRAW, LOSS = 1.0, 0.5, 0.0


@dataclass(frozen=True)
class Rating:
    rating: float = DEFAULT_RATING
    rd: float = DEFAULT_RD
    volatility: float = DEFAULT_VOLATILITY

    @property
    def mu(self) -> float:
        return (self.rating - DEFAULT_RATING) / SCALE

    @property
    def phi(self) -> float:
        return self.rd / SCALE


@dataclass(frozen=True)
class Result:
    """One game of the period: the opponent as they stood before it, and the score
    (1 a win, 0.5 a draw, 0 a loss)."""

    opponent: Rating
    score: float


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def volatility(phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    """Step 5: the new volatility sigma', by the Illinois algorithm on f(x) = 0."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        change = ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2)
        return change - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a = f_a / 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


@dataclass(frozen=True)
class Period:
    """The paper's quantities for one rating period (Glicko-2 scale), to check them."""

    v: float  # step 3: the estimated variance of the rating from the game outcomes
    delta: float  # step 4: the estimated improvement
    volatility: float  # step 5: sigma'
    phi_star: float  # step 6: the pre-period RD grown by the new volatility
    phi: float  # step 7: phi'
    mu: float  # step 7: mu'


def period(player: Rating, results: Iterable[Result], tau: float = DEFAULT_TAU) -> Period:
    """Steps 2 to 7 for a player who played ``results`` (at least one) in the period."""
    mu, phi, sigma = player.mu, player.phi, player.volatility  # step 2
    inverse_v = 0.0
    improvement = 0.0  # the sum of g(phi_j) (s_j - E) over the games
    for result in results:
        mu_j, phi_j = result.opponent.mu, result.opponent.phi
        g = _g(phi_j)
        e = _expected(mu, mu_j, phi_j)
        inverse_v += g * g * e * (1.0 - e)
        improvement += g * (result.score - e)
    if inverse_v == 0.0:
        raise ValueError("a rating period with games needs at least one result")
    v = 1.0 / inverse_v
    delta = v * improvement
    new_sigma = volatility(phi, sigma, delta, v, tau)
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * improvement
    return Period(v, delta, new_sigma, phi_star, new_phi, new_mu)


def rate(player: Rating, results: Iterable[Result], tau: float = DEFAULT_TAU) -> Rating:
    """The player after one rating period with ``results`` (steps 2 to 8); with none,
    step 6 alone: the RD grows, rating and volatility stay."""
    results = list(results)
    if not results:
        return idle(player, 1.0)
    found = period(player, results, tau)
    return Rating(SCALE * found.mu + DEFAULT_RATING, SCALE * found.phi, found.volatility)


def idle(player: Rating, periods: float, ceiling: float | None = None) -> Rating:
    """Step 6 for ``periods`` rating periods without games: phi* = sqrt(phi² + n·sigma²).

    ``periods`` may be fractional (the time since the last game over a period's length,
    as lichess grows the RD between a player's games); 1 is exactly the paper's step 6.
    ``ceiling``: the RD never grows past it (a long absence makes a player as uncertain
    as a new one, not more)."""
    if periods <= 0:
        return player
    rd = SCALE * math.sqrt(player.phi**2 + periods * player.volatility**2)
    if ceiling is not None:
        rd = min(rd, max(ceiling, player.rd))
    return Rating(player.rating, rd, player.volatility)
