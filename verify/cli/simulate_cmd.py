"""``verify simulate DATA --init INIT.npz --t-end T --out OUT.npz``: run one simulation.

INIT.npz holds ``W`` (h, d) and ``v`` (h,): the initial weights, already scaled by eps, or the
eps-free balanced base when ``--log-eps`` is given. OUT.npz receives the trajectory
(``Trajectory.save``: t, W, v, the event table ev_t, ev_i, ev_j, ev_kind, ev_dir, and r, U
for the polar form). A short summary goes to stdout.
"""

from __future__ import annotations

import argparse
import math
from collections import Counter

from verify.cli.outputs import output_file
from verify.errors import InputError, NumericalError


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``simulate`` subcommand."""
    p = subparsers.add_parser(
        "simulate",
        help="simulate gradient flow (or GD) from an initialisation and save the trajectory",
        description=__doc__.splitlines()[0].strip("`"),
    )
    p.add_argument("data", metavar="DATA", help="dataset: .npz with X, y or .csv with the label last")
    p.add_argument("--init", required=True, metavar="INIT.npz", help="initial weights: .npz with W (h, d) and v (h,)")
    p.add_argument("--t-end", required=True, type=float, metavar="T", help="final time (> 0)")
    p.add_argument("--out", required=True, metavar="OUT", help="where to write the trajectory (.npz; .json with decimal strings for --backend mp)")
    p.add_argument("--backend", default="events", help="events (default; exact event-driven GF), gd, limit, mp (mpmath, --dps digits)")
    p.add_argument("--loss", default="exp", help="exp (default), logistic, logistic2, square, poly (sqrt(1 + m^2) - m)")
    p.add_argument("--alpha", type=float, default=0.0, help="leaky-ReLU slope in [0, 1] (default 0)")
    p.add_argument("--rtol", type=float, default=1e-10, help="relative tolerance of the events backend (default 1e-10)")
    p.add_argument("--lr", type=float, default=None, help="step size (backend gd only)")
    p.add_argument("--batch-size", type=int, default=None, help="minibatch size for SGD (backend gd only)")
    p.add_argument("--seed", type=int, default=0, help="seed for SGD minibatches (default 0)")
    p.add_argument("--fixed-v", action="store_true",
                   help="keep the second layer fixed at INIT's v (train W only; e.g. v = (+1, ..., -1, ...))")
    p.add_argument("--log-eps", type=float, default=None, metavar="X", help="ln(eps): INIT then holds the eps-free balanced base")
    p.add_argument("--form", choices=("auto", "cartesian", "polar"), default="auto", help="state form (default auto)")
    p.add_argument("--dps", type=int, default=None, metavar="N", help="decimal digits (backend mp only)")
    p.add_argument("--times", default=None, metavar="t,t,...", help="comma-separated sample times in [0, T] (T is always added)")
    p.add_argument("--progress", action="store_true", help="show a progress bar on stderr")
    p.set_defaults(func=run)


def parse_times(text: str | None) -> list[float] | None:
    """Parse ``--times`` ("0.5,1,2") into floats; InputError on a malformed list."""
    if text is None:
        return None
    parts = [part.strip() for part in text.split(",")]
    if not parts or any(part == "" for part in parts):
        raise InputError(f"--times: expected comma-separated numbers, got {text!r}")
    values = []
    for part in parts:
        try:
            value = float(part)
        except ValueError:
            raise InputError(f"--times: {part!r} is not a number") from None
        if not math.isfinite(value):
            raise InputError(f"--times: {part!r} is not finite")
        values.append(value)
    return values


def run(args: argparse.Namespace) -> int:
    """Load the inputs, simulate, save, print a summary."""
    from verify.data.loaders import load_dataset, load_npz_arrays
    from verify.simulate import nonfinite_state, simulate

    out = output_file(args.out, "--out")
    wanted = ".json" if args.backend == "mp" else ".npz"
    if out.suffix.lower() != wanted:
        raise InputError(f"--out must be a {wanted} path for backend {args.backend!r}, got {args.out!r}")
    times = parse_times(args.times)
    dataset = load_dataset(args.data)
    init = load_npz_arrays(args.init, ("W", "v"))
    W, v = init["W"], init["v"]
    if W.ndim != 2:
        raise InputError(f"{args.init}: W must be 2-D (h, d), got shape {W.shape}")
    if W.shape[1] != dataset.d:
        raise InputError(f"{args.init}: W has d = {W.shape[1]} columns but {args.data} has d = {dataset.d}")
    if v.shape != (W.shape[0],):
        raise InputError(f"{args.init}: v must have shape ({W.shape[0]},) to match W, got {v.shape}")

    traj = simulate(
        dataset,
        W,
        v,
        args.t_end,
        loss=args.loss,
        backend=args.backend,
        times=times,
        rtol=args.rtol,
        dps=args.dps,
        alpha=args.alpha,
        lr=args.lr,
        log_eps=args.log_eps,
        form=None if args.form == "auto" else args.form,
        batch_size=args.batch_size,
        seed=args.seed,
        train_v=not args.fixed_v,
        progress=True if args.progress else None,
    )
    reason = nonfinite_state(traj)  # the limit backend's W = exp(r) U can overflow: never written as a result
    if reason is not None:
        raise NumericalError(reason)
    try:
        if args.backend == "mp":
            from verify.dynamics.mp import write_json

            write_json(traj, out)
        else:
            traj.save(out)
    except OSError as exc:
        raise InputError(f"--out: cannot write {str(out)!r} ({exc.strerror or exc})") from None

    kinds = Counter(e.kind for e in traj.events)
    events = ", ".join(f"{k} {c}" for k, c in sorted(kinds.items())) or "none"
    h, d = traj.W.shape[1], traj.W.shape[2]
    last = f" (last GD iterate at t = {float(traj.t_end):g})" if float(traj.t_end) != args.t_end else ""
    print(
        f"simulate: backend {traj.params['backend']} ({traj.params['form']}), loss {traj.params['loss']}, "
        f"n={dataset.n} d={d} h={h}, t_end={args.t_end:g}{last}"
    )
    print(f"  samples: {len(traj.times)}; events: {len(traj.events)} ({events})")
    print(f"  balancedness drift: {float(traj.balancedness_drift):.3g}; wall time: {traj.stats['wall_time_s']:.3f} s")
    print(f"  wrote {out}")
    return 0
