"""Rendered: the output methods every report shares, through its own tables."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .._render import exact_number, render, rich_renderable

if TYPE_CHECKING:
    from rich.console import RenderableType

    from .._render import Table

__all__ = ["Rendered", "Summarized"]


class Rendered:
    """``to_markdown()``, ``to_latex()``, ``to_csv()``, ``to_json()``, notebook HTML and rich
    output, for a report that gives ``tables()``, ``csv_table()`` and ``to_dict()``; each
    formats those tables with ``ef.evaluation._render``."""

    __slots__ = ()

    def tables(self, *, details: bool = False) -> list[Table]:
        raise NotImplementedError

    def to_markdown(self, *, details: bool = False) -> str:
        """The report as Markdown tables (GitHub flavour); see ``render()``."""
        return render(self, "markdown", details=details)  # type: ignore[arg-type]

    def to_latex(self) -> str:
        """The report's main table as a LaTeX ``tabular`` with booktabs rules (needs
        ``\\usepackage{booktabs}``); see ``render()``."""
        return render(self, "latex")  # type: ignore[arg-type]

    def to_csv(self, *, details: bool = False) -> str:
        """The report as CSV; see ``render()``."""
        return render(self, "csv", details=details)  # type: ignore[arg-type]

    def to_json(self) -> str:
        """``to_dict()`` as indented JSON; NaN becomes ``null``."""
        return render(self, "json")  # type: ignore[arg-type]

    def _repr_html_(self) -> str:
        # Jupyter shows this; plain HTML, no pandas needed.
        return render(self, "html")  # type: ignore[arg-type]

    def __rich__(self) -> RenderableType:
        # rich.print(report) and the console show the tables, best values bold.
        from rich.console import Group

        return Group(*(rich_renderable(table) for table in self.tables()))


class Summarized(Rendered):
    """A report whose tables are its summary and, with ``details``, its values per query
    (or per sample), drawn by ``_tables(details, cell)`` with numbers written by ``cell``:
    rounded to show, at full precision for CSV."""

    __slots__ = ()

    def _tables(self, details: bool, cell: Callable[[float | None], str]) -> list[Table]:
        raise NotImplementedError

    def csv_table(self, *, details: bool = False) -> Table:
        """The one table CSV holds: the means, or with ``details`` the values per query (per
        sample), at full precision (``repr(float)``); an empty cell where there is no
        value."""
        return self._tables(details, exact_number)[-1]
