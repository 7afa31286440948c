"""relu-verify: a verification-oriented numeric checker for two-layer ReLU gradient-flow theorems."""

from verify.data import Dataset, load_dataset
from verify.errors import InputError, NumericalError, VerifyError

__version__ = "0.1.0"

__all__ = ["Dataset", "InputError", "NumericalError", "VerifyError", "__version__", "load_dataset"]
