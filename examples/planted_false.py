"""A planted false claim: the search must refute it (expected="REFUTED").

Planting claims that are known to be false is how a checker shows that its checks have teeth: if this
claim came back HOLDS, the search (or the simulator under it) would be blind to activation changes.
The false statement: "no example ever changes the activation pattern of a neuron" -- but in the early
alignment phase neurons rotate toward the data and cross the kinks <w_j, x_i> = 0.

Run it:   verify check examples/planted_false.py --report reports/examples     (exit 0: REFUTED as expected)
          pytest examples/planted_false.py                                      (reported as xfailed)
"""

import numpy as np

import verify
from verify.scenarios import scenario


@verify.claim(id="planted-no-crossing", over=scenario(n=(2, 6), d=(2, 3), h=(2, 5), eps=(1e-4, 1e-2)), horizon=30.0,
              source="user: deliberately false (planted)", expected="REFUTED")
@verify.measures("+1 no activation sign changed / -1 some sign changed (exact decision)")
def no_activation_change(run):
    """FALSE on purpose: sign(<w_j(t), x_i>) = sign(<w_j(0), x_i>) for all i, j and sampled t."""
    initial = np.sign(run.X @ run.W0.T)  # (n, h)
    later = np.sign(np.einsum("id,khd->kih", run.X, run.W))  # (k, n, h)
    changed = int(np.sum(later != initial[None]))
    return changed == 0  # a bool: True holds, False is a violation (margin -1, error 0)
