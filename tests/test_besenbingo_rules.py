"""Besenbingo rules, as the rule text and DESIGN.md state them."""

from __future__ import annotations

import random

import pytest
from spielleiter.games import catalog
from spielleiter.games.base import CHANCE, TERMINAL, IllegalActionError, ParameterError, replay
from spielleiter.games.besenbingo.rules import (
    MINUS,
    BesenbingoGame,
    encode,
    solo_beaten,
)
from spielleiter.games.besenbingo.templates import default_templates, retired_templates
from spielleiter.records import Record

W = {"Wa": "Walpurga", "Me": "Mechthild", "Gr": "Griselda", "Ot": "Ottilie"}
C = {"K": "Katze", "R": "Rabe", "T": "Ratte"}


def witch(token: str) -> dict[str, str]:
    w, c = token.split("-")
    return {"witch": W[w], "copilot": C[c]}


def example_template(**bar_changes: object) -> dict:
    """The rule text's example: tower 8 in the corner, a witch above it and one to its left.

    The witch above (Ottilie with Ratte) may take the copilot row's Ratte or the first
    kombi field (Ottilie, then Rabe); the witch left (Griselda with Katze) fits the Paar row.
    """
    template = {
        "name": "Beispiel",
        "grid": [
            [1, witch("Gr-K"), 2, witch("Me-K")],
            [witch("Wa-K"), 3, witch("Gr-R"), 4],
            [5, witch("Me-R"), 6, witch("Ot-T")],
            [witch("Wa-R"), 7, witch("Gr-K"), 8],
        ],
        "bar": {
            "hexe": [{"witch": "Walpurga", "value": 1}, {"witch": "Mechthild", "value": 2}],
            "copilot": [{"copilot": "Ratte", "value": 1}, {"copilot": "Katze", "value": 1}],
            "paar": [{"witch": "Griselda", "copilot": "Katze", "value": 2}],
            "kombi": {"witch": "Ottilie", "copilot": "Rabe", "value": 5},
            "minus": [-1, -1, -2, -2, -3, -3, -4],
        },
    }
    template["bar"].update(bar_changes)
    return template


ABOVE_8, LEFT_OF_8 = 11, 14
"""Cells (row-major) of the witches above and to the left of tower 8."""


def solo(template: dict, silent: int = 1, towers: tuple[int, ...] = ()) -> object:
    state = BesenbingoGame({"players": 1, "templates": [template]}).new_initial_state()
    for t in (silent, *towers):
        state.apply_action(t)
    return state


def test_the_silent_tower_is_set_aside_first_from_all_eight_cards() -> None:
    state = BesenbingoGame({"players": 3}).new_initial_state()
    assert state.current_player() == CHANCE
    assert state.chance_outcomes() == [(t, 1 / 8) for t in range(1, 9)]
    state.apply_action(5)
    assert state.current_player() == CHANCE
    assert [t for t, _ in state.chance_outcomes()] == [1, 2, 3, 4, 6, 7, 8]


def test_after_each_reveal_every_seat_takes_its_turn_in_seat_order() -> None:
    state = BesenbingoGame({"players": 3}).new_initial_state()
    state.apply_action(5)
    state.apply_action(2)
    seen = []
    while not state.is_chance_node():
        seen.append(state.current_player())
        state.apply_action(state.legal_actions()[0])
    assert seen == [0, 1, 2]
    assert [t for t, _ in state.chance_outcomes()] == [1, 3, 4, 6, 7, 8]


def test_the_rule_texts_example_tower_8_offers_three_choices() -> None:
    state = solo(example_template(), towers=(8,))
    assert state.legal_actions() == sorted(
        [encode(ABOVE_8, "copilot"), encode(ABOVE_8, "kombi"), encode(LEFT_OF_8, "paar")]
    )
    texts = [c["text"] for c in state.choices(0)]
    assert "Griselda mit Katze landet → Reihe Paar" in texts


def test_the_paar_row_brings_two_sure_points() -> None:
    state = solo(example_template(), towers=(8,))
    state.apply_action(encode(LEFT_OF_8, "paar"))
    assert state.scores() == [2]


def test_kombi_pays_five_only_when_both_fields_are_crossed() -> None:
    state = solo(example_template(), towers=(8,))
    state.apply_action(encode(ABOVE_8, "kombi"))
    assert state.scores() == [0]
    state.apply_action(4)
    assert encode(6, "kombi") in state.legal_actions()  # Griselda with Rabe fits the Rabe field
    state.apply_action(encode(6, "kombi"))
    assert state.scores() == [5]


