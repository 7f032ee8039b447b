# Written by the build (hatch-vcs) in the real project.
__version__ = "4.15.0"
