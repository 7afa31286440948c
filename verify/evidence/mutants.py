"""Planted engine bugs (mutants): each a context manager that monkeypatches the engine in-process.

The mutation suite (``tests/test_mutants.py``) runs catalogue claims under each mutant and
expects some verdict to change: a catalogue whose verdicts survive a wrong engine has no teeth.
Numba kernels cannot be patched in place, so mutants of compiled code patch the Python-level
call site or the mapping that selects the kernel (and route the run through the numpy path).

``MUTANTS`` maps an id to a :class:`Mutant`; ``with MUTANTS[id].active(): ...`` applies it and
restores everything on exit (also on an exception). "Every 10th" counts calls from the start of
the ``with`` block, across runs.
"""

from __future__ import annotations

import contextlib
import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterator, Sequence

import numpy as np

if TYPE_CHECKING:
    from verify.claims.model import Claim

EVERY = 10  # the period of the "every 10th crossing" mutants


@dataclass(frozen=True)
class Mutant:
    """One planted bug: ``id``, what it breaks (``description``), where (``target``), and the patch."""

    id: str
    description: str
    target: str
    patch: Callable[[], contextlib.AbstractContextManager]

    def active(self) -> contextlib.AbstractContextManager:
        """Apply the bug for the duration of a ``with`` block."""
        return self.patch()


@contextlib.contextmanager
def _patched(*replacements: tuple[Any, str, Any]) -> Iterator[None]:
    """setattr(obj, name, value) for each triple; the originals are restored on exit."""
    saved = [(obj, name, obj.__dict__[name] if name in getattr(obj, "__dict__", {}) else getattr(obj, name))
             for obj, name, _ in replacements]
    try:
        for obj, name, value in replacements:
            _set(obj, name, value)
        yield
    finally:
        for obj, name, value in reversed(saved):
            _set(obj, name, value)


def _set(obj: Any, name: str, value: Any) -> None:
    try:
        setattr(obj, name, value)
    except dataclasses.FrozenInstanceError:  # a frozen dataclass instance (a Loss)
        object.__setattr__(obj, name, value)


@contextlib.contextmanager
def _dict_entry(mapping: dict, key: Any, value: Any = None, remove: bool = False) -> Iterator[None]:
    """mapping[key] = value (or del mapping[key]) for the duration; restored on exit."""
    had, old = key in mapping, mapping.get(key)
    try:
        if remove:
            mapping.pop(key, None)
        else:
            mapping[key] = value
        yield
    finally:
        if had:
            mapping[key] = old
        else:
            mapping.pop(key, None)


# float64 event engine -------------------------------------------------------------------------


def _events_skip_crossing() -> contextlib.AbstractContextManager:
    """Every 10th crossing of a single pair or of rows on one line through 0, as the float64 engine settles it
    (``settle.settle_column``), is logged and disarmed but its mode (S, side) is not applied: the pairs keep the old
    slope while their preactivation changes sign. The compiled loop (which settles single pairs itself) is switched
    off, so that every crossing goes through the settling."""
    from dataclasses import replace

    from verify.dynamics import engine, settle, switching

    original = settle.settle_column
    count = [0]

    def settle_column(S: np.ndarray, g: np.ndarray, K: np.ndarray, gain: np.ndarray, j: int, rows: np.ndarray,
                      side: np.ndarray, trig: set, alpha: Any, rep: np.ndarray, sgn: np.ndarray, line_rows: dict,
                      **kw: Any) -> Any:
        out = original(S, g, K, gain, j, rows, side, trig, alpha, rep, sgn, line_rows, **kw)
        lines = bool(line_rows) and any(line_rows[int(r)].size > 1 for r in np.unique(rep[rows]))
        if not trig or not (rows.size == 1 or lines):
            return out
        count[0] += 1
        if count[0] % EVERY:
            return out
        prev = side[out.rows].copy()
        events = [switching.event_kind(p, 1 if p < 0 else -1, int(i) in trig, False) for i, p in zip(out.rows, prev)]
        kept = np.array([int(r) for r in np.unique(rep[out.rows]) if side[int(r)] == 0], dtype=np.int64)
        return replace(out, side=prev, slope=S[out.rows, j].copy(), events=events, sliding=kept,
                       repelling=np.zeros(out.rows.size, dtype=bool))

    return _patched((settle, "settle_column", settle_column), (engine, "COMPILED_LOOP", False))


