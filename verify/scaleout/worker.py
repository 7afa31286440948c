"""Dask worker preload of ``verify check --workers`` / ``verify sweep --workers`` (LocalCluster workers):
Ctrl-C in the terminal reaches the ``verify`` process, which cancels the run; the workers ignore it (a worker
restarted after a death does too). The engine itself is imported by the first task."""

from __future__ import annotations

import signal
import threading
from typing import Any


def dask_setup(worker: Any) -> None:
    """Ignore SIGINT in this worker process."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
