"""Besenbingo: the tower cards, the sheets, the computers' crosses, the table and screens."""

from spielleiter.games.catalog import N_, GameEntry, Option, Sheets, T, Variant

from .info import INFO

LEVELS = ("leicht", "normal", "stark")
SOLO_ROUNDS = (1, 3, 5)

ENTRY = GameEntry(
    id="besenbingo",
    info=INFO,
    game="rules:BesenbingoGame",
    table="table:BesenbingoTable",
    screens="screens:start",
    levels=LEVELS,
    variants=(
        Variant("digital", "Digital", 1, 9, LEVELS),
        Variant("papier", "Papier (Spielleiter)", 1, 1, needs_seats=False),
    ),
    setup="screens:setup",
    options=(Option("rounds", 1, T("solo Durchgänge (one human alone)"), choices=SOLO_ROUNDS),),
    boards="templates:validate_board:default_boards",
    advice="Tipp (one human at the table): Stark's cross and the points it expects",
    board_twin="templates:twin_board",
    sheets=Sheets(
        "sheets:draw",
        N_("tower cards and their backs, the rules, one page per template"),
        files="template",
        files_help=N_("template files (as uploaded to the box); default: the shipped nine"),
        parse="templates:validate_template",
        single_key="grid",
    ),
    laptop="laptop:register",
    help=(
        "Ein Turm wird aufgedeckt: streiche eine Hexe daneben und ein Feld einer Reihe, "
        "zu dem sie passt.",
        "Hexe, Copilot, Paar: die passende Reihe mit dem höchsten Wert. Kombi geht "
        "immer. Jede Reihe von links.",
        "Passt nichts, streichst du das nächste Minusfeld. Nach 7 Türmen ist Schluss, "
        "der stille Turm kommt heraus.",
        "Tasten: 1 Hexe, 2 Reihe, 3 Leiste, Tipp, Feld, 4 Streichen. Sonst 4 Weiter. "
        "4 lang: Pause.",
    ),
    secret="the silent tower (stiller Turm) and the order of the tower cards not yet turned",
    bestenliste=T(
        "per human and digital Durchgang: the sheet's points (never below 0), then +30/+15/+5 "
        "for places 1/2/3 when two or more sheets play (ties share the bonus); paper play "
        "keeps no sheets and scores nothing; a first place of two or more sheets is a win"
    ),
    leave="leaving ends the Durchgang: nobody is scored, nobody loses points",
)
