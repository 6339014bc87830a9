"""Bungee: every sentence of shared/rules/bungee.de.txt and every DESIGN.md decision."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from spielleiter.games.base import CHANCE, TERMINAL, IllegalActionError, sample_chance
from spielleiter.games.bungee.rules import (
    BUNGEE,
    DECK,
    BungeeGame,
    BungeeState,
    Move,
    Phase,
    discard_action,
    hand_action,
    hand_score,
    hand_value,
    lucky_action,
    round_winners,
    zug_action,
)

B = BUNGEE


def deal(
    hands: Sequence[Sequence[int]], lucky: int, rounds: int = 6, dealer: int = 0, **params: object
) -> BungeeState:
    """A digital round dealt with the given hands (seat order) and lucky card."""
    n = len(hands)
    game = BungeeGame({"players": n, "rounds": rounds, "first_dealer": dealer, **params})
    state = game.new_initial_state()
    starter = (dealer + 1) % n
    for i in range(5 * n):
        seat = (starter + i) % n
        state.apply_action(hands[seat][i // n])
    state.apply_action(lucky)
    return state


def counts(cards: Sequence[int]) -> list[int]:
    hand = [0] * (B + 1)
    for c in cards:
        hand[c] += 1
    return hand


HANDS3 = [[1, 2, 3, 4, 5], [6, 6, 7, 8, 9], [10, 10, 2, 2, B]]


# --- Material ---------------------------------------------------


def test_the_deck_has_1_to_9_five_times_eight_10s_and_three_bungee_cards() -> None:
    assert sum(DECK.values()) == 56
    assert all(DECK[f] == 5 for f in range(1, 10))
    assert DECK[10] == 8 and DECK[B] == 3


@pytest.mark.parametrize("players", [1, 6])
def test_two_to_five_players(players: int) -> None:
    with pytest.raises(ValueError):
        BungeeGame({"players": players})


# --- Dealing and the lucky card ---------------------------------


def test_every_player_gets_five_cards_and_the_rest_is_the_pile() -> None:
    state = deal(HANDS3, lucky=4)
    assert [sorted(state.view(s)["hand"]) for s in range(3)] == [sorted(h) for h in HANDS3]
    assert state.pile_count == 56 - 15 - 1, "the lucky card lies under the pile, not in it"
    assert state.discards == [], "the discard pile starts empty"


def test_the_lucky_card_is_turned_up_and_never_a_bungee_card() -> None:
    game = BungeeGame({"players": 3})
    state = game.new_initial_state()
    for _ in range(15):
        state.apply_action(1 if 1 in state.legal_actions() else state.legal_actions()[0])
    assert state.phase == Phase.LUCKY and state.current_player() == CHANCE
    assert B not in state.legal_actions(), "a Bungee card turned up is shuffled back"
    with pytest.raises(IllegalActionError, match="Bungee-Karte"):
        state.apply_action(B)
    assert sum(p for _, p in state.chance_outcomes()) == pytest.approx(1.0)


def test_cards_of_the_lucky_number_count_0_and_bungee_cards_count_0_for_calling() -> None:
    hand = counts([7, 7, B, 3, 2])
    assert hand_value(hand, lucky=7) == 5
    assert hand_score(hand, lucky=7) == 15, "scored, a Bungee card counts 10"


def test_the_lucky_card_is_never_drawn_the_discards_but_the_top_become_the_pile() -> None:
    state = deal(HANDS3, lucky=4)
    rng = random.Random(1)
    for _ in range(500):
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        hand = state.hands[state.seat]
        face = next(f for f in range(1, B + 1) if hand[f])
        state.apply_action(discard_action(face, 1))
        if state.phase == Phase.DRAW and state.reshuffles:
            break
    assert state.reshuffles == 1
    assert len(state.discards) == 1, "the top discard stays"
    assert state.pile_count > 0
    total = sum(sum(h) for h in state.hands) + state.pile_count + len(state.discards)
    assert total == 55, "every card but the lucky card is in a hand, the pile or the discards"


# --- A turn: exactly one of three choices -----------------------


def test_the_player_after_the_dealer_starts_and_play_goes_round_clockwise() -> None:
    state = deal(HANDS3, lucky=4, dealer=0)
    assert state.current_player() == 1
    state.apply_action(discard_action(7, 1))
    assert state.current_player() == CHANCE, "after discarding the player draws"
    state.apply_action(9)
    assert state.current_player() == 2


def test_discard_one_card_then_draw_the_top_card_of_the_pile() -> None:
    state = deal(HANDS3, lucky=4)
    state.apply_action(discard_action(9, 1))
    assert state.discards == [9]
    state.apply_action(3)
    assert sorted(state.view(1)["hand"]) == [3, 6, 6, 7, 8]


def test_discard_several_equal_cards_then_draw_one() -> None:
    state = deal(HANDS3, lucky=4, dealer=1)
    assert state.current_player() == 2
    state.apply_action(discard_action(10, 2))
    state.apply_action(5)
    assert sorted(state.view(2)["hand"]) == [2, 2, 5, B]
    assert state.discards == [10, 10]


def test_several_bungee_cards_may_be_discarded_together() -> None:
    state = deal([[1, 1, 1, 1, 2], [B, B, 9, 9, 9]], lucky=4)
    assert discard_action(B, 2) in state.legal_actions()
    state.apply_action(discard_action(B, 2))
    assert state.discards == [B, B]


def test_take_the_top_discard_then_discard_not_the_card_just_taken() -> None:
    state = deal(HANDS3, lucky=4)
    state.apply_action(discard_action(9, 1))
    state.apply_action(3)
    assert state.current_player() == 2
    state.apply_action(Move.TAKE)
    assert state.current_player() == 2 and state.phase == Phase.TAKEN
    assert discard_action(9, 1) not in state.legal_actions()
    with pytest.raises(IllegalActionError, match="genommene 9 darf erst im nächsten Zug"):
        state.apply_action(discard_action(9, 1))
    state.apply_action(discard_action(2, 2))
    assert state.current_player() == 0, "after taking and discarding nobody draws"
    assert sorted(state.view(2)["hand"]) == [9, 10, 10, B]


def test_other_cards_of_the_taken_number_may_go() -> None:
    state = deal([[9, 1, 1, 2, 3], [9, 8, 8, 7, 7]], lucky=4)
    state.apply_action(discard_action(9, 1))
    state.apply_action(3)
    state.apply_action(Move.TAKE)
    assert discard_action(9, 1) in state.legal_actions(), "the 9 it already held may go"
    assert discard_action(9, 2) not in state.legal_actions()


def test_nothing_can_be_taken_from_an_empty_discard_pile() -> None:
    state = deal(HANDS3, lucky=4)
    assert Move.TAKE not in state.legal_actions()
    with pytest.raises(IllegalActionError, match="Ablagestapel ist leer"):
        state.apply_action(Move.TAKE)


def test_only_cards_in_hand_may_be_discarded() -> None:
    state = deal(HANDS3, lucky=4)
    with pytest.raises(IllegalActionError, match="keine 1"):
        state.apply_action(discard_action(1, 1))
    with pytest.raises(IllegalActionError, match="nur 2x 6"):
        state.apply_action(discard_action(6, 3))


# --- Calling Bungee ---------------------------------------------


def test_bungee_may_be_called_with_5_points_or_less() -> None:
    state = deal([[1, 1, 1, 2, B], [9, 9, 8, 8, 7]], lucky=4, dealer=1)
    assert state.current_player() == 0
    assert Move.CALL in state.legal_actions(), "also on the first turn if the deal allows"
    state.apply_action(Move.CALL)
    assert state.calls == [0]


def test_lucky_number_cards_count_0_when_calling() -> None:
    state = deal([[7, 7, 7, 2, 3], [9, 9, 8, 8, 7]], lucky=7, dealer=1)
    assert Move.CALL in state.legal_actions()


def test_a_hand_over_5_points_cannot_call() -> None:
    state = deal(HANDS3, lucky=4)
    assert Move.CALL not in state.legal_actions()
    with pytest.raises(
        IllegalActionError, match="Bungee nur mit 5 oder weniger Punkten, du hast 36"
    ):
        state.apply_action(Move.CALL)


def test_a_call_is_never_made_in_the_turn_that_got_the_hand_there() -> None:
    state = deal([[1, 1, 1, 2, 9], [9, 9, 8, 8, 7]], lucky=4, dealer=1)
    state.apply_action(discard_action(9, 1))
    state.apply_action(1)  # the hand is now worth 6... draw a 1: 1+1+1+2+1 = 6
    assert state.current_player() == 1, "the turn is over after the draw"
    state = deal([[1, 1, 1, 2, 9], [9, 9, 8, 8, 7]], lucky=4, dealer=1)
    state.apply_action(discard_action(9, 1))
    state.apply_action(B)
    assert state.current_player() == 1, "worth 5 now, but the call waits for the next turn"
    state.apply_action(discard_action(7, 1))
    state.apply_action(3)
    assert state.current_player() == 0 and Move.CALL in state.legal_actions()


def test_no_call_after_taking_a_card() -> None:
    state = deal([[1, 1, 1, 2, B], [9, 9, 8, 8, 5]], lucky=4)
    state.apply_action(discard_action(5, 1))
    state.apply_action(3)
    state.apply_action(Move.TAKE)
    with pytest.raises(IllegalActionError, match="Nach dem Nehmen musst du ablegen"):
        state.apply_action(Move.CALL)


# --- Sixes ------------------------------------------------------


def test_a_6_makes_the_next_player_sit_out() -> None:
    state = deal(HANDS3, lucky=4)
    state.apply_action(discard_action(6, 1))
    state.apply_action(3)
    assert state.current_player() == 0, "seat 2 sits out"


def test_two_6s_make_two_players_sit_out() -> None:
    state = deal([*HANDS3, [1, 2, 3, 4, 5]], lucky=4)
    state.apply_action(discard_action(6, 2))
    state.apply_action(3)
    assert state.current_player() == 0, "seats 2 and 3 sit out"


def test_skips_count_round_the_table_the_discarder_can_be_skipped_too() -> None:
    state = deal([[1, 2, 3, 4, 5], [6, 6, 7, 8, 9]], lucky=4)
    state.apply_action(discard_action(6, 1))
    state.apply_action(3)
    assert state.current_player() == 1, "with two players one 6 gives the discarder another turn"
    state = deal([[1, 2, 3, 4, 5], [6, 6, 7, 8, 9]], lucky=4)
    state.apply_action(discard_action(6, 2))
    state.apply_action(3)
    assert state.current_player() == 0, "two 6s: the other and the discarder sit out"


def test_a_6_of_the_lucky_number_makes_a_player_sit_out_too() -> None:
    state = deal(HANDS3, lucky=6)
    state.apply_action(discard_action(6, 1))
    state.apply_action(3)
    assert state.current_player() == 0


def test_sixes_discarded_after_taking_count_too() -> None:
    state = deal([[1, 2, 3, 4, 9], [6, 6, 7, 8, 9], [10, 10, 2, 2, B]], lucky=4, dealer=2)
    state.apply_action(discard_action(9, 1))
    state.apply_action(3)
    state.apply_action(Move.TAKE)
    state.apply_action(discard_action(6, 1))
    assert state.current_player() == 0


# --- After the first call ---------------------------------------


def called_round() -> BungeeState:
    state = deal(
        [[1, 1, 1, B, 4], [2, 2, 1, 9, 9], [3, 3, 9, 9, 8], [10, 10, 9, 8, 7]], lucky=4, dealer=3
    )
    state.apply_action(Move.CALL)
    return state


def test_after_the_first_call_every_other_player_has_exactly_one_more_turn() -> None:
    state = called_round()
    assert state.current_player() == 1 and state.last_turns() == [1, 2, 3]
    state.apply_action(discard_action(9, 2))
    state.apply_action(5)
    assert state.current_player() == 2 and state.last_turns() == [2, 3]
    state.apply_action(discard_action(9, 2))
    state.apply_action(5)
    state.apply_action(discard_action(10, 2))
    state.apply_action(5)
    assert state.current_player() == TERMINAL or state.round_index == 1, "the round is over"
    assert state.results[0].calls == (0,)


def test_the_others_may_call_second_and_third() -> None:
    state = deal(
        [[1, 1, 1, B, 4], [2, 2, 1, B, 4], [3, 3, 9, 9, 8], [10, 10, 9, 8, 7]], lucky=4, dealer=3
    )
    state.apply_action(Move.CALL)
    state.apply_action(Move.CALL)  # seat 1: 2+2+1 = 5
    state.apply_action(discard_action(9, 2))
    state.apply_action(5)
    state.apply_action(discard_action(10, 2))
    state.apply_action(5)
    result = state.results[0]
    assert result.calls == (0, 1)
    assert result.points[:2] == (3, 5)
    assert result.winners == (0,)


def test_a_skipped_player_loses_the_last_turn() -> None:
    state = deal(
        [[1, 1, 1, B, 4], [6, 2, 1, 9, 9], [3, 3, 9, 9, 8], [10, 10, 9, 8, 7]], lucky=4, dealer=3
    )
    state.apply_action(Move.CALL)
    state.apply_action(discard_action(6, 1))
    state.apply_action(5)
    assert state.current_player() == 3, "seat 2 sat out its last turn"
    assert state.last_turns() == [3]


def test_the_round_ends_when_sixes_skip_past_the_first_caller() -> None:
    state = deal(
        [[1, 1, 1, B, 4], [2, 2, 1, 9, 9], [3, 3, 9, 9, 8], [6, 6, 9, 8, 7]], lucky=4, dealer=3
    )
    state.apply_action(Move.CALL)
    for _ in range(2):
        state.apply_action(discard_action(9, 2))
        state.apply_action(5)
    state.apply_action(discard_action(6, 2))
    state.apply_action(5)
    assert len(state.results) == 1


# --- Who wins and the scores ------------------------------------


def test_the_fewest_points_win_caller_or_not() -> None:
    assert round_winners([4, 2, 9], calls=[0]) == [1]


def test_on_a_tie_the_later_call_wins() -> None:
    assert round_winners([3, 3, 9], calls=[0, 1]) == [1]
    assert round_winners([3, 3, 9], calls=[1, 0]) == [0]


def test_a_call_beats_no_call_on_a_tie() -> None:
    assert round_winners([3, 3, 9], calls=[0]) == [0]
    assert round_winners([3, 3, 9], calls=[2, 0]) == [0]


def test_tied_players_of_whom_none_called_all_win() -> None:
    assert round_winners([2, 2, 3], calls=[2]) == [0, 1]


def test_the_winner_writes_minus_10_the_others_their_hand_bungee_cards_10() -> None:
    state = called_round()
    for _ in range(3):
        seat = state.current_player()
        hand = state.hands[seat]
        face = 9 if hand[9] >= 2 else 10
        state.apply_action(discard_action(face, 2))
        state.apply_action(4)  # draws a lucky-number card: worth 0
    result = state.results[0]
    assert result.winners == (0,)
    assert result.scores == (-10, 5, 14, 24)
    assert state.totals == [-10, 5, 14, 24]


def test_a_bungee_card_counts_0_for_deciding_and_10_when_scored() -> None:
    state = deal([[B, B, 1, 1, 1], [2, 2, 3, 3, 9]], lucky=4, dealer=1, rounds=1)
    state.apply_action(Move.CALL)
    state.apply_action(discard_action(9, 1))
    state.apply_action(5)
    result = state.results[0]
    assert result.points == (3, 15) and result.winners == (0,)
    assert result.scores == (-10, 15)
    state = deal([[B, B, 9, 9, 8], [1, 1, 1, 2, 4]], lucky=4, dealer=0, rounds=1)
    state.apply_action(Move.CALL)
    state.apply_action(discard_action(9, 2))
    state.apply_action(3)
    assert state.results[0].scores == (31, -10), "the loser's two Bungee cards cost 20"


def test_after_six_rounds_the_lowest_total_wins() -> None:
    game = BungeeGame({"players": 3})
    assert game.rounds == 6
    rng = random.Random(2)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(
            sample_chance(state, rng)
            if state.is_chance_node()
            else rng.choice(state.legal_actions())
        )
    assert len(state.results) == 6
    assert state.returns() == [-float(t) for t in state.totals]
    best = min(state.totals)
    assert [p == 1 for p in state.places()] == [t == best for t in state.totals]


def test_ties_share_the_place() -> None:
    state = BungeeGame({"players": 3}).new_initial_state()
    state.results = []
    assert state.places() == [1, 1, 1]


def test_the_dealer_moves_one_seat_on_each_round() -> None:
    state = deal([[1, 1, 1, 1, 1], [9, 9, 9, 9, 8]], lucky=4, dealer=0)
    assert state.current_player() == 1
    state.apply_action(discard_action(9, 4))
    state.apply_action(2)
    state.apply_action(Move.CALL)
    state.apply_action(discard_action(2, 1))
    state.apply_action(5)
    assert state.round_index == 1 and state.dealer == 1
    assert state.phase == Phase.DEAL


# --- What a seat may know ---------------------------------------


def test_a_seat_sees_its_own_hand_and_only_the_others_card_counts() -> None:
    state = deal(HANDS3, lucky=4)
    view = state.view(0)
    assert sorted(view["hand"]) == [1, 2, 3, 4, 5]
    assert view["hand_sizes"] == [5, 5, 5]
    assert "hands" not in view and "pile_cards" not in view
    assert view["lucky"] == 4 and view["pile"] == 40


def test_a_taken_card_is_known_to_all_until_it_is_discarded() -> None:
    state = deal(HANDS3, lucky=4)
    state.apply_action(discard_action(9, 1))
    state.apply_action(3)
    state.apply_action(Move.TAKE)
    assert state.view(0)["known"][2] == [9]


def test_the_hands_and_the_pile_are_secret_while_the_round_runs() -> None:
    state = deal(HANDS3, lucky=4)
    secret = state.secret_actions()
    assert secret == list(range(15)), "the dealt cards; the lucky card is open"


# --- Real cards at the table (mode "tisch") ---------------------


def tisch(players: int = 3, rounds: int = 6) -> BungeeState:
    return BungeeGame({"players": players, "rounds": rounds, "mode": "tisch"}).new_initial_state()


def test_at_the_table_the_dealer_enters_the_lucky_number_once_per_round() -> None:
    state = tisch()
    assert state.current_player() == 0 and state.legal_actions() == [
        lucky_action(f) for f in range(1, 11)
    ]
    state.apply_action(lucky_action(7))
    assert state.lucky == 7 and state.current_player() == 1


def test_at_the_table_a_key_per_6_discarded_skips_players() -> None:
    state = tisch()
    state.apply_action(lucky_action(7))
    state.apply_action(zug_action(0))
    assert state.current_player() == 2
    state.apply_action(zug_action(1))
    assert state.current_player() == 1, "seat 0 sits out"


def test_at_the_table_the_hands_are_entered_and_the_calls_checked() -> None:
    state = tisch(rounds=1)
    state.apply_action(lucky_action(7))
    state.apply_action(zug_action(0))
    state.apply_action(Move.CALL)  # seat 2 calls
    state.apply_action(zug_action(0))  # seat 0's last turn
    state.apply_action(Move.CALL)  # seat 1 calls second
    assert state.phase == Phase.ENTER and state.current_player() == 1
    with pytest.raises(IllegalActionError, match="höchstens 5 Punkte"):
        state.apply_action(hand_action(6, 0))
    state.apply_action(hand_action(3, 1))  # seat 1
    state.apply_action(hand_action(3, 0))  # seat 2
    with pytest.raises(IllegalActionError, match="nur 3 Bungee-Karten"):
        state.apply_action(hand_action(12, 3))
    state.apply_action(hand_action(12, 2))  # seat 0
    result = state.results[0]
    assert result.calls == (2, 1)
    assert result.winners == (1,), "tie 3-3: the later call wins"
    assert result.scores == (32, -10, 3)
    assert state.is_terminal()


# --- DESIGN.md's defaults are parameters ---------------------------------------------


def test_with_the_bungee_lucky_card_kept_a_bungee_card_may_lie_under_the_pile() -> None:
    game = BungeeGame({"players": 2, "bungee_lucky_again": False})
    state = game.new_initial_state()
    for card in [1, 2, 3, 4, 5, 1, 2, 3, 4, 5]:
        state.apply_action(card)
    assert B in state.legal_actions()
    state.apply_action(B)
    assert state.lucky == B
    assert hand_value(counts([B, 3]), B) == 3 and hand_score(counts([B, 3]), B) == 13


def test_with_no_reshuffle_the_round_ends_when_the_pile_is_empty() -> None:
    state = deal(HANDS3, lucky=4, rounds=1, empty_pile_reshuffle=False)
    rng = random.Random(1)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        hand = state.hands[state.seat]
        face = next(f for f in range(1, B + 1) if hand[f])
        state.apply_action(discard_action(face, 1))
    assert state.reshuffles == 0 and state.results[0].calls == ()


def test_without_skipping_the_discarder_sixes_stop_at_the_others() -> None:
    state = deal([[1, 2, 3, 4, 5], [6, 6, 7, 8, 9]], lucky=4, skip_discarder=False)
    state.apply_action(discard_action(6, 2))
    state.apply_action(3)
    assert state.current_player() == 1, "two 6s with two players: only the other sits out"


def test_when_sixes_skip_nobody_after_a_call_every_last_turn_is_played() -> None:
    state = deal(
        [[1, 1, 1, B, 4], [6, 2, 1, 9, 9], [3, 3, 9, 9, 8], [10, 10, 9, 8, 7]],
        lucky=4,
        dealer=3,
        skip_last_turn=False,
    )
    state.apply_action(Move.CALL)
    state.apply_action(discard_action(6, 1))
    state.apply_action(5)
    assert state.current_player() == 2


def test_tied_players_without_a_call_may_all_go_without_the_win() -> None:
    assert round_winners([2, 2, 3], calls=[2], tie_all_win=False) == []
    assert round_winners([2, 4, 3], calls=[2], tie_all_win=False) == [0]


def test_the_dealer_may_stay_the_same_every_round() -> None:
    state = deal([[1, 1, 1, 1, 1], [9, 9, 9, 9, 8]], lucky=4, dealer=0, dealer_moves=False)
    state.apply_action(discard_action(9, 4))
    state.apply_action(2)
    state.apply_action(Move.CALL)
    state.apply_action(discard_action(2, 1))
    state.apply_action(5)
    assert state.round_index == 1 and state.dealer == 0
