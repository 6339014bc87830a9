"""Engel & Bengel: the faces, the rules, computers that know when to stop, table and screens."""

from spielleiter.games.catalog import N_, GameEntry, HouseRule, Option, Sheets, T

from .info import (
    DURCHGAENGE,
    DURCHGAENGE_BOUNDS,
    END_CHOICES,
    INFO,
    LIMIT,
    LIMIT_BOUNDS,
    START_CHOICES,
    TARGET,
    TARGET_BOUNDS,
)

LEVELS = ("leicht", "normal", "stark")
DICE_SOURCES = ("box", "echt")

ENTRY = GameEntry(
    id="engel-bengel",
    info=INFO,
    game="rules:EngelBengelGame",
    table="table:EngelBengelTable",
    screens="screens:start",
    levels=LEVELS,
    arena="arena:play",
    replay="replay:replay_text",
    setup="screens:setup",
    boards="faces:validate_board:default_boards",
    sheets=Sheets(
        "sheets:draw",
        N_("every board face on A4, two a page"),
        files="face",
        files_help=N_("face files (as uploaded to the box); default: the shipped 16"),
        parse="faces:validate_face",
        single_key="rows",
    ),
    laptop="laptop:register",
    house_rules=(
        HouseRule("wuerfel", "Würfel", DICE_SOURCES, "wuerfel", ("Box", "echt")),
        HouseRule("end", "Ende", END_CHOICES, "end", ("Ziel", "Durchgänge")),
    ),
    options=(
        Option("wuerfel", "box", T("who rolls: the box's cup, or real dice entered"), DICE_SOURCES),
        Option("end", "ziel", T("game end: a chip target, or a fixed number"), END_CHOICES),
        Option(
            "target",
            TARGET,
            T("chips that end the game after their Durchgang"),
            bounds=TARGET_BOUNDS,
        ),
        Option(
            "limit",
            LIMIT,
            T("the cap: a game that ends by the target ends after this many Durchgänge at most"),
            bounds=LIMIT_BOUNDS,
        ),
        Option(
            "durchgaenge",
            DURCHGAENGE,
            T("Durchgänge of a game that ends by number"),
            bounds=DURCHGAENGE_BOUNDS,
        ),
        Option("shuffle", True, T("the stack of faces is shuffled once at the start")),
        Option("start", "zufall", T("first start player: drawn, or the first seat"), START_CHOICES),
        Option("takeover", "normal", T("the computer that takes a left seat"), choices=LEVELS),
    ),
    help=(
        "Würfle bis zu 5 deiner Würfel. Nach jedem Wurf mindestens einen passenden "
        "setzen, jede Reihe von links.",
        "Dann aufhören oder mit den übrigen weiterwürfeln. Passt keiner, ist der Zug vorbei.",
        "Wer eine Reihe füllt: weiß zahlt ihren Wert, schwarz kostet ihn. Das letzte "
        "Feld beendet den Durchgang.",
        "Am Ende gewinnen die meisten Chips. Wann es endet, zeigt Info. 4 lang: Pause, "
        "Info, Hilfe, Verlassen.",
        "Tasten: 1 Würfel, 2 Reihe, 3 Legen oder Nochmal, 4 Stopp (vor dem ersten "
        "Würfel: Tipp). 4 lang: Pause.",
        "Echte Würfel eingeben: 1 für 1 bis 3 oder 2 für 4 bis 6, dann die Zahl; "
        "4 einen Schritt zurück.",
    ),
    advice="Tipp (one human against computers): Stark's move and its chips against the others",
    secret="the order of the stack of faces below the faces that came up so far",
    bestenliste=T(
        "per human and game: the final chips, and a win for the richest (tied winners "
        "each); a line sums the chips of its games, with the games played and won"
    ),
    leave=(
        "a human who leaves while other humans stay gets -10 for the game instead of what it "
        "earned; a computer takes the seat. The last human leaving ends the game unscored"
    ),
    leave_penalty=-10,
)
