"""A paper plug-in written against the public API only: two claims, one true, one planted false."""

import numpy as np

import verify
from verify.scenarios import scenario

SMALL = scenario(n=(2, 3), d=(2, 2), h=(1, 2), eps=(1e-3, 1e-2))


@verify.claim(id="T01-balancedness", over=SMALL, horizon=1.0, source="T01 Lemma 1", node="L1")
def balancedness(run):
    """v_j^2 - ||w_j||^2 is conserved (true under gradient flow)."""
    c = run.v**2 - np.sum(run.W**2, axis=2)
    c0 = run.v0**2 - np.sum(run.W0**2, axis=1)
    return verify.Margin(-float(np.max(np.abs(c - c0))), 1e-9)


@verify.claim(id="T01-planted-no-growth", over=SMALL, horizon=20.0, source="T01 Lemma 2 (planted)",
              expected="REFUTED", node="L2", uses=("L1",))
def no_growth(run):
    """FALSE on purpose: ||w_j(t)|| <= 2 ||w_j(0)||."""
    ratio = np.linalg.norm(run.W, axis=2) / np.linalg.norm(run.W0, axis=1)[None]
    return 2.0 - float(ratio.max())


PAPER = verify.Paper(
    "T01", "A tiny third-party paper", [balancedness, no_growth], source="tests/third_party_paper",
    blueprint=verify.Blueprint((verify.Node("L1", "Lemma 1", "balancedness"), verify.Node("L2", "Lemma 2", "growth")),
                               (("L1", "L2"),)),
    errata=(verify.Erratum("E1", "Lemma 2 is false as stated", claims=("T01-planted-no-growth",)),),
)
