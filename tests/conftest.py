"""Fixtures shared by the tests, and the `golden` mark that `make golden` selects."""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from pathlib import Path

import pytest
from spielleiter.store import Store


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "golden: compares screens with tests/golden/ PNGs")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test that calls assert_golden, so `pytest -k golden` regolds them all."""
    for item in items:
        function = getattr(item, "function", None)
        try:
            source = inspect.getsource(function) if function else ""
        except (OSError, TypeError):
            continue
        if "assert_golden(" in source:
            item.add_marker(pytest.mark.golden)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    """An empty store in a temporary data directory, closed after the test."""
    opened = Store.open(tmp_path / "data")
    try:
        yield opened
    finally:
        opened.close()
