"""Discrete gradient descent / SGD on the summed loss (what the papers ran), backend "gd".

Full batch:   W <- W + lr Wdot,  v <- v + lr vdot,  (Wdot, vdot) = CartesianForm.rhs(z, S)
(:meth:`NetworkField.cartesian`, compiled),
the negative gradient of L = sum_i l(y_i, f(x_i)) in the mode S = field.mode(X W^T) of the
current iterate (sigma'(0) = alpha: 0 for ReLU, the paper's convention; dead neurons get zero
update, so GD is automatically a regular solution). Step k ends at GF time t = k lr: with the
summed loss, lr is the GF time step (a mean-loss GD of step eta reaches summed time k eta/n).

SGD (batch_size < n): each epoch draws a permutation of the data and takes floor(n/b)
consecutive batches of size b (the remainder is dropped, as with drop_last=True); the data indices
of step k's batch are ``stats["order"][k]`` ((steps, b) integers; runs of more than MAX_ORDER steps
do not record it and say so in ``stats["order_note"]``). The batch
gradient is that of the summed loss over the batch scaled by n/b, an unbiased estimate of
the full summed-loss gradient, so the time correspondence t = k lr holds in expectation. It
is the same ``rhs`` call with S zeroed on the rows outside the batch (those rows then
drop out of both gradients), times n/b.

Sampling: there are no partial steps. A requested time t is served by the last iterate at or
before it, k = floor(t/lr) (t/lr within 1e-9 of an integer counts as that integer), and
``Trajectory.times`` holds the TRUE times k lr of the reported iterates (requested times that
share a step are reported once, so the times stay strictly increasing);
``stats["requested_times"]`` keeps what was asked for and ``stats["max_time_offset"]`` < lr the
largest t - k lr. A step lr larger than the horizon is an InputError (no step would be taken), and
so is a run of more than MAX_STEPS steps (t_end / lr above 1e8: hours of work).

Divergence: iterates or balancedness terms that leave float64 (overflow, NaN) end the run with
NumericalError; no overflow warning is printed and no non-finite number is returned.

Events: a sign change of P_ij = <x_i, w_j> between consecutive iterates is recorded with
t = the end time of that step ("activate" for <= 0 -> > 0, "deactivate" the other way); the
true GF crossing lies within that one step. For ReLU a neuron whose last active point is
lost gets Event(kind="dead", i=-1) (at t = 0 for neurons that start with no active point).

Balancedness: per step c_j = v_j^2 - ||w_j||^2 changes by exactly
    2 lr (v_j vdot_j - <w_j, Wdot_j>) + lr^2 (vdot_j^2 - ||Wdot_j||^2),
where the first term vanishes by homogeneity (sigma(p) = p sigma'(p)) when v is trained. The
accumulated prediction up to each sample is ``stats["balancedness_gd_prediction"]`` (k, h);
it matches the actual drift c(t) - c(0) to rounding.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from verify.dynamics.field import NetworkField, single_thread_blas
from verify.dynamics.forms import CartesianForm
from verify.dynamics.times import sample_times
from verify.errors import InputError, NumericalError
from verify.trajectory import Event, Trajectory, balancedness_change

MAX_STEPS = 10**8  # about an hour at the benchmark's 35 us per step
MAX_ORDER = 10**7  # SGD runs up to this many steps record the batch order (80 MB at batch 1)


def _events_between(P_old_pos: np.ndarray, P_new_pos: np.ndarray, t: float, alpha: float) -> list[Event]:
    """Sign changes of P (n, h) between two iterates, and neurons that just died."""
    events = []
    ii, jj = np.nonzero(P_old_pos != P_new_pos)
    for i, j in zip(ii.tolist(), jj.tolist()):
        up = bool(P_new_pos[i, j])
        events.append(Event(t, i, j, "activate" if up else "deactivate", 1 if up else -1))
    if alpha == 0.0 and jj.size:
        for j in np.unique(jj).tolist():
            if not P_new_pos[:, j].any() and P_old_pos[:, j].any():
                events.append(Event(t, -1, j, "dead", 0))
    return events


def epoch_order(rng: np.random.Generator, n: int) -> np.ndarray:
    """One SGD epoch's visiting order: a uniform permutation of range(n) (sampling without replacement)."""
    return rng.permutation(n)


def steps_at(times: np.ndarray, lr: float) -> np.ndarray:
    """k = floor(t / lr) per time, with t/lr within 1e-9 (relative) of an integer taken as that integer."""
    q = np.asarray(times, dtype=float) / lr
    k = np.rint(q)
    return np.where(np.abs(q - k) <= 1e-9 * np.maximum(1.0, k), k, np.floor(q)).astype(np.int64)


