"""How the box draws chance, so that nobody can read or rig it.

Each record has a chance secret. Every chance outcome the box draws at action index i
comes from a generator seeded by (secret, "chance", i), and every computer's decision
from (secret, "bot", seat, i): the same outcome after Zurück, after a power cut, and
whatever else used random numbers meanwhile (Rat, tips, Info).

* **Committed at the start.** The record's meta holds ``chance.commitment``, the
  SHA-256 of the secret (in a fixed frame, :func:`commitment`); records.get and the
  Info screen show it from the first action on.
* **Sealed while the match runs.** The secret itself is stored only sealed
  (``chance.sealed``): XOR-ed with a pad that the box's key derives, and the key lives
  in a file beside the store (``chance.key``), never in the database, never on the link.
  A backup or any fetched record of a running match therefore holds nothing from which
  a draw can be computed; a restored open match resumes only on the box whose key
  sealed it.
* **Revealed at the end.** When the match ends (finished or left) the secret is written
  in the clear (``chance.secret``) in the same transaction, and :func:`verify` proves
  that every outcome the box drew came from it, or names the first that did not.

Chance the players bring from the table (real dice, a spinner read by its sensor, what
the magnets did) is not drawn by the box: its action indices are listed in the meta's
``entered``, and :func:`verify` counts them apart. See docs/records.md.
"""

from __future__ import annotations

import os
import random
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .games import catalog
from .games.base import State, sample_chance
from .texts import T

__all__ = [
    "KEY_FILE",
    "SCHEME",
    "ChanceSealed",
    "Verdict",
    "box_key",
    "commitment",
    "derived_seed",
    "draw",
    "public_chance",
    "reveal",
    "seal",
    "unseal",
    "verify",
]

SCHEME = 1
"""The version of this scheme, stored as ``chance.scheme``."""

KEY_FILE = "chance.key"
"""The box's sealing key, in the data folder beside the store (never in a backup)."""

_FRAME = b"spielleiter chance 1\n"


class ChanceSealed(ValueError):
    """A record's chance secret cannot be opened with this box's key."""


