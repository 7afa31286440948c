"""relu-verify: a verification-oriented numeric checker for two-layer ReLU gradient-flow theorems."""

from verify import scenarios
from verify.audit import Audit, audit
from verify.claims import Claim, Margin, claim, measures
from verify.claims.run import Run
from verify.data import Dataset, load_dataset
from verify.errors import InputError, NumericalError, VerifyError
from verify.paper import Blueprint, Erratum, Node, Paper
from verify.simulate import simulate
from verify.verdicts import Verdict

__version__ = "0.1.0"

__all__ = ["Audit", "Blueprint", "Claim", "Erratum", "Node", "Paper", "Dataset", "Margin", "Run", "Verdict", "InputError", "NumericalError", "VerifyError", "__version__", "audit", "claim", "load_dataset", "measures", "scenarios", "simulate"]
