"""Game options: each game declares its variants; tables and the CLI validate against them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import OptionError

OptionValue = bool | int | str


@dataclass(frozen=True)
class Option:
    """One declared option.

    ``kind`` is ``"bool"``, ``"int"`` (with ``minimum``/``maximum``) or ``"choice"``
    (with ``choices``). ``seats`` restricts it to some seat counts (empty: all).
    ``seat_numbers`` (choices only): a choice that is a number names a seat, counted from
    1 as tables show them, and exists only up to the seat count ("random", "1" .. "4"
    for a first player); the others are allowed at every seat count.
    """

    name: str
    kind: str
    default: OptionValue
    description: str = ""
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    seats: tuple[int, ...] = field(default=())
    seat_numbers: bool = False

    def __post_init__(self) -> None:
        if self.kind not in ("bool", "int", "choice"):
            raise ValueError(f"option {self.name!r}: unknown kind {self.kind!r}")
        if self.seat_numbers and self.kind != "choice":
            raise ValueError(f"option {self.name!r}: only a choice may name seats")
        self.check(self.default)

    def allowed_at(self, value: OptionValue, seats: int) -> bool:
        """Whether a value this option accepts exists at ``seats`` (a seat it names is there)."""
        if self.seat_numbers and isinstance(value, str) and value.isdigit():
            return 1 <= int(value) <= seats
        return True

    def check(self, value: object) -> OptionValue:
        """Return ``value`` if this option accepts it, else raise OptionError naming it."""
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise OptionError("option_type", f"option {self.name!r} must be true or false, not {value!r}")
            return value
        if self.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise OptionError("option_type", f"option {self.name!r} must be an integer, not {value!r}")
            too_low = self.minimum is not None and value < self.minimum
            if too_low or (self.maximum is not None and value > self.maximum):
                raise OptionError(
                    "option_range",
                    f"option {self.name!r} must be between {self.minimum} and {self.maximum}, not {value}",
                )
            return value
        if not isinstance(value, str) or value not in self.choices:
            raise OptionError(
                "option_value", f"option {self.name!r} must be one of {', '.join(self.choices)}, not {value!r}"
            )
        return value

    def parse(self, text: str) -> OptionValue:
        """Read a value typed on a command line (``KEY=VALUE``)."""
        if self.kind == "bool":
            lowered = text.strip().lower()
            if lowered in ("1", "true", "yes", "on"):
                return True
            if lowered in ("0", "false", "no", "off"):
                return False
            raise OptionError("option_type", f"option {self.name!r} must be true or false, not {text!r}")
        if self.kind == "int":
            try:
                return self.check(int(text))
            except ValueError:
                raise OptionError("option_type", f"option {self.name!r} must be an integer, not {text!r}") from None
        return self.check(text)

    def values(self) -> list[OptionValue]:
        """Every value worth testing: all choices, both booleans, the ends of a range."""
        if self.kind == "bool":
            return [False, True]
        if self.kind == "choice":
            return list(self.choices)
        assert self.minimum is not None and self.maximum is not None
        return sorted({self.minimum, self.default, self.maximum})  # type: ignore[type-var]

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"name": self.name, "type": self.kind, "default": self.default,
                                "description": self.description}
        if self.choices:
            data["choices"] = list(self.choices)
        if self.kind == "int":
            data["minimum"], data["maximum"] = self.minimum, self.maximum
        if self.seat_numbers:
            data["seat_numbers"] = True
        if self.seats:
            data["seats"] = list(self.seats)
        return data


def validate_options(
    declared: Sequence[Option], seats: int, given: Mapping[str, object] | None
) -> dict[str, OptionValue]:
    """The full option dict: ``given`` checked against ``declared``, defaults filled in."""
    given = dict(given or {})
    by_name = {option.name: option for option in declared}
    unknown = sorted(set(given) - set(by_name))
    if unknown:
        known = ", ".join(sorted(by_name)) or "none"
        raise OptionError("option_unknown", f"unknown option {unknown[0]!r} (this game's options: {known})")
    result: dict[str, OptionValue] = {}
    for option in declared:
        if option.name in given:
            value = option.check(given[option.name])
            if option.seats and seats not in option.seats and value != option.default:
                raise OptionError(
                    "option_seats", f"option {option.name!r} is only for {', '.join(map(str, option.seats))} seats"
                )
            if not option.allowed_at(value, seats):
                raise OptionError(
                    "option_seats", f"option {option.name!r}: there is no seat {value} at a table of {seats}"
                )
            result[option.name] = value
        else:
            result[option.name] = option.default
    return result


def option_sets(declared: Sequence[Option], seats: int) -> list[dict[str, OptionValue]]:
    """The option sets a conformance run covers: the defaults, then each option's every
    other value on its own, then every boolean switched on together."""
    base = {option.name: option.default for option in declared}
    sets = [dict(base)]
    for option in declared:
        if option.seats and seats not in option.seats:
            continue
        for value in option.values():
            if value != option.default and option.allowed_at(value, seats):
                sets.append({**base, option.name: value})
    everything = dict(base)
    for option in declared:
        if option.kind == "bool" and (not option.seats or seats in option.seats):
            everything[option.name] = True
    if everything not in sets:
        sets.append(everything)
    return sets
