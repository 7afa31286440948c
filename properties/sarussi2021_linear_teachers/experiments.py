"""Seed 002's experiments (claim sheet 002 section 3; the OCR lost every caption and hyper-parameter, so each run is
the sheet's suggested configuration and checks the prose's qualitative outcome): the synthetic Figures 1, 3-5, 4, 8
and 9 (:mod:`.figure_runs`) and the real-MNIST Figures 2, 6, 7 (:mod:`.mnist_runs`)."""

from verify.reproduce import Experiment

from properties.sarussi2021_linear_teachers.figure_runs import (fig1_init_scale, fig3_5_clustered, fig4_symmetric_par,
                                                                fig8_high_dim_par, fig9_outlier)
from properties.sarussi2021_linear_teachers.mnist_runs import fig2_mnist

EXPERIMENTS = (
    Experiment("002-fig1-init-scale", "Figure 1: small vs large init, clustering and a linear boundary (SGD)",
               fig1_init_scale, "002 Section 1, Figure 1; sheet 3"),
    Experiment("002-fig2-mnist", "Figures 2, 6, 7: MNIST pairs, rho, linear-regime shares, theta_max",
               fig2_mnist, "002 Section 5.1, App. D.2-D.3; sheet 3"),
    Experiment("002-fig3-5-clustered", "Figures 3 and 5: clustered leaky and ReLU nets",
               fig3_5_clustered, "002 Section 5.1, App. D.1; sheet LT-I51, LT-I52"),
    Experiment("002-fig4-symmetric-par", "Figure 4: PAR on antipodal Gaussians and the QP (8) prediction",
               fig4_symmetric_par, "002 Section 6.3, Theorem 6.2; sheet 3"),
    Experiment("002-fig8-high-dim-par", "Figure 8: share of neurons in PAR in high dimension",
               fig8_high_dim_par, "002 Appendix I; sheet 3"),
    Experiment("002-fig9-outlier", "Figure 9: an outlier gives NAR but not PAR",
               fig9_outlier, "002 Appendix J; sheet 3"),
)
