"""Texts the box sends over the link, kept so the laptop can say them in its language.

The box's refusals and notes to the laptop are English prose: the JSON-RPC error's
`message`, which every laptop prints as it comes. Where such a text is written as
`T(template, **args)` it is still that English string (a `str`), and it also keeps its
template and arguments; the link sends them beside the message, in the error's data as
`"text": {"id": template, "args": {...}}` (docs/protocol.md, "Texts in the laptop's
language"). The laptop looks the template up in its catalog, translates it and formats
the arguments in; an argument that is itself such a text is translated the same way.
A template the laptop does not know (an older laptop, a newer box) leaves it with the
English message, as before.

`make messages` extracts every `T("…")` and `around("…", …)` of the firmware into the
laptop's catalog, and `tests/test_host_i18n.py` fails on one without a German entry.
Write a template as the laptop's messages are written: named placeholders, the arguments
plain data (numbers, names, paths) or texts of their own, never English prose in a plain
string.

    >>> t = T("must be from {lo} to {hi}, not {value}", lo=0, hi=255, value=300)
    >>> t
    'must be from 0 to 255, not 300'
    >>> t.to_json()
    {'id': 'must be from {lo} to {hi}, not {value}', 'args': {'lo': 0, 'hi': 255, 'value': 300}}
    >>> T("{path}: {why}", path="clock.seconds", why=t).to_json()["args"]["why"]["args"]["hi"]
    255
"""

from __future__ import annotations

from typing import Any


class Text(str):
    """An English text with its template and arguments (see the module)."""

    template: str
    args: dict[str, Any]

    def __new__(cls, template: str, args: dict[str, Any]) -> Text:
        kept = {name: _argument(value) for name, value in args.items()}
        text = super().__new__(cls, template.format(**kept))
        text.template = template
        text.args = kept
        return text

    def __reduce__(self) -> tuple[Any, ...]:
        return (Text, (self.template, self.args))

    def to_json(self) -> dict[str, Any]:
        """{"id": the template, "args": each argument, a text as its own object}."""
        return {
            "id": self.template,
            "args": {k: v.to_json() if isinstance(v, Text) else v for k, v in self.args.items()},
        }


def T(template: str, /, **args: Any) -> Text:  # noqa: N802 - the extractor's keyword
    """`template` with `args` formatted in, kept for the laptop's catalog."""
    return Text(template, args)


def around(template: str, /, why: Any, **args: Any) -> str:
    """`template` with the prose `why` (a text or an exception) and `args` formatted in: a
    Text when `why` is one, else plain English (never a German frame round English words).

    >>> type(around("{why} (board {name!r})", "too wide", name="Rot")).__name__
    'str'
    """
    said = text_of(why)
    if said is None:
        return template.format(why=str(why), **{k: _argument(v) for k, v in args.items()})
    return Text(template, {"why": said, **args})


def text_of(value: Any) -> Text | None:
    """The Text in `value`: itself, or the text an exception says (its `message` or its
    first argument, where that is all its str says)."""
    if isinstance(value, Text):
        return value
    if isinstance(value, BaseException):
        for candidate in (getattr(value, "message", None), *value.args[:1]):
            if isinstance(candidate, Text) and candidate == str(value):
                return candidate
    return None


def _argument(value: Any) -> Any:
    """An argument as JSON data: a number, a string, null, a list of those, or a Text
    (an exception as its text, anything else as its str)."""
    if value is None or isinstance(value, bool | int | float | Text):
        return value
    found = text_of(value)
    if found is not None:
        return found
    if isinstance(value, list | tuple) and all(
        v is None or isinstance(v, bool | int | float | str) for v in value
    ):
        return [v if not isinstance(v, str) else str(v) for v in value]
    return str(value)
