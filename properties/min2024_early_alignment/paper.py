"""Seed 004 as a plug-in: ``PAPER``, registered under the entry point ``verify.papers`` "004"."""

from verify.paper import Paper

from properties.min2024_early_alignment import CLAIMS

PAPER = Paper(
    "004",
    "Early Neuron Alignment in Two-layer ReLU Networks with Small Initialization",
    CLAIMS,
    source="Min, Mallada & Vidal, ICLR 2024 (seeds/004_3d2e519e1927f769.txt; claim sheet 004-early-alignment.md)",
)
