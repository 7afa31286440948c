"""Seed 003's datasets (claim sheet 003 sections 3.3 and 5), registered as the paper's ``datasets``
(``gen:d_sym``, ``gen:d_s``, ``gen:hinted:H=5,K=1,eps=0.05`` and the like), and the Hypothesis strategy of
random symmetric separable data (Assumptions 3.2 and 4.1 by construction).

Symmetric layout (Assumption 4.1): rows 0..n/2-1 are the positives x_i (y = +1), rows n/2..n-1 their mirrors
-x_i (y = -1), exactly the paper's order.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import strategies as st

from verify.data.dataset import Dataset
from verify.margins import max_margin
from verify.scenarios import SEEDS
from verify.strategies import GeometryCase

D_SYM_POSITIVES = (
    (-0.0694077139, 0.7378795994, -0.3591999273),
    (0.7622988656, 0.0793224496, -0.6273241175),
    (0.4942199080, 0.3607559292, 0.0980356878),
    (-0.0017716367, 0.2611136772, -0.5124472869),
    (0.1571064397, 0.2543894625, -0.4327710393),
    (0.4614926951, -0.2840343637, 0.8375270078),
    (0.3446944565, 0.6786557293, -0.1126583796),
    (0.4432026937, -0.6499961584, -0.3619913421),
    (0.5629770357, 0.2876701623, 0.3342773559),
    (0.4226410894, 0.4529553938, 0.0405655711),
)

D_S_ROWS = (
    ((0.4638030056, -0.5807800567, 0.0950138101), 1),
    ((-0.1785244592, 0.6856538671, 0.0465878685), -1),
    ((-0.2139665485, -0.5081619785, -0.8026200500), 1),
    ((0.2525706425, -0.1250175624, 0.5019276805), 1),
    ((0.0087074734, 0.5548406918, 0.1956544480), -1),
    ((-0.0782996138, 0.2314764080, 0.8286889934), -1),
    ((-0.1426008499, 0.5868432690, -0.5190122635), -1),
    ((-0.8045701938, 0.2905466288, -0.2730046888), -1),
    ((0.2077010074, 0.5263378922, -0.3341655475), -1),
    ((0.1384049166, 0.7938239460, -0.1467652439), -1),
    ((0.0448271881, -0.4878566998, 0.1350025122), 1),
    ((-0.8206781476, 0.0307235350, -0.4827849266), -1),
)
D_S_W_PERP = (-0.7067351707, -0.6365501479, 0.3087544457)  # sheet 3.3: the unit w_perp used for the hints


def symmetric(positives: np.ndarray, name: str) -> Dataset:
    """Assumption 4.1's layout: the positives, then their mirrors -x_i with label -1."""
    P = np.asarray(positives, dtype=float)
    return Dataset(np.vstack([P, -P]), np.r_[np.ones(len(P)), -np.ones(len(P))], name=name)


def d_sym() -> Dataset:
    """Sheet 3.3 D-SYM: d = 3, n = 20, symmetric; w* = (0.9147, 0.3689, -0.1649), gamma_lin = 0.1792223322."""
    return symmetric(np.array(D_SYM_POSITIVES), "d_sym")


def d_s() -> Dataset:
    """Sheet 3.3 D-S: d = 3, n = 12, not symmetric; gamma_lin = 0.2474237980, global margin (m >= 2) ~ 0.1081."""
    return Dataset([r for r, _ in D_S_ROWS], [y for _, y in D_S_ROWS], name="d_s")


def hinted(H: float, K: float, eps: float, base: Dataset | None = None, w_perp: np.ndarray | None = None,
           w_star: np.ndarray | None = None) -> Dataset:
    """Definition 6.1: S plus (H w*, +1), (eps w* + K w_perp, +1), (eps w* - K w_perp, +1); S = D-S by default with
    the sheet's w_perp (for another S, ``w_perp`` must be a unit vector orthogonal to S's w*); ``w_star``: S's w*
    where the caller has it (else solved here)."""
    S = d_s() if base is None else base
    w_star = max_margin(S).svm.direction if w_star is None else np.asarray(w_star, dtype=float)
    u = np.asarray(D_S_W_PERP if w_perp is None else w_perp, dtype=float)
    u = u - (u @ w_star) * w_star
    u /= np.linalg.norm(u)
    hints = np.vstack([H * w_star, eps * w_star + K * u, eps * w_star - K * u])
    return Dataset(np.vstack([S.X, hints]), np.r_[S.y, np.ones(3)], name=f"hinted(H={H:g}, K={K:g}, eps={eps:g})")


