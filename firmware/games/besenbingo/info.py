"""Besenbingo's facts, which the catalog reads without loading the rules or templates.

The rule engine (`rules`) imports them from here, so they are declared once and the
box's first screen loads neither the engine nor the template data.
"""

from __future__ import annotations

from spielleiter.games.base import GameInfo

REVEALS = 7
"""Towers revealed per Durchgang; the eighth stays silent."""
MAX_SHEETS = 9

INFO = GameInfo(
    name="besenbingo",
    title="Besenbingo",
    min_players=1,
    max_players=MAX_SHEETS,
    min_utility=-70.0,
    max_utility=80.0,
    max_game_length=1 + REVEALS + REVEALS * MAX_SHEETS,
    rule_text="besenbingo.de.txt",
)
