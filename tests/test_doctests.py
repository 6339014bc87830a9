"""The examples in the docstrings run as written (doctest, every module of both packages)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest
import spielleiter
import spielleiter_host

MODULES = sorted(
    info.name
    for package in (spielleiter, spielleiter_host)
    for info in pkgutil.walk_packages(package.__path__, f"{package.__name__}.")
    if not info.name.endswith("__main__")  # importing it would start the program
)


@pytest.mark.parametrize("name", MODULES)
def test_the_docstring_examples_run(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed"
