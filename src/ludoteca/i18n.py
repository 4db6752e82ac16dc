"""The string tables for the terminal: the same files the browser reads (each game's
``i18n/<lang>.json`` and the client's ``web/i18n/<lang>.json``), filled the same way as
web/js/i18n.js and web/js/gamemodule.js fill them: seats read as players, ids named by
the game's ``_names`` rules (see games/README.md), English where a string is
missing, a readable form of the key where even that is.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping, Sequence
from functools import cache
from importlib.resources import files
from typing import Any

LANGUAGES = ("en", "ja", "vi")
NUMBERED = re.compile(r"^(.+?)[-_.]?(\d+)$")
SPLIT = re.compile(r"^([^-_]+)[-_](.+)$")
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def locale_language(env: Mapping[str, str] | None = None) -> str:
    """The language of the terminal's locale (LC_ALL, LC_MESSAGES, LANG, in that order, as
    the C library reads them), when it is one of ours; English otherwise."""
    env = os.environ if env is None else env
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value:
            base = value.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
            return base if base in LANGUAGES else "en"
    return "en"


def _flatten(data: Mapping[str, Any], prefix: str = "", out: dict[str, Any] | None = None) -> dict[str, Any]:
    out = {} if out is None else out
    for key, value in data.items():
        if key.startswith("_"):
            continue  # "_provenance", "_names": notes, not strings
        name = f"{prefix}.{key}" if prefix else key
        if isinstance(value, Mapping):
            _flatten(value, name, out)
        else:
            out[name] = value
    return out


def _read(package: str, *parts: str) -> dict[str, Any]:
    try:
        found = files(package).joinpath(*parts)
    except (ModuleNotFoundError, TypeError):
        return {}
    if not found.is_file():
        return {}
    data = json.loads(found.read_text(encoding="utf-8"))
    return data if isinstance(data, dict) else {}


@cache
def _frame(lang: str) -> dict[str, Any]:
    return _flatten(_read("ludoteca", "web", "i18n", f"{lang}.json"))


@cache
def _game(package: str, lang: str) -> tuple[dict[str, Any], dict[str, Any]]:
    data = _read(package, "i18n", f"{lang}.json")
    names = data.get("_names")
    return _flatten(data), names if isinstance(names, dict) else {}


def _id_parts(value: str) -> dict[str, str]:
    numbered, split = NUMBERED.match(value), SPLIT.match(value)
    return {"id": value, "base": numbered[1] if numbered else value, "n": str(int(numbered[2])) if numbered else "",
            "head": split[1] if split else value, "tail": split[2] if split else value}


def _substitute(template: str, parts: Mapping[str, str]) -> str:
    return PLACEHOLDER.sub(lambda m: parts.get(m[1], m[0]), template)


class Strings:
    """One game's strings (and the client's) in one language, English behind them."""

    def __init__(self, game_package: str, lang: str) -> None:
        if lang not in LANGUAGES:
            raise ValueError(f"no language {lang!r}; languages: {', '.join(LANGUAGES)}")
        self.lang = lang
        self._langs = (lang, "en") if lang != "en" else ("en",)
        self._package = game_package

    # -- lookups ------------------------------------------------------------------------
    def _lookup(self, key: str) -> Any:
        for lang in self._langs:
            frame = _frame(lang)
            if key in frame:
                return frame[key]
            game = _game(self._package, lang)[0]
            if key in game:
                return game[key]
        return None

    def _game_string(self, key: str) -> Any:
        for lang in self._langs:
            game = _game(self._package, lang)[0]
            if key in game:
                return game[key]
        return None

    def _rules(self, arg: str) -> list[Any] | None:
        for lang in self._langs:
            names = _game(self._package, lang)[1]
            if arg in names:
                rule = names[arg]
                return list(rule) if isinstance(rule, list) else [rule]
        return None

    def get(self, key: str) -> str | None:
        """The string ``key`` as it is, or None when no table has it."""
        text = self._lookup(key)
        return None if text is None else str(text)

    def t(self, key: str, args: Mapping[str, Any] | None = None) -> str:
        """The string ``key`` with its ``{placeholders}`` filled from ``args``."""
        args = dict(args or {})
        text = self._lookup(key)
        if text is None:
            last = key.split(".")[-1].replace("_", " ")
            rest = ", ".join(f"{k}: {self._display(v)}" for k, v in args.items())
            return f"{last} ({rest})" if rest else last
        return self._fill(str(text), args)

    def _fill(self, text: str, args: Mapping[str, Any]) -> str:
        return PLACEHOLDER.sub(lambda m: self._display(args[m[1]]) if m[1] in args else m[0], text)

    def _display(self, value: Any) -> str:
        if value is None:
            return "—"
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, list | tuple):
            colon, comma = ("：", "、") if self.lang == "ja" else (": ", ", ")
            pair = lambda v: (f"{self._display(v[0])}{colon}{self._display(v[1])}"  # noqa: E731
                              if isinstance(v, list | tuple) and len(v) == 2 else self._display(v))
            return comma.join(pair(v) for v in value)
        if isinstance(value, Mapping):
            return ", ".join(f"{k}: {self._display(v)}" for k, v in value.items())
        return str(value)

    # -- seats and ids --------------------------------------------------------------------
    def seat_name(self, seat: int, you: int | None = None) -> str:
        """"Seat 2", or the client's word for "you" for the terminal's own seat."""
        if seat == you:
            return self.t("create.you")
        return self.t("seat.numbered", {"n": seat + 1})

    def _name_one(self, rules: Sequence[Any], value: str) -> str:
        parts = _id_parts(value)
        for rule in rules:
            spec = rule if isinstance(rule, Mapping) else {"key": rule}
            text = self._game_string(_substitute(str(spec["key"]), parts))
            if text is None:
                continue
            args: dict[str, Any] = dict(parts)
            complete = True
            for name, template in spec.items():
                if name == "key":
                    continue
                inner = self._game_string(_substitute(str(template), parts))
                if inner is None:
                    complete = False
                else:
                    args[name] = self._fill(str(inner), parts)
            if complete:
                return self._fill(str(text), args)
        return value

    def _arg_name(self, arg: str, value: Any) -> Any:
        rules = self._rules(arg)
        if not rules:
            return value
        if isinstance(value, bool):
            return self._name_one(rules, "true" if value else "false")
        if isinstance(value, str):
            return self._name_one(rules, value)
        if isinstance(value, list):
            return [self._arg_name(arg, v) for v in value]
        return value

    def _number_name(self, arg: str, value: int, seats: int, you: int | None) -> Any:
        rules = self._rules(arg)
        if not rules:
            return value
        if "@seat" in rules and 0 <= value < seats:
            return self.seat_name(value, you)
        named = self._arg_name(arg, str(value))
        return value if named == str(value) else named

    def _each_owner(self, arg: str) -> str | None:
        for rule in self._rules(arg) or []:
            if isinstance(rule, str) and rule.startswith("@each:"):
                return rule.removeprefix("@each:")
        return None

    def _arg_value(self, arg: str, value: Any, seats: int, you: int | None) -> Any:
        if isinstance(value, int) and not isinstance(value, bool):
            return self._number_name(arg, value, seats, you)
        owner = self._each_owner(arg) if isinstance(value, list) else None
        if owner and isinstance(value, list):
            return [self.t("common.each", {
                "who": self.seat_name(i, you) if owner == "seat" else self._number_name(owner, i, seats, you),
                "value": v}) for i, v in enumerate(value)]
        if isinstance(value, list) and any(isinstance(v, int | list) and not isinstance(v, bool) for v in value):
            return [self._arg_value(arg, v, seats, you) for v in value]
        return self._arg_name(arg, value)

    def args(self, args: Mapping[str, Any], seats: int, you: int | None = None) -> dict[str, Any]:
        """Arguments as the reader reads them: seats as players, ids as names."""
        out: dict[str, Any] = {}
        for key, value in args.items():
            is_seat = (key in ("seat", "winner", "player") or key.endswith("_seat")) and isinstance(value, int) \
                and not isinstance(value, bool)
            out[key] = self.seat_name(value, you) if is_seat else self._arg_value(key, value, seats, you)
        return out

    def move(self, move: Mapping[str, Any], seats: int, you: int | None = None) -> str | None:
        """A move in words from the game's ``*.move.<type>`` string, when the move's own
        fields fill all of it (None otherwise: the game's move_text says it then)."""
        suffix = f"move.{move.get('type')}"
        for lang in self._langs:
            game = _game(self._package, lang)[0]
            key = suffix if suffix in game else next((k for k in game if k.endswith(f".{suffix}")), None)
            if key is not None:
                text = self._fill(str(game[key]), self.args({k: v for k, v in move.items() if k != "type"}, seats, you))
                return None if PLACEHOLDER.search(text) else text
        return None

    def line(self, key: str, args: Mapping[str, Any], seats: int, you: int | None = None) -> str:
        """A prompt or a log line: ``key`` filled with ``args`` read as the reader reads them."""
        return self.t(key, self.args(args, seats, you))
