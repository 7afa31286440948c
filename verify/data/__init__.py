"""Datasets: the validated container, file loaders and deterministic generators."""

from verify.data.dataset import Dataset
from verify.data.loaders import load_dataset, save_npz

__all__ = ["Dataset", "load_dataset", "save_npz"]
