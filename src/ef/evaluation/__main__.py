"""``python -m ef.evaluation`` is the ``ef-eval`` command."""

from __future__ import annotations

from .cli import main

if __name__ == "__main__":
    main()
