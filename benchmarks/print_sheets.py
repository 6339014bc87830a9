"""`spielleiter-host print`: how long the PDFs take and how big they are (prints numbers).

Run: .venv/bin/python benchmarks/print_sheets.py
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from spielleiter.games.besenbingo.sheets import besenbingo_sheet
from spielleiter.games.besenbingo.templates import default_templates
from spielleiter.games.drawing import Drawing
from spielleiter.games.engel_bengel.faces import default_faces
from spielleiter.games.engel_bengel.sheets import faces_sheet
from spielleiter_host.pdf import FontMetrics, render

RUNS = 5


def measure(name: str, make: Callable[[], Drawing]) -> None:
    times, size, pages = [], 0, 0
    for _ in range(RUNS):
        start = time.perf_counter()
        sheet = make()
        data = render(sheet)
        times.append(time.perf_counter() - start)
        size, pages = len(data), sheet.pages
    print(f"{name}: {pages} pages, {size:,} bytes ({size / 1024:.0f} KiB),"
          f" median {1000 * statistics.median(times):.0f} ms"
          f" (max {1000 * max(times):.0f} ms, {RUNS} runs)")  # fmt: skip


def main() -> None:
    metrics = FontMetrics()
    measure("print besenbingo (the shipped nine)",
            lambda: besenbingo_sheet(default_templates(), metrics))  # fmt: skip
    measure("print engel-bengel (the shipped 16 faces)",
            lambda: faces_sheet(default_faces(), metrics))  # fmt: skip


if __name__ == "__main__":
    main()