def derived_seed(*parts: Any) -> int:
    """A 63-bit seed from any parts, the same on every machine and Python."""
    import hashlib  # here, not at the start: the first frame needs no OpenSSL

    digest = hashlib.blake2b("/".join(map(str, parts)).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def commitment(secret: str) -> str:
    """The SHA-256 (hex) that commits a record to its chance secret."""
    import hashlib

    return hashlib.sha256(_FRAME + str(secret).encode()).hexdigest()


def draw(state: State, secret: str, index: int) -> int:
    """The chance outcome the box draws for `state` at action index `index`."""
    return sample_chance(state, random.Random(derived_seed(secret, "chance", index)))


def _pad(key: bytes, commit: str, size: int) -> bytes:
    import hashlib

    return hashlib.shake_256(b"seal\n" + key + b"\n" + commit.encode()).digest(size)


def seal(key: bytes, secret: str) -> dict[str, Any]:
    """The meta's ``chance`` for a new record: its commitment and its sealed secret."""
    commit = commitment(secret)
    plain = str(secret).encode()
    sealed = bytes(a ^ b for a, b in zip(plain, _pad(key, commit, len(plain)), strict=True))
    return {"scheme": SCHEME, "commitment": commit, "sealed": sealed.hex()}


def unseal(key: bytes, chance: Mapping[str, Any]) -> str:
    """The secret of a sealed ``chance`` (ChanceSealed when this key did not seal it)."""
    try:
        commit = str(chance["commitment"])
        sealed = bytes.fromhex(str(chance["sealed"]))
    except (KeyError, TypeError, ValueError):
        raise ChanceSealed("its chance is not sealed in a form this box reads") from None
    plain = bytes(a ^ b for a, b in zip(sealed, _pad(key, commit, len(sealed)), strict=True))
    try:
        secret = plain.decode()
    except UnicodeDecodeError:
        secret = ""
    if not secret or commitment(secret) != commit:
        raise ChanceSealed("its chance was sealed by another box")
    return secret


def reveal(chance: Mapping[str, Any], secret: str) -> dict[str, Any]:
    """The ``chance`` of an ended match: the commitment and the secret in the clear."""
    return {"scheme": SCHEME, "commitment": str(chance.get("commitment", commitment(secret))),
            "secret": str(secret)}  # fmt: skip


def public_chance(meta: Mapping[str, Any]) -> dict[str, Any]:
    """A running record's meta as it may leave the box: the commitment, no secret, sealed
    or not (nor the seed of records from before the commitment)."""
    shown = {k: v for k, v in meta.items() if k != "seed"}
    chance = meta.get("chance")
    if isinstance(chance, Mapping):
        shown["chance"] = {k: chance[k] for k in ("scheme", "commitment") if k in chance}
    elif "chance" in shown:
        del shown["chance"]
    return shown


_keys: dict[Path, bytes] = {}


def box_key(data_dir: Path) -> bytes:
    """The box's sealing key in `data_dir` (made once, 32 random bytes, durable before it
    is used; only the box's own user may read it)."""
    path = Path(data_dir) / KEY_FILE
    known = _keys.get(path)
    if known is not None:
        return known
    try:
        key = bytes.fromhex(path.read_text().strip())
    except FileNotFoundError:
        key = _make_key(path)
    except ValueError:
        raise OSError(f"{path} is not a key the box wrote") from None
    if len(key) != 32:
        raise OSError(f"{path} is not a key the box wrote")
    _keys[path] = key
    return key


def _make_key(path: Path) -> bytes:
    key = os.urandom(32)
    part = path.with_name(f".{path.name}.{os.getpid()}")
    fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, key.hex().encode() + b"\n")
        os.fsync(fd)
    finally:
        os.close(fd)
    try:
        os.link(part, path)  # never over a key another process made meanwhile
    except FileExistsError:
        return bytes.fromhex(path.read_text().strip())
    finally:
        part.unlink()
    folder = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)
    return key


@dataclass(frozen=True)
class Verdict:
    """What :func:`verify` found: every drawn outcome matches, or the first that does not."""

    ok: bool
    drawn: int = 0
    """Chance outcomes the box drew, each recomputed from the revealed secret."""
    entered: int = 0
    """Chance outcomes entered at the table (real dice, the sensor): not the box's draws."""
    index: int | None = None
    """The first action that is not what the secret draws (or cannot be replayed)."""
    reason: str = ""
    expected: int | None = None
    """What the secret draws at `index` (None: the action could not be played)."""


def verify(record: Any) -> Verdict:
    """Check a record's chance against its commitment (a :class:`~spielleiter.records.Record`)."""
    chance = record.meta.get("chance")
    if not isinstance(chance, Mapping) or "commitment" not in chance:
        return Verdict(False, reason=T("the record has no chance commitment (made before them)"))
    if "secret" not in chance:
        return Verdict(False, reason=T("the chance is still sealed: the match has not ended"))
    secret = str(chance["secret"])
    if commitment(secret) != chance["commitment"]:
        return Verdict(False, reason=T("the revealed secret does not match the commitment"))
    entered = set(record.meta.get("entered", []))
    state = catalog.make(record.game, record.params).new_initial_state()
    drawn = typed = 0
    for i, action in enumerate(record.actions):
        if state.is_chance_node():
            if i in entered:
                typed += 1
            else:
                expected = draw(state, secret, i)
                if action != expected:
                    why = T(
                        "action {index} is {action}, the secret draws {expected}",
                        index=i, action=action, expected=expected,
                    )  # fmt: skip
                    return Verdict(False, drawn, typed, i, why, expected)
                drawn += 1
        try:
            state.apply_action(action)
        except ValueError as exc:
            why = T("action {index} cannot be played: {why}", index=i, why=exc)
            return Verdict(False, drawn, typed, i, why)
    return Verdict(True, drawn, typed)
