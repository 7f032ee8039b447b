"""This file intentionally left blank."""
