"""The walls of DESIGN.md section 2 that import-linter cannot see."""

from __future__ import annotations

import re

from helpers import ROOT
from spielleiter.games import catalog


def test_the_generic_ui_names_no_game() -> None:
    """firmware/ui/ knows games only through the catalog: no game's id or title in it."""
    words = set()
    for entry in catalog.entries():
        words.add(entry.id.lower())
        words.add(entry.title.split()[0].lower())
    pattern = re.compile("|".join(sorted(map(re.escape, words))), re.IGNORECASE)
    found = [
        f"{path.name}:{number}: {line.strip()}"
        for path in sorted((ROOT / "firmware" / "ui").glob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]
    assert found == []


def test_a_game_is_one_package_and_one_catalog_line() -> None:
    games = ROOT / "firmware" / "games"
    packages = {p.name for p in games.iterdir() if (p / "__init__.py").exists()}
    assert packages == {e.package.rsplit(".", 1)[1] for e in catalog.entries()}
    for entry in catalog.entries():
        folder = games / entry.package.rsplit(".", 1)[1]
        assert (folder / "rules.py").exists() and (folder / "table.py").exists()
        assert (folder / "screens.py").exists()
        assert entry.table_class().__module__ == f"{entry.package}.table"


def test_a_mistyped_game_gets_a_suggestion() -> None:
    import pytest

    with pytest.raises(catalog.UnknownGame, match="did you mean speedtombola"):
        catalog.entry("speedtombla")


def test_each_game_declares_its_facts_once() -> None:
    for entry in catalog.entries():
        assert entry.bestenliste and entry.leave and entry.secret, entry.id
        assert entry.game_class().info is entry.info, entry.id


def test_every_help_page_fits_the_panel() -> None:
    """The pause menu's Hilfe: each page of each game within the panel's text area."""
    from spielleiter.ui.canvas import Canvas
    from spielleiter.ui.fonts import SMALL
    from spielleiter.ui.game_screen import TAKE_BACK_HELP
    from spielleiter.ui.widgets import Pages

    for entry in catalog.entries():
        assert entry.help, f"{entry.id} has no help pages"
        for page in (*entry.help, TAKE_BACK_HELP):
            canvas = Canvas()
            bottom = canvas.wrap((2, canvas.title(entry.title)), page, SMALL, 124)
            assert bottom <= Pages.BOTTOM + 1, f"{entry.id}: {page!r} runs past the soft keys"


def test_the_host_names_no_game() -> None:
    """host/ knows games only through the catalog: no module named after a game, no import
    of a game's package, no string of a game's id (a game's sheets and board tools live in
    its own package)."""
    import ast

    games = catalog.entries()
    ids = {e.id for e in games} | {e.package.rsplit(".", 1)[1] for e in games}
    word = re.compile(r"(?<![\w-])(" + "|".join(sorted(map(re.escape, ids))) + r")(?![\w-])")
    found = []
    for path in sorted((ROOT / "host").glob("*.py")):
        if word.search(path.stem):
            found.append(f"{path.name}: named after a game")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or "", *(f"{node.module}.{a.name}" for a in node.names)]
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                if word.search(node.value):
                    found.append(f"{path.name}:{node.lineno}: {node.value[:60]!r}")
            found += [f"{path.name}:{node.lineno}: imports {n}" for n in names
                      if any(n.startswith(e.package) for e in games)]  # fmt: skip
    assert found == []


def test_the_host_wall_lists_every_game_package() -> None:
    """The import-linter contract that holds the host off the games names each of them."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contract = next(c for c in config["tool"]["importlinter"]["contracts"]
                    if c["name"].startswith("The host names no game"))  # fmt: skip
    assert sorted(contract["forbidden_modules"]) == sorted(e.package for e in catalog.entries())