def test_the_most_valuable_fitting_row_must_be_taken() -> None:
    # Griselda with Katze fits Copilot (Katze 3) and Paar (2): only Copilot is allowed.
    template = example_template(
        copilot=[{"copilot": "Katze", "value": 3}],
    )
    state = solo(template, towers=(8,))
    assert encode(LEFT_OF_8, "paar") not in state.legal_actions()
    assert encode(LEFT_OF_8, "copilot") in state.legal_actions()
    with pytest.raises(IllegalActionError, match="mehr Punkte"):
        state.apply_action(encode(LEFT_OF_8, "paar"))


def test_the_refusal_names_the_row_worth_more_not_the_kombi() -> None:
    # Ottilie took the first kombi field; Griselda with Rabe then fits Hexe (1), Copilot (2)
    # and the kombi's Rabe (5). Hexe is refused because of Copilot, not of the kombi.
    template = example_template(
        hexe=[{"witch": "Griselda", "value": 1}],
        copilot=[{"copilot": "Rabe", "value": 2}],
    )
    state = solo(template, towers=(8,))
    state.apply_action(encode(ABOVE_8, "kombi"))
    state.apply_action(4)
    assert encode(6, "kombi") in state.legal_actions()
    assert state.explain_illegal(encode(6, "hexe")) == (
        "Die Reihe Copilot bringt mehr Punkte (2 statt 1)."
    )


def test_two_fitting_rows_of_equal_value_leave_the_choice_to_the_player() -> None:
    template = example_template(copilot=[{"copilot": "Katze", "value": 2}])
    state = solo(template, towers=(8,))
    assert encode(LEFT_OF_8, "paar") in state.legal_actions()
    assert encode(LEFT_OF_8, "copilot") in state.legal_actions()


def test_the_kombi_row_may_always_be_chosen_instead() -> None:
    # Ottilie with Ratte: the Hexe row's Ottilie is worth 3, yet the kombi field stays open.
    template = example_template(hexe=[{"witch": "Ottilie", "value": 3}])
    state = solo(template, towers=(8,))
    assert encode(ABOVE_8, "hexe") in state.legal_actions()
    assert encode(ABOVE_8, "copilot") not in state.legal_actions()
    assert encode(ABOVE_8, "kombi") in state.legal_actions()


def test_rows_are_crossed_strictly_left_to_right() -> None:
    # Hexe row: Walpurga, then Mechthild. At tower 5 Mechthild (Rabe) cannot take the Hexe row.
    state = solo(example_template(), towers=(5,))
    assert encode(9, "hexe") not in state.legal_actions()
    with pytest.raises(IllegalActionError, match="passt nicht"):
        state.apply_action(encode(9, "hexe"))


def test_no_fitting_witch_means_a_minus_field_and_the_witches_stay() -> None:
    # Tower 2 has Griselda/Katze, Mechthild/Katze and Griselda/Rabe next to it;
    # none of them fits the first field of any row.
    template = example_template(
        hexe=[{"witch": "Walpurga", "value": 1}],
        copilot=[{"copilot": "Ratte", "value": 1}],
        paar=[{"witch": "Walpurga", "copilot": "Rabe", "value": 2}],
    )
    state = solo(template, towers=(2,))
    assert state.legal_actions() == [MINUS]
    state.apply_action(MINUS)
    assert state.sheets[0].crossed == frozenset()
    assert state.scores() == [-1]


def test_a_tower_whose_witches_have_all_landed_costs_a_minus_field() -> None:
    state = solo(example_template(), towers=(6,))
    state.apply_action(encode(LEFT_OF_8, "paar"))
    state.apply_action(4)
    state.apply_action(encode(ABOVE_8, "copilot"))
    state.apply_action(8)
    assert state.legal_actions() == [MINUS]
    assert "Keine Hexe kann an Turm 8 landen" in state.explain_illegal(encode(ABOVE_8, "kombi"))
    state.apply_action(MINUS)
    assert state.scores() == [2 + 1 - 1]


def test_minus_is_refused_while_a_witch_can_land() -> None:
    state = solo(example_template(), towers=(8,))
    with pytest.raises(IllegalActionError, match="Minusfeld nur"):
        state.apply_action(MINUS)


def test_explanations_name_the_tower_and_the_witch() -> None:
    state = solo(example_template(), towers=(3,))
    assert state.explain_illegal(encode(ABOVE_8, "copilot")) == (
        "Diese Hexe (Ottilie) grenzt nicht an Turm 3."
    )
    assert "not next to tower 3" in state.explain_illegal(encode(ABOVE_8, "copilot"), "en")
    assert "Turm" in state.explain_illegal(encode(0, "hexe"))


