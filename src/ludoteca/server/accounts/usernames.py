"""One account per name as people read it: two usernames that look the same are one.

The key of a name is its NFKC form, mapped through the confusables of Unicode's UTS #39
(each character to the prototype it is confused with: Cyrillic "а" to "a", "0" to "O",
"1" and "I" to "l", "m" to "rn"), case-folded, and mapped again (a lower-case letter may
have look-alikes its capital had not): ``CaseX`` and ``casex``, ``paul`` and ``pau1``,
``bob0`` and ``bobO`` each share one key. The key has a unique index (migration 0005).

The confusables come from the ``confusable_homoglyphs`` package (Unicode's data as JSON:
for each character, the characters it is confused with). Its table is symmetric, so the
prototype of a class is chosen here: a character listed with one look-alike whose own
list is longer (or that is a sequence) maps to it; otherwise it is its class's prototype.
"""

from __future__ import annotations

import unicodedata
from functools import cache

_MARKS = "\u200e\u200f"  # the data wraps right-to-left characters in direction marks


@cache
def _prototypes() -> dict[str, str]:
    from confusable_homoglyphs import confusables

    data: dict[str, list[dict[str, str]]] = confusables.confusables_data
    out: dict[str, str] = {}
    for char, glyphs in data.items():
        if len(glyphs) != 1:
            continue  # a prototype, listed with all that look like it
        target = glyphs[0]["c"].strip(_MARKS)
        if not target or target == char:
            continue
        back = data.get(target, [])
        if len(target) > 1 or len(back) > 1:
            out[char] = target
        elif back and back[0]["c"].strip(_MARKS) == char and char > target:
            out[char] = target  # a pair that only look like each other: the smaller one stands for both
    return out


def _skeleton(text: str) -> str:
    table = _prototypes()
    return "".join(table.get(char, char) for char in unicodedata.normalize("NFD", text))


def username_key(name: str) -> str:
    """The form two names must not share (linear in the name's length)."""
    return _skeleton(_skeleton(unicodedata.normalize("NFKC", name)).casefold()).casefold()
