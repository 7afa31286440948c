"""The mp backend plans a step from its mpfr series where the float64 series is off by more than its own size.

Near a converged direction the polar field u' = s (G - <u, G> u) cancels, and the float64 run of the series
recurrence loses every digit of the high orders. Planned from those float64 sizes, the steps of an imbalanced
24-point flow at eps = e^-3000 (the counterexample of 004 sheet P11) ran past the series' reach: spurious crossings,
directions far off the unit circle, and a tail estimate of 3.6e-29. The float64 event engine is the independent path.
"""

from __future__ import annotations

import numpy as np
import pytest

import verify
from verify.data import generators as gen
from verify.dynamics.mp import engine
from verify.dynamics.taylor64 import simulate_taylor

T_END = 50.0


def _rotated(x: np.ndarray, angle: float) -> np.ndarray:
    c, s = np.cos(angle), np.sin(angle)
    return np.array([c * x[0] - s * x[1], s * x[0] + c * x[1]])


def _imbalanced_problem() -> tuple:
    """004 sheet P11's scenario: 23 positives, 1 negative (mu = 0.9, d = 2), four neurons near x+ and x-."""
    ds = gen.orthogonally_separable(23, 1, 2, 0.9, seed=0)
    xp, xm = ds.x_plus / np.linalg.norm(ds.x_plus), ds.x_minus / np.linalg.norm(ds.x_minus)
    W0 = np.array([_rotated(xp, 0.2), _rotated(xp, -0.3), _rotated(xm, 0.25), _rotated(xm, -0.15)])
    return ds, W0, np.array([1.0, 1.0, -1.0, -1.0])


def _imbalanced_polar_flow(backend: str, **kw) -> verify.Trajectory:
    ds, W0, v0 = _imbalanced_problem()
    times = np.linspace(T_END / 40, T_END, 40)
    return verify.simulate(ds, W0, v0, T_END, times=times, log_eps=-3000.0, form="polar", backend=backend, **kw)


def _unit_defect(tr: verify.Trajectory) -> float:
    return float(np.abs(np.linalg.norm(np.asarray(tr.U, dtype=float), axis=-1) - 1.0).max())


@pytest.fixture(scope="module")
def float64_run() -> verify.Trajectory:
    return _imbalanced_polar_flow("events")


def test_converged_directions_are_stepped_from_the_mpfr_series(float64_run) -> None:
    mp = _imbalanced_polar_flow("mp", dps=30)
    assert mp.stats["replanned"] > 0  # the float64 series failed on some step, and that step was planned again
    assert [(e.i, e.j, e.kind) for e in mp.events] == [(e.i, e.j, e.kind) for e in float64_run.events] == []
    assert mp.stats["u_norm_drift"] < 1e-28 and _unit_defect(mp) < 1e-15
    assert mp.error_estimate < 1e-15
    gap = max(np.abs(np.asarray(mp.U, dtype=float) - float64_run.U).max(),
              np.abs(np.asarray(mp.r, dtype=float) - float64_run.r).max())
    assert gap < 100 * (1e-10 + float64_run.error_estimate)


def test_steps_planned_from_float64_sizes_go_wrong_and_the_estimate_says_so(monkeypatch, float64_run) -> None:
    """The planted fault: every step planned from the float64 sizes, as before. The run then leaves the unit circle
    and logs crossings the float64 engine does not see; its error estimate, at least the unit-length defect, shows it."""
    monkeypatch.setattr(engine, "float64_sizes_unusable", lambda st: False)
    mp = _imbalanced_polar_flow("mp", dps=30)
    assert mp.stats["replanned"] == 0
    assert len(mp.events) > 0 and mp.stats["u_norm_drift"] > 0.1
    assert mp.error_estimate >= max(mp.stats["u_norm_drift"], _unit_defect(mp)) > 0.1



def test_float64_polar_estimates_cover_their_unit_length_drift() -> None:
    """The exact flow keeps ||u_j|| = 1, so the drift that renormalisation removes is an error the float64 engines'
    estimates must cover: on this flow to P11's horizon the event engine's drift (1.7e-8) exceeded the sum of its
    accepted local error estimates."""
    ds, W0, v0 = _imbalanced_problem()
    T = 4566.0
    times = np.geomspace(T / 1000, T, 60)
    event = verify.simulate(ds, W0, v0, T, times=times, log_eps=-3000.0, form="polar")
    taylor = simulate_taylor(ds, W0, v0, times, loss="exp", alpha=0.0, tol_digits=13, log_eps=-3000.0, form="polar")
    assert event.stats["u_norm_drift"] > 1e-9
    for run in (event, taylor):
        assert run.error_estimate >= run.stats["u_norm_drift"]
