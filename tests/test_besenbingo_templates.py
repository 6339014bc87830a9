"""Besenbingo templates: the format, its validation, and the nine shipped ones."""

from __future__ import annotations

import copy
import json
import statistics
from collections import Counter
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
    grid_shape,
    retired_templates,
    same_game,
    template_by_name,
    twin_of,
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


def test_nine_templates_on_nine_different_grids_ship() -> None:
    templates = default_templates()
    assert len(templates) == 9
    assert len({t.name for t in templates}) == 9
    # different up to rotation, mirroring and renaming witches, copilots and towers
    assert len({grid_shape(t) for t in templates}) == 9


def test_the_first_nine_are_retired_but_still_known_by_name() -> None:
    retired = retired_templates()
    assert len(retired) == 9
    assert not {t.name for t in retired} & {t.name for t in default_templates()}
    assert not {grid_shape(t) for t in retired} & {grid_shape(t) for t in default_templates()}
    assert len({grid_shape(t) for t in retired}) == 5  # why they were retired
    for t in retired:
        assert template_by_name(t.name) == t  # old records replay and resume
        assert t.name not in default_boards()  # not offered for new games
    with pytest.raises(TemplateError, match="unknown template"):
        template_by_name("Gibtsnicht")


def swapped_names(data: Any, *pairs: tuple[str, str]) -> Any:
    """The template with each pair of names (witches or copilots) swapped everywhere."""
    text = json.dumps(data, ensure_ascii=False)
    for a, b in pairs:
        text = text.replace(a, "\0").replace(b, a).replace("\0", b)
    return json.loads(text)


def test_a_turned_mirrored_or_renamed_template_is_the_same(data: dict[str, Any]) -> None:
    original = validate_template(data)
    turned = copy.deepcopy(data)
    turned["grid"] = [list(row) for row in zip(*data["grid"][::-1], strict=True)]
    mirrored = dict(turned, grid=[row[::-1] for row in turned["grid"]])
    renamed = swapped_names(mirrored, ("Walpurga", "Ottilie"), ("Katze", "Rabe"))
    renumbered = {3: 5, 5: 3, 1: 8, 8: 1}
    renamed["grid"] = [
        [renumbered.get(c, c) if isinstance(c, int) else c for c in row] for row in renamed["grid"]
    ]
    renamed["name"] = "Zwilling"
    for other in map(validate_template, (turned, mirrored, renamed)):
        assert grid_shape(other) == grid_shape(original)
        assert same_game(other, original)
    assert twin_of(validate_template(turned), default_templates()) is None  # one name: itself
    assert twin_of(validate_template(renamed), default_templates()) == original
    renamed["bar"]["minus"][-1] -= 1
    assert not same_game(validate_template(renamed), original)  # another bar, another game
    assert grid_shape(validate_template(renamed)) == grid_shape(original)


def test_a_bar_field_no_witch_can_ever_cross_is_refused(data: dict[str, Any]) -> None:
    grid = validate_template(data)
    fields = [grid.cell(i) for i in range(16) if isinstance(grid.cell(i), WitchField)]
    missing = next(
        (w, c) for w in [x.name for x in DEFAULT_WITCHES] for c in COPILOTS
        if WitchField(w, c) not in fields
    )  # fmt: skip
    broken = copy.deepcopy(data)
    broken["bar"]["paar"][1].update(witch=missing[0], copilot=missing[1])
    err = error_of(broken)
    assert err.path == "bar.paar[1]"
    assert err.message == (
        f"no witch field on the grid is {missing[0]} with {missing[1]}: it can never be crossed"
    )
    twice = Counter(f.witch for f in fields)
    witch = next(w for w, n in twice.items() if n == 2)
    broken = copy.deepcopy(data)
    broken["bar"]["hexe"] = [{"witch": witch, "value": v} for v in (1, 2, 3)]
    err = error_of(broken)
    assert err.path == "bar.hexe[2]"  # the third field needs a third witch field
    assert err.message.startswith("can never be crossed: the grid has too few witch fields")
    broken = copy.deepcopy(data)
    broken["bar"]["copilot"] = [{"copilot": f.copilot, "value": 1} for f in fields]
    err = error_of(broken)
    assert (err.path, err.message) == (
        "bar.copilot[7]",
        "can never be crossed: a Durchgang reveals only 7 towers",
    )


def test_a_kombi_field_no_witch_can_ever_cross_is_refused() -> None:
    template = default_templates()[0]
    data = template.to_json()
    witches = {f.witch for f in (template.witch_field(i) for i in range(16)) if f}
    assert witches == {w.name for w in DEFAULT_WITCHES}
    data["witches"] = [{"name": w.name, "hat": w.hat} for w in DEFAULT_WITCHES] + [
        {"name": "Hilde", "hat": "Kopftuch"}
    ]
    data["bar"]["kombi"]["witch"] = "Hilde"
    err = error_of(data)
    assert (err.path, err.message) == (
        "bar.kombi.witch",
        "no witch field on the grid is Hilde: it can never be crossed",
    )


def test_every_shipped_template_can_cross_every_bar_field() -> None:
    for t in (*default_templates(), *retired_templates()):
        assert validate_template(t.to_json()) == t


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


def test_the_shipped_templates_are_balanced_for_best_and_for_greedy_play() -> None:
    solvers = [Solver.of(t) for t in default_templates()]
    best = [s.expected_score() for s in solvers]
    greedy = [s.greedy_score() for s in solvers]
    assert all(abs(s / statistics.mean(best) - 1) <= 0.05 for s in best), best
    assert all(abs(s / statistics.mean(greedy) - 1) <= 0.08 for s in greedy), greedy


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
