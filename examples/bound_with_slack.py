"""A bound, with its slack: a Gronwall bound on the growth of the first-layer norms under the exp loss.

Along gradient flow from a balanced init (|v_j| = ||w_j||), with sigma' in {0, 1} and |l'| = l for the
exp loss, d||w_j||^2/dt <= 2 |v_j| ||w_j|| X_max sum_i l_i <= 2 X_max L(0) ||w_j||^2, since the loss L
never increases. Hence, for every neuron and every t,

    ln(||w_j(t)|| / ||w_j(0)||) <= X_max L(0) t.

The check returns a verify.Margin with ``ratio`` = measured / bound: the search pushes toward the data
where the bound is tightest, and the report prints the largest ratio found as the bound's slack
(a ratio of 0.3 means the bound is about 3x loose where it was checked).

Run it:   verify check examples/bound_with_slack.py --report reports/examples
"""

import numpy as np

import verify
from verify.scenarios import scenario


def network_outputs(W, v, X):
    """f(x_i) = sum_j v_j relu(<w_j, x_i>), for every row of X."""
    return np.maximum(X @ W.T, 0.0) @ v


@verify.claim(id="norm-growth-gronwall", over=scenario(n=(2, 6), d=(2, 3), h=(1, 4), eps=(1e-4, 1e-2), loss="exp"),
              horizon=10.0, source="user: Gronwall bound from balancedness and a nonincreasing loss")
@verify.measures("min over j, t of the bound X_max L(0) t minus ln(||w_j(t)|| / ||w_j(0)||) (log-norm units)")
def norm_growth_gronwall(run):
    """ln(||w_j(t)|| / ||w_j(0)||) <= X_max L(0) t for every neuron j and sampled t > 0."""
    x_max = float(np.max(np.linalg.norm(run.X, axis=1)))
    loss0 = float(np.sum(np.exp(-run.y * network_outputs(run.W0, run.v0, run.X))))
    rate = x_max * loss0
    growth = np.log(np.linalg.norm(run.W, axis=2) / np.linalg.norm(run.W0, axis=1)[None, :])  # (k, h)
    measured = growth.max(axis=1)  # the fastest-growing neuron at each sample time
    bound = rate * run.times
    ratio = float(np.max(measured / bound))
    # error: the integrator's relative tolerance on the log-norms (1e-10 relative, generously 1e-8 absolute)
    return verify.Margin(float(np.min(bound - measured)), error=1e-8, ratio=max(ratio, 0.0),
                         note=f"largest measured / bound {ratio:.3g}")
