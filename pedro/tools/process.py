"""Kept for modules that still import the child-process runner from here; it lives in pedro.process."""

from pedro.process import ChildCommand, ChildResult, OutputLimits, child_env, describe_exit, run_child

__all__ = ["ChildCommand", "ChildResult", "OutputLimits", "child_env", "describe_exit", "run_child"]
