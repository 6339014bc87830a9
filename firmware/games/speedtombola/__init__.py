"""Speedtombola, the No Thanks! variant: rules, computers, the table and its screens."""

from spielleiter.games.catalog import GameEntry, HouseRule, Option, T

from .info import INFO, REMOVED_CHOICES, ROUND_CHOICES

LEVELS = ("leicht", "normal", "stark")

ENTRY = GameEntry(
    id="speedtombola",
    info=INFO,
    game="rules:SpeedtombolaGame",
    table="table:SpeedtombolaTable",
    screens="screens:start",
    levels=LEVELS,
    arena="arena:play",
    replay="replay:replay_text",
    house_rules=(
        HouseRule("removed", "Lose raus", REMOVED_CHOICES, "removed"),
        HouseRule("rounds", "Runden", ROUND_CHOICES, "rounds"),
    ),
    options=(
        Option("takeover", "normal", T("the computer that takes a left seat"), choices=LEVELS),
    ),
    help=(
        "Wer dran ist, nimmt das Los mit allen Groschen darauf, oder sagt "
        '"Nein danke" und legt einen Groschen hin.',
        "Ohne Groschen musst du nehmen. Wer nimmt, zieht das nächste Los und "
        "entscheidet als Erster.",
        "Von jeder Garnitur (Lose in Folge) zählt nur das kleinste Los; jeder Groschen "
        "zählt minus 1. Wenig gewinnt.",
        "Vor jeder Runde kommen 9 Lose ungesehen aus der Trommel (Start: Lose raus). "
        "Welche, zeigt die Tafel.",
        "Tasten: 1 Nein danke, 2 Nehmen, 3 Rat (allein gegen Computer), 4 Info. "
        "4 lang: Pause, Hilfe, Verlassen.",
    ),
    advice="Rat (one human against computers): Stark's choice, points and win chances",
    secret="the lots removed unseen from the drum in the running round",
    bestenliste=T(
        "per human and match: per round max(0, 50 - round points), then +30/+15/+5 for "
        "places 1/2/3 (ties share the place's bonus); a first place counts as a win"
    ),
    leave=(
        "a human who leaves while other humans stay gets -10 for the match instead of what "
        "it earned; a computer takes the seat. The last human leaving ends the match unscored"
    ),
    leave_penalty=-10,
)