def solve_gd(
    field: NetworkField,
    W0: np.ndarray,
    v0: np.ndarray,
    times: np.ndarray,
    *,
    lr: float,
    batch_size: int | None = None,
    seed: int = 0,
    progress: Callable[[float, float], None] | None = None,
) -> Trajectory:
    """Run GD (or SGD with ``batch_size`` < n) with step ``lr`` on the summed loss.

    ``W0`` (h, d), ``v0`` (h,): initial weights. ``times``: requested sample times (strictly
    increasing, >= 0); each is served by the iterate after k = floor(t/lr) steps and the
    trajectory's times are the true times k lr (module docstring). ``seed`` drives the SGD
    batches only. ``progress(t, t_end)`` is called about 100 times during the run.
    ``stats``: steps, sample_steps, requested_times, max_time_offset, lr, batch_size,
    n_events, balancedness_gd_prediction (k, h), balancedness_actual (k, h).
    """
    times = sample_times(times)
    if lr is None or isinstance(lr, (str, bytes)):
        raise InputError(f"GD needs a numeric step lr, got {lr!r}")
    lr = float(lr)
    if not np.isfinite(lr) or lr <= 0.0:
        raise InputError(f"lr must be a positive finite number, got {lr!r}")
    n, d = field.X.shape
    W = np.array(W0, dtype=float)
    v = np.array(v0, dtype=float).reshape(-1)
    if W.ndim != 2 or W.shape[1] != d:
        raise InputError(f"W0 must have shape (h, {d}), got {W.shape}")
    h = W.shape[0]
    if v.shape != (h,):
        raise InputError(f"v0 must have shape ({h},), got {v.shape}")
    if not (np.all(np.isfinite(W)) and np.all(np.isfinite(v))):
        raise InputError("W0 and v0 must be finite")
    b = n if batch_size is None else int(batch_size)
    if not 1 <= b <= n:
        raise InputError(f"batch_size must lie in [1, {n}], got {batch_size!r}")
    sgd = b < n
    rng = np.random.default_rng(seed)
    per_epoch = n // b
    perm = np.arange(n)
    mask = np.zeros(n)
    scale = n / b

    if lr > float(times[-1]):
        raise InputError(f"lr = {lr:g} is larger than the horizon t_end = {float(times[-1]):g}: GD would take no step")
    if float(times[-1]) / lr > MAX_STEPS:
        raise InputError(f"t_end / lr = {float(times[-1]) / lr:.3g} GD steps: more than {MAX_STEPS:.0e}; "
                         "use a larger lr or the events backend (exact gradient flow)")
    requested = times
    sample_steps = np.unique(steps_at(times, lr))
    times = sample_steps * lr
    n_steps = int(sample_steps[-1])
    t_end = float(times[-1])
    report_every = max(1, n_steps // 100)
    order = np.empty((n_steps, b), dtype=np.int64) if sgd and n_steps <= MAX_ORDER else None

    form = CartesianForm(field, h, d)
    z = form.pack(W, v)
    W_init, v_init = W, v
    W, v = form.unpack(z)  # views into z, updated in place
    Ws = np.empty((times.size, h, d))
    vs = np.empty((times.size, h))
    pred = np.empty((times.size, h))
    drift_pred = np.zeros(h)
    events: list[Event] = []

    P = field.X @ W.T
    pos = P > 0.0
    if field.alpha == 0.0:
        events.extend(Event(0.0, -1, int(j), "dead", 0) for j in np.flatnonzero(~pos.any(axis=0)))
    with single_thread_blas(n, h, d), np.errstate(over="ignore", invalid="ignore"):  # divergence is checked below
        q = 0
        for k in range(n_steps + 1):
            while q < times.size and sample_steps[q] == k:
                Ws[q], vs[q], pred[q] = W, v, drift_pred
                if not (np.all(np.isfinite(W)) and np.all(np.isfinite(v)) and np.all(np.isfinite(drift_pred))):
                    raise NumericalError(f"GD diverged (weights beyond float64's range) by step {k} "
                                         f"(t = {k * lr:.6g}); reduce lr")
                q += 1
            if k == n_steps:
                break
            S = field.mode(P)
            if sgd:
                slot = k % per_epoch
                if slot == 0:
                    perm = epoch_order(rng, n)
                mask[:] = 0.0
                mask[perm[slot * b:(slot + 1) * b]] = 1.0
                if order is not None:
                    order[k] = perm[slot * b:(slot + 1) * b]
                F = form.rhs(z, S * mask[:, None])
                F *= scale
            else:
                F = form.rhs(z, S)
            Wdot, vdot = form.unpack(F)
            drift_pred += lr * lr * (vdot * vdot - np.einsum("hd,hd->h", Wdot, Wdot))
            if not field.train_v:
                drift_pred -= 2.0 * lr * np.einsum("hd,hd->h", W, Wdot)
            F *= lr
            z += F
            np.matmul(field.X, W.T, out=P)
            new_pos = P > 0.0
            if not np.array_equal(new_pos, pos):
                events.extend(_events_between(pos, new_pos, (k + 1) * lr, field.alpha))
                pos = new_pos
            if progress is not None and (k + 1) % report_every == 0:
                progress((k + 1) * lr, t_end)

    with np.errstate(over="ignore", invalid="ignore"):
        actual, size2 = balancedness_change(W_init, v_init, Ws, vs)
        drift = float(np.max(np.abs(actual) / size2))
    if not np.isfinite(drift):
        raise NumericalError("GD iterates grew beyond float64's range (their squares overflow); reduce lr or the init")
    return Trajectory(
        times=times,
        W=Ws,
        v=vs,
        events=events,
        backend="gd",
        balancedness_drift=drift,
        stats={
            "steps": n_steps,
            "sample_steps": sample_steps.tolist(),
            "requested_times": requested.tolist(),
            "max_time_offset": float(np.max(requested - steps_at(requested, lr) * lr)),
            "lr": lr,
            "batch_size": b,
            "n_events": sum(1 for e in events if e.kind in ("activate", "deactivate")),
            "balancedness_gd_prediction": pred,
            "balancedness_actual": actual,
            **({} if not sgd else {"order": order} if order is not None else
               {"order_note": f"{n_steps} steps: more than {MAX_ORDER}, the batch order is not recorded"}),
        },
        params={"loss": field.loss.name, "alpha": field.alpha, "t_end": t_end, "lr": lr, "batch_size": b, "seed": seed, "train_v": field.train_v},
    )
