"""Scale-out on Dask (DESIGN.md section 6, "Scale-out"): ``verify check --workers N | --scheduler ADDRESS``
(:mod:`verify.scaleout.check`) and ``verify sweep`` (:mod:`verify.scaleout.sweep`, phase diagram in
:mod:`verify.scaleout.plot`) over :mod:`verify.scaleout.cluster`. Dask is imported only when a cluster is used."""

from verify.scaleout.cluster import add_cluster_options, claim_ref, dask_client, resolve_claim, run_tasks, wants_cluster
from verify.scaleout.sweep import SWEEP_KEYS, SweepStore, draw_scenario, parse_grid, run_sweep

__all__ = ["SWEEP_KEYS", "SweepStore", "add_cluster_options", "claim_ref", "dask_client", "draw_scenario",
           "parse_grid", "resolve_claim", "run_sweep", "run_tasks", "wants_cluster"]
