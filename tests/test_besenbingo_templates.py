"""Besenbingo templates: the format, its validation, and the nine shipped ones."""

from __future__ import annotations

import copy
import statistics
from typing import Any

import pytest
from spielleiter.games.besenbingo.bots import Solver
from spielleiter.games.besenbingo.templates import (
    COPILOTS,
    DEFAULT_WITCHES,
    TemplateError,
    WitchField,
    default_boards,
    default_templates,
    validate_board,
    validate_template,
)


@pytest.fixture
def data() -> dict[str, Any]:
    """A valid template as JSON, to break in one place per test."""
    return copy.deepcopy(default_templates()[0].to_json())


def error_of(data: Any) -> TemplateError:
    with pytest.raises(TemplateError) as info:
        validate_template(data)
    return info.value


def test_nine_different_templates_ship() -> None:
    templates = default_templates()
    assert len(templates) == 9
    assert len({t.name for t in templates}) == 9
    assert len({repr(t.grid) for t in templates}) == 9


def test_every_shipped_template_follows_the_rule_text() -> None:
    for t in default_templates():
        cells = [t.cell(i) for i in range(16)]
        assert sorted(c for c in cells if isinstance(c, int)) == list(range(1, 9))
        fields = [c for c in cells if isinstance(c, WitchField)]
        assert len(fields) == 8
        assert {f.copilot for f in fields} <= set(COPILOTS)
        assert {f.witch for f in fields} <= {w.name for w in DEFAULT_WITCHES}
        assert WitchField(t.kombi[0].witch or "", t.kombi[1].copilot or "") not in fields
        assert t.kombi_value == 5
        assert len(t.minus) >= 7 and all(v < 0 for v in t.minus)
        assert max(f.value for f in t.paar) > max(f.value for f in t.hexe[:2] + t.copilot[:2])
        for tower in range(1, 9):
            assert 2 <= len(t.neighbours(tower)) <= 4


def test_the_shipped_templates_are_balanced_within_ten_percent() -> None:
    scores = [Solver.of(t).expected_score() for t in default_templates()]
    mean = statistics.mean(scores)
    assert all(abs(s - mean) <= 0.1 * mean for s in scores), scores


def test_a_template_reads_back_from_its_json(data: dict[str, Any]) -> None:
    assert validate_template(data).to_json() == data


def test_a_tower_twice_is_named_where_it_appears(data: dict[str, Any]) -> None:
    tower = data["grid"][0][0]
    data["grid"][1][1] = tower
    err = error_of(data)
    assert (err.path, err.message) == ("grid[1][1]", f"tower {tower} appears twice")


def test_a_missing_tower_is_named(data: dict[str, Any]) -> None:
    first = data["grid"][0][0]
    data["grid"][0][0] = 9
    assert error_of(data).message == "tower 9 does not exist (towers are 1-8)"
    other = data["grid"][1][1]
    data["grid"][0][0] = other
    assert "appears twice" in error_of(data).message
    data["grid"][1][1], data["grid"][0][0] = first, other
    assert validate_template(data)


def test_a_broken_checkerboard_is_refused(data: dict[str, Any]) -> None:
    mirrored = copy.deepcopy(data)
    mirrored["grid"] = [row[::-1] for row in data["grid"]]
    assert validate_template(mirrored)  # a board of the other colour is fine
    row = data["grid"][1]
    row[1], row[2] = row[2], row[1]
    err = error_of(data)
    assert (err.path, err.message) == ("grid[1][1]", "a tower belongs here (checkerboard)")


def test_the_kombi_pair_may_not_appear_on_the_grid(data: dict[str, Any]) -> None:
    data["bar"]["kombi"].update(data["grid"][0][1])
    err = error_of(data)
    assert err.path == "bar.kombi"
    assert "appears on the grid at grid[0][1]" in err.message


def test_unknown_witches_and_copilots_are_named(data: dict[str, Any]) -> None:
    data["grid"][0][1]["witch"] = "Hilde"
    err = error_of(data)
    assert (err.path, err.message.split(" (")[0]) == ("grid[0][1].witch", "unknown witch 'Hilde'")
    data["grid"][0][1]["witch"] = "Walpurga"
    data["bar"]["copilot"][2]["copilot"] = "Eule"
    assert error_of(data).path == "bar.copilot[2].copilot"


def test_own_witches_may_be_named_with_their_hats(data: dict[str, Any]) -> None:
    data["witches"] = [{"name": n, "hat": h} for n, h in (("A", "x"), ("B", "y"))]
    assert error_of(data).path == "grid[0][1].witch"
    data["witches"][1]["hat"] = "x"
    assert error_of(data).path == "witches[1].hat"


def test_fewer_than_seven_minus_fields_are_refused(data: dict[str, Any]) -> None:
    data["bar"]["minus"] = [-1, -2, -3]
    err = error_of(data)
    assert (err.path, err.message) == ("bar.minus", "needs at least 7 minus fields, found 3")
    data["bar"]["minus"] = [-1, -1, -2, -2, -3, 3, -4]
    assert error_of(data).path == "bar.minus[5]"


@pytest.mark.parametrize(
    ("change", "path"),
    [
        (lambda d: d.pop("grid"), ""),
        (lambda d: d.update(grid=[[1, 2]]), "grid"),
        (lambda d: d["grid"].__setitem__(2, [1, 2, 3]), "grid[2]"),
        (lambda d: d["grid"][0].__setitem__(1, "Hexe"), "grid[0][1]"),
        (lambda d: d["grid"][0].__setitem__(0, True), "grid[0][0]"),
        (lambda d: d["bar"]["hexe"][0].update(value="viel"), "bar.hexe[0].value"),
        (lambda d: d["bar"]["paar"][0].pop("copilot"), "bar.paar[0]"),
        (lambda d: d["bar"].update(hexe=[]), "bar.hexe"),
        (lambda d: d["bar"].update(extra=1), "bar"),
        (lambda d: d.update(name=""), "name"),
    ],
)
def test_wrong_shapes_and_types_name_their_path(data: dict[str, Any], change, path: str) -> None:
    change(data)
    assert error_of(data).path == path


def test_not_an_object_at_all() -> None:
    assert error_of([1, 2]).message == "must be a JSON object"


def test_the_board_hooks_for_the_store(data: dict[str, Any]) -> None:
    boards = default_boards()
    assert list(boards) == [t.name for t in default_templates()]
    for board in boards.values():
        validate_board(board)
    data["bar"]["minus"] = []
    with pytest.raises(ValueError) as info:
        validate_board(data)
    assert info.value.path == "bar.minus"  # type: ignore[attr-defined]
    assert "7 minus fields" in info.value.message  # type: ignore[attr-defined]
