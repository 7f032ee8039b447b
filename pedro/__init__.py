"""pedro: a terminal coding agent for local models."""

__version__ = "0.1.0"

__all__ = ["__version__"]