def test_a_landed_witch_cannot_land_again() -> None:
    state = solo(example_template(), towers=(8,))
    state.apply_action(encode(ABOVE_8, "copilot"))
    state.apply_action(6)
    assert state.explain_illegal(encode(ABOVE_8, "kombi")) == "Ottilie ist schon gelandet."


def test_the_game_ends_after_the_seventh_tower_and_reveals_the_silent_one() -> None:
    state = BesenbingoGame({"players": 2}).new_initial_state()
    state.apply_action(4)
    for tower in (1, 2, 3, 5, 6, 7, 8):
        assert state.view(0)["silent_tower"] is None
        state.apply_action(tower)
        for _ in range(2):
            state.apply_action(state.legal_actions()[0])
    assert state.current_player() == TERMINAL
    assert state.view(1)["silent_tower"] == 4
    assert state.view(1)["revealed"] == [1, 2, 3, 5, 6, 7, 8]
    assert state.returns() == [float(s) for s in state.scores()]


def test_the_view_shows_sheets_towers_and_choices_but_never_the_silent_tower() -> None:
    state = BesenbingoGame({"players": 2}).new_initial_state()
    state.apply_action(6)
    state.apply_action(3)
    view = state.view(0)
    assert view["revealed"] == [3]
    assert view["current_tower"] == 3
    assert view["towers_left"] == [1, 2, 4, 5, 6, 7, 8]
    assert 6 in view["towers_left"]  # the silent tower is still among the unknown ones
    assert view["silent_tower"] is None
    # no templates named: the first shipped nine, as old paper records were played
    assert view["template"]["name"] == retired_templates()[0].name
    assert view["sheets"][1]["template"] == retired_templates()[1].name
    assert [c["action"] for c in view["choices"]] == state.legal_actions()
    assert state.view(1)["choices"] == []  # not seat 1's turn yet


def test_ties_share_the_place() -> None:
    state = BesenbingoGame({"players": 3}).new_initial_state()
    state.sheets[0].progress = (1, 0, 0, 0, 0)
    state.sheets[1].progress = (1, 0, 0, 0, 0)
    state.sheets[2].progress = (0, 0, 0, 0, 1)
    assert state.places() == [1, 1, 3]


def test_records_name_shipped_templates_retired_ones_too() -> None:
    old, new = retired_templates()[0].name, default_templates()[0].name
    game = BesenbingoGame({"players": 2, "templates": [old, new]})
    assert [t.name for t in game.templates] == [old, new]


def test_templates_are_all_different_and_one_per_seat() -> None:
    name = default_templates()[0].name
    with pytest.raises(ParameterError, match="all different"):
        BesenbingoGame({"players": 2, "templates": [name, name]})
    with pytest.raises(ParameterError, match="one template per seat"):
        BesenbingoGame({"players": 2, "templates": [name]})
    with pytest.raises(ParameterError, match="players"):
        BesenbingoGame({"players": 10})


def test_a_bad_template_in_the_parameters_names_its_field() -> None:
    bad = example_template(minus=[-1, -1])
    with pytest.raises(ParameterError, match=r"templates\[0\]: bar.minus"):
        BesenbingoGame({"players": 1, "templates": [bad]})


def test_random_games_replay_from_their_record() -> None:
    rng = random.Random(7)
    for players in (1, 4, 9):
        game = catalog.make("besenbingo", {"players": players})
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        assert len(state.history()) == 8 + 7 * players <= game.info.max_game_length
        record = Record("besenbingo", dict(game.params), [], state.history())
        again = Record.loads(record.dumps()).replay()
        assert again.scores() == state.scores()
        assert game.info.min_utility <= min(state.returns())
        assert max(state.returns()) <= game.info.max_utility
        assert replay(game, state.history()).view(0) == state.view(0)


def test_a_solo_round_counts_only_when_it_tops_the_previous_score() -> None:
    assert solo_beaten(None, -3)
    assert solo_beaten(14, 15) and not solo_beaten(14, 14)


def test_asked_about_a_legal_move_the_explanation_says_it_is_allowed() -> None:
    state = solo(example_template(), towers=(8,))
    for action in state.legal_actions():  # the kombi move among them
        assert state.explain_illegal(action) == "Dieser Zug ist erlaubt."
        assert state.explain_illegal(action, "en") == "This move is allowed."
