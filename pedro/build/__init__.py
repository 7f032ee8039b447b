"""Build's direct way for small models: the code asked for directly, checked, and the best answer kept."""

from pedro.build.direct import BuildOutcome, DirectBuild

__all__ = ["BuildOutcome", "DirectBuild"]
