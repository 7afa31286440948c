"""Activation-path sums of 004 App. C (EA-E5; errata R12, R13) in exact rational arithmetic.

A path is a list of vertices (k+, k-) (the numbers of active positive and negative points); its time is
T(P) = sum over non-terminal vertices of 1/(k+ + k-), in units of 4/(m sqrt(mu) X_min). Exhaustive DP over
monotone paths (reading R12), a search over simple paths under the literal either/or reading, and the
exact re-check of a path witness (registered as witness kind "path" with :mod:`verify.symbolic.witness`).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from verify.symbolic.witness import register_witness_kind


def _harmonic(k: int) -> Fraction:
    return sum((Fraction(1, i) for i in range(1, k + 1)), Fraction(0))


def path_time(path: list[tuple[int, int]]) -> Fraction:
    """T(P) in units of 4/(m sqrt(mu) X_min): sum over non-terminal vertices of 1/(k+ + k-)."""
    return sum((Fraction(1, a + b) for a, b in path[:-1]), Fraction(0))


def max_path_time(n_plus: int, n_minus: int) -> Fraction:
    """T(P_max) = H_{n-} + 1/2 + H_{n+ - 1} (R13), in the same units; n+, n- >= 1."""
    return _harmonic(n_minus) + Fraction(1, 2) + _harmonic(n_plus - 1)


def path_violations(path: list[tuple[int, int]], n_plus: int, n_minus: int, reading: str) -> list[str]:
    """Conditions 1-4 of the path definition (EA-E5) that ``path`` violates under ``reading``.

    reading "monotone": k+ non-decreasing, k- non-increasing, consecutive entries distinct (R12).
    reading "literal": each step has k+ increasing or k- decreasing, and no vertex repeats.
    """
    bad = []
    if not path:
        return ["empty path"]
    for a, b in path:
        if not (0 <= a <= n_plus and 0 <= b <= n_minus):
            bad.append(f"condition 1 fails at {(a, b)}")
        if (a, b) == (0, 0):
            bad.append("condition 4 fails: (0, 0) visited")
    if tuple(path[-1]) != (n_plus, 0):
        bad.append("condition 3 fails: path does not end at (n+, 0)")
    for (a, b), (c, d) in zip(path, path[1:]):
        if (a, b) == (c, d):
            bad.append(f"repeated consecutive vertex {(a, b)}")
        if reading == "monotone" and not (c >= a and d <= b):
            bad.append(f"monotone condition 2 fails on step {(a, b)} -> {(c, d)}")
        if reading == "literal" and not (c > a or d < b):
            bad.append(f"either/or condition 2 fails on step {(a, b)} -> {(c, d)}")
    if reading == "literal" and len(set(map(tuple, path))) != len(path):
        bad.append("vertex repeated")
    return bad


def monotone_successors(v: tuple[int, int], n_plus: int, n_minus: int) -> list[tuple[int, int]]:
    """Next vertices under R12: k+ non-decreasing, k- non-increasing, distinct, never (0, 0)."""
    a, b = v
    return [(c, d) for c in range(a, n_plus + 1) for d in range(0, b + 1)
            if (c, d) != (a, b) and (c, d) != (0, 0)]


def max_monotone_path(n_plus: int, n_minus: int) -> tuple[Fraction, list[tuple[int, int]]]:
    """Exact max of T(P) over all monotone paths (any start) and a maximising path (DP)."""
    goal = (n_plus, 0)

    @lru_cache(maxsize=None)
    def best(v: tuple[int, int]) -> tuple[Fraction, tuple]:
        if v == goal:
            return Fraction(0), (v,)
        options = [best(w) for w in monotone_successors(v, n_plus, n_minus)]
        if not options:
            return Fraction(-1), ()
        t, path = max(options, key=lambda o: o[0])
        return Fraction(1, v[0] + v[1]) + t, (v,) + path

    starts = [(a, b) for a in range(n_plus + 1) for b in range(n_minus + 1) if (a, b) != (0, 0)]
    t, path = max((best(s) for s in starts), key=lambda o: o[0])
    best.cache_clear()
    return t, list(path)


def max_pmax_path(n_plus: int, n_minus: int) -> list[tuple[int, int]]:
    """P_max of EA-E5: (0,n-), ..., (0,1), (1,1), (1,0), (2,0), ..., (n+, 0) (n+, n- >= 1)."""
    return ([(0, b) for b in range(n_minus, 0, -1)] + [(1, 1)] + [(a, 0) for a in range(1, n_plus + 1)])


def longest_literal_path(n_plus: int, n_minus: int, node_limit: int = 200000) -> tuple[Fraction, list]:
    """Max T(P) over simple paths whose steps have k+ increasing or k- decreasing (literal reading)."""
    verts = [(a, b) for a in range(n_plus + 1) for b in range(n_minus + 1) if (a, b) != (0, 0)]
    goal = (n_plus, 0)
    best: list = [Fraction(-1), []]
    visited = 0

    def dfs(path: list, seen: set, total: Fraction) -> None:
        nonlocal visited
        visited += 1
        if visited > node_limit:
            raise RuntimeError("node budget exhausted")
        v = path[-1]
        if v == goal:
            if total > best[0]:
                best[0], best[1] = total, list(path)
            return
        for w in verts:
            if w not in seen and (w[0] > v[0] or w[1] < v[1]):
                seen.add(w)
                path.append(w)
                dfs(path, seen, total + Fraction(1, v[0] + v[1]))
                path.pop()
                seen.discard(w)

    for s in verts:
        dfs([s], {s}, Fraction(0))
    return best[0], best[1]


def check_path(path: list[tuple[int, int]], n_plus: int, n_minus: int, reading: str) -> list[str]:
    """Violated path conditions (delegates to the witness checker)."""
    return path_violations(path, n_plus, n_minus, reading)


def recheck_path_witness(witness: dict) -> tuple[bool, str]:
    """A path witness violates EA-E5 iff the path is admissible under its reading and T(P) > T(P_max)."""
    path = [tuple(v) for v in witness["path"]]
    n_plus, n_minus = witness["n_plus"], witness["n_minus"]
    bad = path_violations(path, n_plus, n_minus, witness["reading"])
    if bad:
        return False, "witness path is not admissible: " + "; ".join(bad)
    t_path, t_max = path_time(path), max_path_time(n_plus, n_minus)
    if t_path > t_max:
        return True, f"T(P) = {t_path} > T(P_max) = {t_max} (exact rationals, units 4/(m sqrt(mu) X_min))"
    return False, f"T(P) = {t_path} <= T(P_max) = {t_max}"


register_witness_kind("path", recheck_path_witness)
