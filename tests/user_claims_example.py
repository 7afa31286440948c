"""A user claim file written against the public API only (DESIGN.md section 6)."""

import numpy as np

import verify
from verify.scenarios import scenario


@verify.claim(id="user-balancedness", over=scenario(n=(2, 4), d=(2, 3), h=(1, 3), eps=(1e-3, 1e-2)), horizon=5.0,
              source="user: seed 004 Sec. 2.1")
def balancedness_small(run):
    """v_j^2 - ||w_j||^2 stays within 1e-9 of its initial value (true)."""
    c = run.v**2 - np.sum(run.W**2, axis=2)
    c0 = run.v0**2 - np.sum(run.W0**2, axis=1)
    scale = np.maximum(run.v**2, 1e-300)
    return verify.Margin(-float(np.max(np.abs(c - c0) / scale)), 1e-9)


@verify.claim(id="user-no-growth", over=scenario(n=(2, 4), d=(2, 3), h=(1, 3), eps=(1e-3, 1e-2)), horizon=30.0,
              source="user: deliberately false")
def norms_never_double(run):
    """FALSE on purpose: ||w_j(t)|| <= 2 ||w_j(0)|| for all t (small-init growth breaks it)."""
    ratio = np.linalg.norm(run.W, axis=2) / np.linalg.norm(run.W0, axis=1)[None]
    return 2.0 - float(ratio.max())