def _logistic2_weight_halved() -> contextlib.AbstractContextManager:
    """The compiled logistic2 weight loses its factor 2 (w = expit(-z) instead of 2 expit(-z)):
    the loss-code mapping sends logistic2 to the plain-logistic kernel branch."""
    from verify.dynamics import field_jit

    return _dict_entry(field_jit.LOSS_CODES, "logistic2", field_jit.LOSS_CODES["logistic"])


def _numpy_path(*losses: str) -> contextlib.ExitStack:
    """Route runs of these losses through the numpy field (no compiled kernel selected)."""
    from verify.dynamics import field_jit

    stack = contextlib.ExitStack()
    for name in losses:
        stack.enter_context(_dict_entry(field_jit.LOSS_CODES, name, remove=True))
    return stack


def _v_sign_flipped() -> contextlib.AbstractContextManager:
    """v_j' = -sum_i S_ij <x_i, w_j> g_i (sign flipped) in the Cartesian field: the float64 engine
    (numpy path, since the compiled kernel cannot be patched), GD and the checks' own field."""
    from verify.dynamics import field as fieldmod
    from verify.dynamics import forms

    rhs_numpy = forms.CartesianForm.rhs_numpy
    cartesian = fieldmod.NetworkField.cartesian

    def flipped_rhs(self: Any, z: np.ndarray, S: np.ndarray) -> np.ndarray:
        out = rhs_numpy(self, z, S)
        out[self.h * self.d:] *= -1.0
        return out

    def flipped_field(self: Any, W: np.ndarray, v: np.ndarray, S: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        Wdot, vdot = cartesian(self, W, v, S)
        return Wdot, -vdot

    stack = _numpy_path("exp", "logistic", "logistic2", "square", "poly")
    stack.enter_context(_patched((forms.CartesianForm, "rhs_numpy", flipped_rhs),
                                 (fieldmod.NetworkField, "cartesian", flipped_field)))
    return stack


# field conventions ------------------------------------------------------------------------------


def _sigma_prime_zero_one() -> contextlib.AbstractContextManager:
    """sigma'(0) = 1 in ``NetworkField.mode`` (S = 1 where P >= 0), against the paper's sigma'(0) = alpha."""
    from verify.dynamics.field import NetworkField

    def mode(self: Any, P: np.ndarray) -> np.ndarray:
        return np.where(P >= 0.0, 1.0, self.alpha)

    return _patched((NetworkField, "mode", mode))


def _polar_outputs_exp_r() -> contextlib.AbstractContextManager:
    """f(x_i) = sum_j s_j exp(r_j) S_ij <u_j, x_i> in ``NetworkField.polar_outputs`` (exp(2 r_j) is right)."""
    from verify.dynamics.field import NetworkField

    def polar_outputs(self: Any, r: np.ndarray, U: np.ndarray, s: np.ndarray, S: np.ndarray | None = None) -> np.ndarray:
        P = np.matmul(self.X, np.swapaxes(U, -1, -2))
        S = self.mode(P) if S is None else S
        return np.einsum("...nh,...h->...n", P * S, s * np.exp(r))

    return _patched((NetworkField, "polar_outputs", polar_outputs))


def _loss_derivative(name: str) -> Callable[[], contextlib.AbstractContextManager]:
    """The loss weight mirrored, w(z) -> w(-z) (and g - y likewise), in :mod:`verify.model.losses`, with
    the float64 engine routed through it (numpy path): equal at z = 0, wrong once the margins grow."""

    def patch() -> contextlib.AbstractContextManager:
        from verify.model.losses import LOSSES

        loss = LOSSES[name]
        weight, minus_one = loss._weight, loss._weight_minus_one
        stack = _numpy_path(name)
        stack.enter_context(_patched((loss, "_weight", lambda z: weight(-np.asarray(z, dtype=float))),
                                     (loss, "_weight_minus_one", lambda z: minus_one(-np.asarray(z, dtype=float)))))
        return stack

    return patch


# closed-form limit engine -----------------------------------------------------------------------


def _limit_skip_crossing() -> contextlib.AbstractContextManager:
    """Every 10th switching point of the limit engine (``NeuronRun._resolve`` at t > 0) is skipped:
    the pattern is kept, no event is logged, the neuron moves on in the old mode."""
    from verify.dynamics import limit

    original = limit.NeuronRun._resolve
    count = [0]

    def resolve(self: Any, t: float, plane: np.ndarray, crossed: set[int]) -> None:
        if t > 0.0:
            count[0] += 1
            if count[0] % EVERY == 0:
                return
        original(self, t, plane, crossed)

    return _patched((limit.NeuronRun, "_resolve", resolve))


def _limit_alignment_slow() -> contextlib.AbstractContextManager:
    """The limit engine's data weights halved, g_i = -l'(y_i, 0) / 2: the alignment phase runs 2x slower
    (the closed-form engine and the hybrid's limit phase)."""
    from verify.dynamics import hybrid, limit

    original = limit.limit_weights

    def halved(field: Any) -> np.ndarray:
        return 0.5 * original(field)

    return _patched((limit, "limit_weights", halved), (hybrid, "limit_weights", halved))


def _sgd_with_replacement() -> contextlib.AbstractContextManager:
    from verify.dynamics import gd

    return _patched((gd, "epoch_order", lambda rng, n: rng.integers(0, n, size=n)))


MUTANTS: dict[str, Mutant] = {m.id: m for m in (
    Mutant("events-skip-crossing", "every 10th crossing not applied (logged, mode unchanged)",
           "verify/dynamics/settle.py settle_column (single pairs and lines)", _events_skip_crossing),
    Mutant("logistic2-weight-halved", "factor 2 dropped in the compiled logistic2 weight",
           "verify/dynamics/field_jit.py LOSS_CODES", _logistic2_weight_halved),
    Mutant("polar-outputs-exp-r", "exp(r) for exp(2r) in the polar outputs",
           "verify/dynamics/field.py NetworkField.polar_outputs", _polar_outputs_exp_r),
    Mutant("sigma-prime-zero-one", "sigma'(0) = 1 instead of alpha",
           "verify/dynamics/field.py NetworkField.mode", _sigma_prime_zero_one),
    Mutant("v-sign-flipped", "v-update sign flipped (Cartesian field)",
           "verify/dynamics/forms.py CartesianForm.rhs_numpy, verify/dynamics/field.py NetworkField.cartesian",
           _v_sign_flipped),
    Mutant("limit-skip-crossing", "every 10th crossing skipped in the limit engine",
           "verify/dynamics/limit.py NeuronRun._resolve", _limit_skip_crossing),
    Mutant("limit-alignment-slow", "alignment phase 2x slower in the limit engine",
           "verify/dynamics/limit.py limit_weights", _limit_alignment_slow),
    Mutant("sgd-with-replacement", "SGD epochs drawn with replacement instead of a permutation",
           "verify/dynamics/gd.py epoch_order", _sgd_with_replacement),
    *(Mutant(f"loss-{name}-derivative", f"{name} loss derivative mirrored, w(z) -> w(-z)",
             "verify/model/losses.py Loss._weight", _loss_derivative(name))
      for name in ("exp", "logistic", "logistic2", "square")),
)}


def unexpected_under(mutant_id: str | None, claims: Sequence["Claim"], *, profile: str = "ci", budget: int | None = None,
                     seed: int = 0) -> dict[str, str]:
    """Search ``claims`` (in-process, like ``verify check``) under the mutant (None: the engine as is);
    claim id -> verdict of each claim whose verdict is not its expected one (HOLDS expected, PROVED found is as expected)."""
    from verify.cli.profiles import budget_for
    from verify.search import search

    out: dict[str, str] = {}
    with (MUTANTS[mutant_id].active() if mutant_id else contextlib.nullcontext()):
        for claim in claims:
            result = search(claim, budget=budget or budget_for(profile, claim.meta.get("budget")), seed=seed)
            if not result.as_expected:
                out[claim.id] = str(result.verdict)
    return out
