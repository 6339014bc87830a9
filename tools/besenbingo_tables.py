"""Write Besenbingo's shipped Stark tables (firmware/games/besenbingo/data/stark.json).

Run after the default templates change (tests/test_besenbingo_bots.py fails until then):

    .venv/bin/python tools/besenbingo_tables.py
"""

import json
from pathlib import Path

from spielleiter.games.besenbingo.bots import SHIPPED_FILE, shipped_file
from spielleiter.games.besenbingo.templates import default_templates

OUT = Path(__file__).resolve().parent.parent / "firmware/games/besenbingo/data" / SHIPPED_FILE


def dumps(data: dict) -> str:
    """The file as JSON with one position a line (small diffs when a template changes)."""
    lines = ["{"]
    lines += [f" {json.dumps(k)}: {json.dumps(v)}," for k, v in data.items() if k != "templates"]
    lines.append(' "templates": [')
    for i, entry in enumerate(data["templates"]):
        lines.append(f'  {{"name": {json.dumps(entry["name"])}, "template": "{entry["template"]}",')
        lines.append('   "values": [')
        lines += [f"    [{k}, {v!r}]," for k, v in entry["values"]]
        lines[-1] = lines[-1].rstrip(",")
        lines.append("  ]}" + ("," if i < len(data["templates"]) - 1 else ""))
    lines += [" ]", "}"]
    return "\n".join(lines) + "\n"


def main() -> None:
    data = shipped_file(default_templates())
    text = dumps(data)
    assert json.loads(text) == data
    OUT.write_text(text, encoding="utf-8")
    count = sum(len(t["values"]) for t in data["templates"])
    print(f"{OUT}: {len(data['templates'])} templates, {count} positions")


if __name__ == "__main__":
    main()
