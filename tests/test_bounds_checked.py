"""The compiled kernels index only inside their arrays: runs of every compiled path under NUMBA_BOUNDSCHECK=1.

numba does not check indices by default: a kernel that read or wrote past an array's end would give wrong numbers,
or corrupt memory, silently. A subprocess compiles the kernels afresh with bounds checking (its own numba cache
directory) and makes one run of each compiled path: the compiled loop and its settling (Cartesian, four losses,
leaky, log time), the polar form and the hybrid, rows on one line (settled in Python), Filippov sliding
(``filippov_jit``), a hard candidate (the Python step), GD, the limit engine, the mp backend (its compiled float64
and double-double recurrences, also at logistic margins beyond float64's exp range) and seed 003's compiled Euler
flow (``properties/lyu2021_margin/branching.py``), the float64 Taylor engine (crossings, Filippov sliding, polar form;
``taylor64_jit``). An index out of bounds raises IndexError there; every run must also give bit for
bit the results of the same run here, compiled without the checks.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

RUNS = textwrap.dedent(
    """
    import hashlib
    import numpy as np
    from verify import Dataset, simulate
    from verify.data.generators import orthogonally_separable, pc2_cross_class_acute, symmetric_separable
    from verify.model.init import balanced_init

    def digest(tr):
        h = hashlib.sha256()
        for arr in (tr.times, tr.W, tr.v):
            h.update(np.ascontiguousarray(arr, dtype=float).tobytes())
        h.update(repr([(e.t, e.i, e.j, e.kind) for e in tr.events]).encode())
        return h.hexdigest()[:16]

    def runs():
        ds = orthogonally_separable(5, 5, 4, 0.3, seed=1, norm_range=(0.5, 2.0))
        init = balanced_init(8, 4, log_eps=0.0, seed=1)
        W, v = 1e-6 * init.W0, 1e-6 * init.v0
        for loss in ("exp", "logistic", "square", "poly"):
            yield f"cartesian {loss}", simulate(ds, W, v, 30.0, loss=loss, form="cartesian")
        yield "leaky", simulate(ds, W, v, 30.0, loss="logistic", alpha=0.2, form="cartesian")
        yield "log time", simulate(ds, W, v, 3000.0, loss="logistic", times=np.linspace(0, 3000, 7))
        yield "polar", simulate(ds, init.W0, init.v0, 40.0, loss="logistic", log_eps=-8.0, form="polar")
        yield "hybrid", simulate(ds, init.W0, init.v0, 40.0, loss="exp", log_eps=-60.0)
        yield "limit", simulate(ds, init.W0, init.v0, 10.0, log_eps=-30.0, backend="limit")
        yield "gd", simulate(ds, 1e-3 * init.W0, 1e-3 * init.v0, 5.0, backend="gd", lr=1e-2)
        sym = symmetric_separable(5, 3, 0.2, seed=0)
        init = balanced_init(6, 3, log_eps=0.0, seed=5)
        yield "mirror rows", simulate(sym, 1e-4 * init.W0, 1e-4 * init.v0, 20.0, form="cartesian")
        pc2 = pc2_cross_class_acute()
        init = balanced_init(10, pc2.d, log_eps=0.0, seed=4)
        yield "sliding", simulate(pc2, 1e-3 * init.W0, 1e-3 * init.v0, 40.0, loss="logistic2", form="cartesian")
        rng = np.random.default_rng(2)
        hard = Dataset(rng.normal(size=(12, 3)), np.where(rng.random(12) < 0.5, 1.0, -1.0))
        init = balanced_init(10, 3, log_eps=0.0, seed=2)
        yield "hard candidate", simulate(hard, 1e-2 * init.W0, 1e-2 * init.v0, 30.0, loss="logistic", form="cartesian",
                                         rtol=1e-6)
        X, y = np.array([[1.0, 0.2], [-0.3, -1.0], [0.5, -0.8]]), np.array([1.0, -1.0, 1.0])
        W = 1e-3 * np.array([[1.0, 0.5], [0.2, -1.0]])
        v = np.linalg.norm(W, axis=1) * np.array([1.0, -1.0])
        yield "mp 16", simulate((X, y), W, v, 2.0, backend="mp", dps=16)
        yield "mp 30", simulate((X, y), W, v, 2.0, backend="mp", dps=30)
        X = np.array([[30.0, 1.0], [0.01, 0.02], [0.01, -0.03], [-30.0, 2.0]])  # margins ~900 (test_mp_mixed)
        yield "mp logistic", simulate((X, np.array([1.0, 1.0, -1.0, -1.0])), np.array([[1.0, 0.2], [-1.0, 0.3]]),
                                      np.array([30.0, -30.0]), 2.0, loss="logistic", backend="mp", dps=30)
        from verify.dynamics.taylor64 import simulate_taylor
        ds = orthogonally_separable(5, 5, 4, 0.3, seed=0, norm_range=(0.5, 2.0))
        init = balanced_init(8, 4, log_eps=0.0, seed=0)
        yield "taylor sliding", simulate_taylor(ds, 1e-6 * init.W0, 1e-6 * init.v0, np.linspace(0, 40, 5),
                                                loss="square", alpha=0.1, tol_digits=14)
        yield "taylor polar", simulate_taylor(ds, init.W0, init.v0, np.geomspace(1e-2, 1e3, 5), loss="poly",
                                              alpha=0.0, tol_digits=14, log_eps=-30.0)
        from types import SimpleNamespace
        from properties.lyu2021_margin import branching
        sc = branching.repelling_kink_scenario(0.4, 0.1)
        steps = np.array([1, 10, 500])
        Wk, ak = branching.fixed_step(sc.dataset.X, sc.dataset.y, sc.init.W0, sc.init.v0, 1e-3, steps, 1.0)
        yield "A4.6 Euler", SimpleNamespace(times=steps * 1e-3, W=Wk, v=ak, events=[])
    """
)

CHILD = RUNS + textwrap.dedent(
    """
    import numba

    @numba.njit
    def past_the_end(a):
        return a[a.size]

    try:
        past_the_end(np.zeros(3))
        print("unchecked")
    except IndexError:
        print("checked")
    for name, tr in runs():
        print(name, "|", digest(tr))
    """
)


def test_every_compiled_path_runs_bounds_checked_with_the_same_bits(tmp_path):
    env = dict(os.environ, NUMBA_BOUNDSCHECK="1", NUMBA_CACHE_DIR=str(tmp_path / "numba"),
               PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    out = subprocess.run([sys.executable, "-c", CHILD], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    lines = out.stdout.splitlines()
    assert lines[0] == "checked"  # the child really compiles with bounds checks: a read past the end raises
    checked = dict(line.split(" | ") for line in lines[1:])
    space: dict = {}
    exec(RUNS, space)
    trajectories = dict(space["runs"]())
    assert any(e.kind == "sliding" for e in trajectories["sliding"].events)  # the paths named above are taken
    assert any(e.kind == "sliding" for e in trajectories["taylor sliding"].events)
    assert trajectories["hybrid"].stats.get("limit_phase_until") and trajectories["mp 30"].stats["steps"] > 0
    assert all(len(tr.crossings()) > 0 for name, tr in trajectories.items() if name.startswith("cartesian"))
    assert checked == {name: space["digest"](tr) for name, tr in trajectories.items()}
