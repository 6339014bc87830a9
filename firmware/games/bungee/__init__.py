"""Bungee (Haim Shafir): rules, computers, the table and its screens.

Two ways to play, asked first: "Karten am Tisch" (real cards; the box keeps the turn
order with the sixes' skips, the lucky number, the calls and the 6-round sheet) and
"Gegen Computer" (the whole game on the box against Leicht, Normal or Stark).
"""

from spielleiter.games.catalog import GameEntry, HouseRule, Option, T, Variant

from .info import HOUSE_RULES, INFO, ROUND_CHOICES

LEVELS = ("leicht", "normal", "stark")
RULE_HELP = {
    "bungee_lucky_again": T(
        "a Bungee card turned up as lucky card is shuffled back (else it stays and no number"
        " counts 0)"
    ),
    "empty_pile_reshuffle": T(
        "an empty pile is refilled from the discards but the top card (else the round ends)"
    ),
    "skip_discarder": T("sixes skip round the table, the discarder too"),
    "skip_last_turn": T("a player skipped after a call loses the last turn"),
    "tie_all_win": T("tied players of whom none called all win (else nobody wins)"),
    "dealer_moves": T("the dealer moves one seat on each round"),
}

ENTRY = GameEntry(
    id="bungee",
    info=INFO,
    game="rules:BungeeGame",
    table="table:BungeeTable",
    screens="screens:start",
    levels=LEVELS,
    variants=(
        Variant("tisch", "Karten am Tisch", 2, 5),
        Variant("digital", "Gegen Computer", 2, 5, LEVELS),
    ),
    setup="screens:setup",
    advice="Tipp (one human against computers): Stark's move and its score against the others",
    arena="arena:play",
    replay="replay:replay_text",
    house_rules=(HouseRule("rounds", "Runden", (6, 3, 1), "rounds"),),
    options=(
        Option("rounds", 6, T("rounds per Bungee match (the rule text: 6)"), choices=ROUND_CHOICES),
        *(Option(name, default, RULE_HELP[name]) for name, default in HOUSE_RULES.items()),
    ),
    help=(
        "Dran: eine Karte oder mehrere gleiche ablegen und ziehen, oder die oberste "
        "Ablage nehmen und ablegen.",
        "Bungee rufen: mit höchstens 5 Punkten auf der Hand (Glückszahl und Bungee "
        "zählen 0), nie im selben Zug.",
        "Jede 6 lässt einen aussetzen. Nach dem Ruf hat jeder noch einen Zug. Wenigste "
        "Punkte gewinnen die Runde.",
        "Sieger schreiben -10, die anderen ihre Punkte (Bungee 10). Nach 6 Runden: die "
        "kleinste Summe gewinnt.",
        "Tasten: 1 Wahl, 2 Ablegen, 3 Bungee oder Tipp, 4 Nehmen. Am Tisch: 1 je 6, "
        "2 Zug, 3 Bungee. 4 lang: Pause.",
    ),
    secret="the hands and the face-down pile of the running round (digital play)",
    bestenliste=T(
        "per human: the 6-round total of each finished match, the lowest average per match "
        "first, with the matches played and won (tied winners each)"
    ),
    bestenliste_lowest_first=True,
    leave="leaving ends the match: nobody is scored, nobody loses points",
)
