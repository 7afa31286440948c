"""An invariant: balancedness v_j^2 - ||w_j||^2 is conserved by gradient flow (seed 004, Lemma 1 / Sec. 2.1).

Run it:   verify check examples/invariant_balancedness.py --report reports/examples
          verify search examples/invariant_balancedness.py::balancedness-conserved --budget 30
          pytest examples/invariant_balancedness.py          (the pytest plugin collects the claim)
"""

import numpy as np

import verify
from verify.scenarios import scenario

# The scenarios to search: orthogonally separable data (the default family), unbalanced initialisations
# (|v_j| != ||w_j||: the invariant is then a nonzero constant), 2-6 examples in 2-3 dimensions, 1-4 neurons,
# eps between 1e-3 and 1e-1. Hypothesis draws structured parameters and shrinks toward the smallest case.
SMALL_UNBALANCED = scenario(init="unbalanced", n=(2, 6), d=(2, 3), h=(1, 4), eps=(1e-3, 1e-1))


@verify.claim(id="balancedness-conserved", over=SMALL_UNBALANCED, horizon=20.0, source="user: 004 Lemma 1")
@verify.measures("minus the largest drift of v_j^2 - ||w_j||^2 (absolute, in squared-weight units)")
def balancedness_conserved(run):
    """v_j(t)^2 - ||w_j(t)||^2 = v_j(0)^2 - ||w_j(0)||^2 for every neuron j and every sampled t."""
    conserved = run.v**2 - np.sum(run.W**2, axis=2)  # (k, h): the invariant at each sample time
    initial = run.v0**2 - np.sum(run.W0**2, axis=1)  # (h,)
    drift = np.abs(conserved - initial[None, :])
    # The margin is -(worst drift): 0 is exact conservation, and any drift is a violation unless it lies
    # within the error bound of the computation: the integrator's tolerance times the size of the weights.
    scale = float(np.max(run.v**2 + np.sum(run.W**2, axis=2)))
    return verify.Margin(-float(drift.max()), error=1e-7 * scale, note="max_j,t |c_j(t) - c_j(0)|")
