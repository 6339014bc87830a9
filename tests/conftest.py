"""Fixtures shared by the tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from spielleiter.store import Store


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    """An empty store in a temporary data directory, closed after the test."""
    opened = Store.open(tmp_path / "data")
    try:
        yield opened
    finally:
        opened.close()
