"""Gradient-flow dynamics: vector fields, integrators with event handling, GD."""

from verify.dynamics.field import NetworkField

__all__ = ["NetworkField"]