def d_sym_orthogonal_pair() -> Dataset:
    """Sheet 5 fixture 6 (S-13): D-SYM plus a mirrored pair (z, +1), (-z, -1) orthogonal to the *new* mu (A4.5 violated
    up to rounding, A4.1 kept): z = c u + b mu^ with u = (w* - <w*, mu^> mu^) / ||...||, mu^ of D-SYM, c = 0.3 and b
    the small root of b ||S|| + c^2 + b^2 = 0 (S = sum of D-SYM's positives), so <S + z, z> = 0; separable
    (<w*, z> = c sqrt(1 - <w*, mu^>^2) + b <w*, mu^> > 0)."""
    base = d_sym()
    P = base.X[: base.n // 2]
    S = P.sum(axis=0)
    s_norm = float(np.linalg.norm(S))
    mu_hat = S / s_norm
    w_star = max_margin(base).svm.direction
    u = w_star - (w_star @ mu_hat) * mu_hat
    u /= np.linalg.norm(u)
    c = 0.3
    b = (-s_norm + math.sqrt(s_norm**2 - 4.0 * c**2)) / 2.0
    return symmetric(np.vstack([P, c * u + b * mu_hat]), "d_sym_orthogonal_pair")


def d_sym_perturbed(jitter: float = 1e-3, seed: int = 0) -> Dataset:
    """Sheet 5 fixture 7: D-SYM with its mirror points jittered by ``jitter`` (A4.1 broken slightly)."""
    base = d_sym()
    rng = np.random.default_rng(seed)
    X = base.X.copy()
    X[base.n // 2:] += jitter * rng.standard_normal((base.n // 2, base.d))
    return Dataset(X, base.y, name=f"d_sym_perturbed(jitter={jitter:g}, seed={seed})")


def random_symmetric(n_half: int, d: int, *, seed: int, tilt: float = 0.3) -> Dataset:
    """Random symmetric separable data: positives u_i / ||u_i|| scaled into [0.3, 1], u_i = g_i + c e with e a random
    unit direction, c such that every <u_i, e> >= tilt (so e separates, Assumption 3.2), then mirrored (4.1)."""
    rng = np.random.default_rng(seed)
    e = rng.standard_normal(d)
    e /= np.linalg.norm(e)
    G = rng.standard_normal((n_half, d))
    G /= np.linalg.norm(G, axis=1, keepdims=True)
    U = G + np.maximum(0.0, tilt - G @ e)[:, None] * e[None]
    U = U / np.linalg.norm(U, axis=1, keepdims=True) * rng.uniform(0.3, 1.0, size=(n_half, 1))
    return symmetric(U, f"random_symmetric(n_half={n_half}, d={d}, seed={seed})")


def _gen_hinted(H: float = 5.0, K: float = 1.0, eps: float = 0.05) -> Dataset:
    return hinted(float(H), float(K), float(eps))


DATASETS = {"d_sym": d_sym, "d_s": d_s, "hinted": _gen_hinted, "d_sym_orthogonal_pair": d_sym_orthogonal_pair,
            "d_sym_perturbed": d_sym_perturbed, "random_symmetric": random_symmetric}


@st.composite
def symmetric_cases(draw: st.DrawFn, n_half: tuple[int, int] = (1, 6), d: tuple[int, int] = (2, 4),
                    fixtures: bool = True) -> GeometryCase:
    """A symmetric separable dataset (D-SYM or :func:`random_symmetric`) and a seed for the check's random draws."""
    if fixtures and draw(st.integers(0, 4)) == 0:
        return GeometryCase(d_sym(), draw(SEEDS), {"data": "d_sym"})
    params = {"n_half": draw(st.integers(*n_half)), "d": draw(st.integers(*d)), "seed": draw(SEEDS)}
    return GeometryCase(random_symmetric(**params), draw(SEEDS), {"data": "random_symmetric", **params})


def fixed_cases(*builders) -> st.SearchStrategy[GeometryCase]:
    """Cases on the named fixed datasets, with a seed for the check's random draws."""
    return st.builds(lambda b, seed: GeometryCase(b(), seed, {"data": b().name}), st.sampled_from(builders), SEEDS)
