"""Maskenball der Käfer: the spinner, the beetles, the ants, the table and its screens."""

from spielleiter.games.catalog import GameEntry, HouseRule, Option, T

from .info import INFO

MODES = ("digital", "physical")
PLAYER_CHOICES = (2, 3, 4, 5, 6, 7, 8, 1)

ENTRY = GameEntry(
    id="maskenball",
    info=INFO,
    game="rules:MaskenballGame",
    table="table:MaskenballTable",
    screens="screens:start",
    needs_seats=False,
    house_rules=(
        HouseRule("players", "Spieler", PLAYER_CHOICES, "players"),
        HouseRule("mode", "Magnete", MODES, "mode", ("Box", "echt")),
        HouseRule("tips", "Tipps", (False, True), "tips"),
    ),
    options=(Option("tips", False, T("show tips (which beetle, win chance)")),),
    setup="screens:setup",
    settings_items="spinner_setup:settings_items",
    help=(
        "Der Pfeil zeigt auf ein Blütenblatt: dessen Käfer fliegt los und besucht "
        "einen anderen Käfer.",
        "Tauschen die beiden, wandert je ein Punkt. Hat ein Käfer 5 Punkte in "
        "5 Farben, darf er zum Ball.",
        "Zwischen zwei Blütenblättern: Ameise auf den Stumpf, oder vom Stumpf auf "
        "die Ranke. Ranke voll: verloren.",
        "Tasten: 1 Drehen; beim Flug 1 und 2 wählen, 3 Besuch, 4 Heim. Echte Magnete: "
        "1 Tausch, 4 Weg. 4 lang: Pause.",
    ),
    advice="tips (setting maskenball.tips): which beetle to visit, the win chance of each option",
    secret="the magnet groups (which beetles swap) in digital play",
    bestenliste=T(
        'per table size ("4 Spieler"), the whole table as one team: a won game scores '
        "10 + the vine fields still free (and counts as a win), a lost one 0"
    ),
    leave="leaving ends the game: the table is not scored",
)
