"""Theorem 1's hypotheses at a drawn case (the preconditions of theorem-scale claims: failing
examples are vacuous, never evidence) and the part-2 horizon several sections share.
"""

from __future__ import annotations

import numpy as np

from properties.min2024_early_alignment import measures as tm


def _theorem_scale(run) -> bool | str:
    """Hypotheses of Theorem 1 at the drawn case: Assumption 1, Assumption 2, n >= 2, eps <= eps_req."""
    a = run.audit
    if "eps_mode_undefined" in run.scenario.params:
        return run.scenario.params["eps_mode_undefined"]
    if not a.assumption1:
        return "Assumption 1 fails (mu <= 0)"
    if not a.assumption2:
        return "Assumption 2 fails (c_star = 1)"
    if a.n < 2:
        return "n = 1: the t1 formula gives 0 (erratum 3, separate claims)"
    if a.t1 is None:
        return "t1 undefined"
    if not a.eps_satisfies:
        return "eps above eps_required (28)"
    return True


def _both_groups_at(run, t: float) -> bool | str:
    """Part-2 precondition (sheet 2.F): S+ and S- each contain a neuron at time t."""
    pieces = tm.pattern_history(run)
    pos = frozenset(np.flatnonzero(run.y > 0).tolist())
    neg = frozenset(np.flatnonzero(run.y < 0).tolist())
    _, _, s = tm.initial_polar(run)
    have_p = have_m = False
    for j, hist in enumerate(pieces):
        pat = next((p.active for p in hist if p.t_start <= t <= p.t_end), hist[-1].active)
        have_p |= s[j] > 0 and pat == pos and len(pos) > 0
        have_m |= s[j] < 0 and pat == neg and len(neg) > 0
    if not (have_p and have_m):
        return "part 2 precondition false: S+ or S- holds no neuron at t1 (sheet P12)"
    return True


def _part2(run) -> bool | str:
    ok = _theorem_scale(run)
    if ok is not True:
        return ok
    if not run.audit.both_classes:
        return "single class: part 2 does not apply (P14)"
    t1e = tm.alignment_time(run)
    if not t1e <= run.audit.T_eps:
        return f"t1_emp = {t1e:.6g} > T(eps): Lemma 3 at t1 unavailable"
    return _both_groups_at(run, min(run.audit.t1, run.horizon))


def _h_part2(sc, a):
    """Past t2: 1.5 x the (39) bound (or 3 t1 when it is undefined)."""
    if a.t1 is None:
        return None
    return 1.5 * a.t2 if a.t2 is not None else 3.0 * a.t1
