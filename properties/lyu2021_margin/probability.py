"""Claim sheet 003, the probabilities of the good events (sheet 2.0 item 3), as exact binomial tests over seeded draws:

- Lemma 5.4 (ii) and Theorem 4.3 (C-L5.4 (ii), C-T4.3): under D_init the b-bar_k = (<w-bar_k, mu^> + a-bar_k) /
  (2 sqrt(m) ||theta0-bar||_M) are i.i.d. symmetric and continuous, so P(b-bar good) = 1 - 2 * 2^-m = 1 - 2^(1-m);
- Theorem 6.2 (C-T6.2, erratum S-4): under D~_init the event is "some s_k = +1", P = 1 - 2^-m. The printed bound
  "1 - delta" leaves delta undefined: that reading is not decidable (expected UNKNOWN), paired with the corrected one.

Decision per width m: N_DRAWS draws (seeds SEED_STRIDE m + i), the count k of draws in the event, and the exact
(Clopper-Pearson) two-sided interval of level 1 - LEVEL for the frequency. HOLDS when the claimed probability p0 lies
in it for every m, REFUTED otherwise; the two-sided exact binomial p-value is reported. A false alarm has probability
<= LEVEL per m, <= LEVEL * (number of cases) in all (Bonferroni). The planted claims state a wrong probability
(1 - 2^-m under D_init, 1 - 2^(1-m) under D~_init) with the same test, so it can fail.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Callable, Sequence

import numpy as np
from scipy.stats import binomtest

from verify.claims.direct import DirectOutcome
from verify.claims.model import Claim, measures
from verify.verdicts import Verdict

from properties.lyu2021_margin import datasets as D
from properties.lyu2021_margin import quantities as Q
from properties.lyu2021_margin._shared import paper_claim

N_DRAWS = 2000
WIDTHS = (2, 3, 4, 6)
LEVEL = 1e-3  # two-sided, per case
SEED_STRIDE = 100_000  # draw i of width m uses seed SEED_STRIDE * m + i (disjoint streams per m)
D_INIT_CASES = tuple((m, c) for m in WIDTHS for c in (1.0, 0.1))  # (m, c_ainit): c_ainit is unspecified (sheet 1.5)
BALANCED_CASES = tuple((m, 1.0) for m in WIDTHS)

Event = Callable[[int, int, float], bool]


@lru_cache(maxsize=1)
def mu_hat_d_sym() -> np.ndarray:
    """mu^ = mu / ||mu|| of D-SYM."""
    ds = D.d_sym()
    mu = Q.mean_signed(ds.X, ds.y)
    return mu / np.linalg.norm(mu)


def good_b(m: int, seed: int, c_ainit: float) -> bool:
    """b-bar of a D_init(1) draw (d = 3, mu^ of D-SYM) is a good embedding vector (signs of both kinds, no zero)."""
    return Q.good_embedding(Q.embedding_vector(Q.d_init(m, 3, seed, c_ainit), mu_hat_d_sym()))


def some_positive(m: int, seed: int, _: float) -> bool:
    """A D~_init(1) draw has some s_k = +1 (a_k = s_k ||w_k|| > 0)."""
    return bool(np.any(Q.balanced_draw(m, 3, seed).a > 0.0))


def binomial_runner(event: Event, p0: Callable[[int], float], cases: Sequence[tuple[int, float]],
                    draws: int = N_DRAWS) -> Callable[[Claim], DirectOutcome]:
    """The decision of the module docstring: per (m, c_ainit) the count of ``event`` over ``draws`` seeded draws
    against the claimed probability p0(m); margin min(p0 - low, high - p0) over the cases (< 0: p0 outside)."""

    @measures("distance of the claimed probability p0 inside the exact 99.9% Clopper-Pearson interval (probability)")
    def runner(_: Claim) -> DirectOutcome:
        notes, margins = [], []
        for m, c in cases:
            k = sum(event(m, SEED_STRIDE * m + i, c) for i in range(draws))
            test, p = binomtest(k, draws, p0(m)), p0(m)
            ci = test.proportion_ci(confidence_level=1.0 - LEVEL, method="exact")
            margins.append(min(p - ci.low, ci.high - p))
            notes.append(f"m = {m}{'' if c == 1.0 else f' (c_ainit {c:g})'}: {k}/{draws} = {k / draws:.4f} vs p0 = {p:.4f}, "
                         f"{1 - LEVEL:.1%} interval [{ci.low:.4f}, {ci.high:.4f}], two-sided p = {test.pvalue:.3g}")
        worst_margin = min(margins)
        verdict = Verdict.HOLDS if worst_margin >= 0.0 else Verdict.REFUTED
        reason = (f"exact binomial test, level {LEVEL:g} per case (family-wise <= {LEVEL * len(cases):g}): "
                  + "; ".join(notes))
        cx = None
        if verdict == Verdict.REFUTED:
            cx = {"X": [], "y": [], "W0": [], "v0": [], "margin": worst_margin, "confirmed_margin": worst_margin,
                  "confirmed_margin_error": 0.0, "note": reason,
                  "params": {"t_end": 0.0, "horizon": None, "draws": draws, "seeds": f"{SEED_STRIDE} m + i, i < {draws}"}}
        return DirectOutcome(verdict, reason, examples=draws * len(cases), min_margin=worst_margin, counterexample=cx)

    return runner


def good_embedding_test(_: object) -> float:
    """Decided by :func:`binomial_runner` (good b-bar under D_init); shared by the claim and its planted twin."""
    return 0.0


def positive_sign_test(_: object) -> float:
    """Decided by :func:`binomial_runner` (some s_k = +1 under D~_init); shared by the claim and its planted twin."""
    return 0.0


P_GOOD = paper_claim(
    id="LY-L54-ii",
    node="L54", uses=("DINIT", "A41"),
    source="Lemma 5.4 (ii) and Theorem 4.3's probability (C-L5.4 (ii), C-T4.3)",
    statement=f"Under D_init, P(b-bar is a good embedding vector) = 1 - 2^(1-m): the frequency over {N_DRAWS} seeded draws "
              f"per m in {WIDTHS} (c_ainit 1 and 0.1) is within its exact {1 - LEVEL:.1%} interval",
    check=good_embedding_test,
    runner=binomial_runner(good_b, lambda m: 1.0 - 2.0 ** (1 - m), D_INIT_CASES),
    assumptions=("D_init", "m >= 2"),
    tags=("statistical",),
)

P_GOOD_WRONG = paper_claim(
    id="LY-L54-ii-wrong",
    node="L54", uses=("DINIT", "A41"),
    source="Lemma 5.4 (ii) (planted: Theorem 6.2's 1 - 2^-m applied to D_init)",
    statement="PLANTED: under D_init P(b-bar good) = 1 - 2^-m; refuted (the bad event 'all b-bar_k of one sign' has "
              "probability 2 * 2^-m)",
    check=good_embedding_test,
    runner=binomial_runner(good_b, lambda m: 1.0 - 2.0**-m, D_INIT_CASES),
    expected=Verdict.REFUTED,
    assumptions=("D_init", "m >= 2"),
    tags=("statistical", "planted"),
)

P_EVENT = paper_claim(
    id="LY-T62-probability",
    node="T62", uses=("BINIT",),
    source="Theorem 6.2, probability 1 - 2^-m (C-T6.2, erratum S-4: corrected reading)",
    statement=f"Under D~_init, P(some s_k = +1) = 1 - 2^-m: the frequency over {N_DRAWS} seeded draws per m in {WIDTHS} is "
              f"within its exact {1 - LEVEL:.1%} interval",
    check=positive_sign_test,
    runner=binomial_runner(some_positive, lambda m: 1.0 - 2.0**-m, BALANCED_CASES),
    assumptions=("D~_init",),
    tags=("statistical", "erratum"),
)

P_EVENT_WRONG = paper_claim(
    id="LY-T62-probability-wrong",
    node="T62", uses=("BINIT",),
    source="Theorem 6.2 (planted: Theorem 4.3's 1 - 2^(1-m) applied to D~_init)",
    statement="PLANTED: under D~_init P(some s_k = +1) = 1 - 2^(1-m); refuted (only 'all s_k = -1' is bad)",
    check=positive_sign_test,
    runner=binomial_runner(some_positive, lambda m: 1.0 - 2.0 ** (1 - m), BALANCED_CASES),
    expected=Verdict.REFUTED,
    assumptions=("D~_init",),
    tags=("statistical", "planted"),
)


@measures("none: not decidable as printed (UNKNOWN without a margin)")
def printed_bound(_: Claim) -> DirectOutcome:
    """S-4: the displayed bound "P >= 1 - delta" names no delta: nothing to decide."""
    return DirectOutcome(Verdict.UNKNOWN, "not decidable as printed: the display of Theorem 6.2 reads 'with probability "
                                          ">= 1 - delta' and delta is defined nowhere in the statement (erratum S-4); the "
                                          "sentence's 1 - 2^-m is checked by LY-T62-probability", examples=0)


P_EVENT_PRINTED = paper_claim(
    id="S4-T62-probability-printed",
    node="T62", uses=("BINIT",),
    source="Theorem 6.2, displayed bound '>= 1 - delta' (erratum S-4: printed reading)",
    statement="AS PRINTED: GF reaches (1/2) phi(<w*, x>) with probability >= 1 - delta (delta undefined): not decidable",
    check=lambda _: 0.0,
    runner=printed_bound,
    expected=Verdict.UNKNOWN,
    assumptions=("D~_init",),
    tags=("erratum",),
)
