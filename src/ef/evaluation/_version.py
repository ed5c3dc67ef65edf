"""The version of ef-evaluation; hatchling reads it from here at build time."""

from __future__ import annotations

__version__ = "0.1.0.dev0"
