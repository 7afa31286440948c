"""High-precision (mpmath) backend: Taylor series per mode with exact event location.

Public API: :func:`solve_mp` (the integrator), :func:`write_json` / :func:`read_json` (full-precision I/O).
Modules: ``series`` (the Taylor recurrences of the GF field in a fixed mode, vectorised over
neurons and data, in mpfr or float64; compiled: ``series_jit`` in float64, ``series_dd`` in
double-double), ``field`` (data, mode, loss; per-component series),
``taylor`` (the scalar recurrences and polynomial helpers), ``integrator`` (order and step
control, mixed precision, error estimate), ``screen`` (float64 exclusion of pairs that
cannot cross), ``events`` (polynomial root location and switching rules), ``engine`` (the
integration loop) with its parts ``planning`` (series, step length, screen, the orders' arithmetic), ``locate``
(exact event search of a step), ``settling`` (projection and switching at an event) and ``step``
(the series of one step and its pair polynomials), ``solve`` (inputs, outputs, the rerun estimate), ``io`` (JSON with decimal strings), ``inputs`` (number conversion), ``num``
(gmpy2 mpfr kernel, object-array helpers and exact mpf <-> mpfr conversion).
"""

from verify.dynamics.mp.solve import solve_mp

__all__ = ["solve_mp", "write_json", "read_json"]


def __getattr__(name):  # lazy: keep ``import verify.dynamics.mp`` cheap
    if name in ("write_json", "read_json"):
        from verify.dynamics.mp import io

        return getattr(io, name)
    raise AttributeError(name)
