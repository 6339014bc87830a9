"""The docs name only what is in the repository: every relative link and picture of the
README and docs/ points at a file that exists, and no page sends the reader to the
project's shared folder (DESIGN.md, the rule texts), which a clone does not have."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md")])
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_relative_link_points_at_a_file_in_the_repository(page: Path) -> None:
    text = page.read_text("utf-8")
    missing = []
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        path = (page.parent / target.split("#", 1)[0]).resolve()
        if not path.exists() or ROOT not in path.parents:
            missing.append(target)
    assert not missing, f"{page.name} links to what the repository lacks: {missing}"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_no_page_points_outside_the_repository(page: Path) -> None:
    text = page.read_text("utf-8")
    for outside in ("../shared", "DESIGN.md", "STYLE.md"):
        assert outside not in text, f"{page.name} names {outside}, which a clone lacks"
