"""relu-verify: a verification-oriented numeric checker for two-layer ReLU gradient-flow theorems."""

from verify.audit import Audit, audit
from verify.data import Dataset, load_dataset
from verify.errors import InputError, NumericalError, VerifyError
from verify.simulate import simulate

__version__ = "0.1.0"

__all__ = ["Audit", "Dataset", "InputError", "NumericalError", "VerifyError", "__version__", "audit", "load_dataset", "simulate"]
