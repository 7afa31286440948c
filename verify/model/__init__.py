"""The two-layer network: losses, (leaky) ReLU, initialisations."""

from verify.model.activation import sigma, sigma_prime
from verify.model.init import Initialization, balanced_init, dominated_init, given_init, unbalanced_init
from verify.model.losses import LOSSES, Loss, get_loss

__all__ = [
    "LOSSES",
    "Initialization",
    "Loss",
    "balanced_init",
    "dominated_init",
    "get_loss",
    "given_init",
    "sigma",
    "sigma_prime",
    "unbalanced_init",
]
