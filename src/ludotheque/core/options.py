"""Table options: what a host may switch when creating a game (DECISIONS "option" entries)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ludotheque.core.errors import OptionError

OptionValue = str | int | bool


@dataclass(frozen=True)
class OptionSpec:
    """One option: its name, its allowed values, its default.

    ``choices`` lists the allowed values for an enumerated option.  An integer option leaves ``choices``
    empty and bounds its value with ``minimum``/``maximum`` (``None`` = unbounded).
    """

    name: str
    default: OptionValue
    doc: str
    choices: tuple[OptionValue, ...] = ()
    minimum: int | None = None
    maximum: int | None = None

    @property
    def kind(self) -> str:
        return type(self.default).__name__

    def allowed(self) -> str:
        if isinstance(self.default, bool):
            return "true or false"
        if self.choices:
            return ", ".join(str(c) for c in self.choices)
        low = "-inf" if self.minimum is None else str(self.minimum)
        high = "inf" if self.maximum is None else str(self.maximum)
        return f"an integer in [{low}, {high}]"

    def coerce(self, value: Any) -> OptionValue:
        """Return ``value`` as this option's type, or raise ``OptionError`` naming what is allowed.

        Strings are accepted for every kind so that the CLI (``--option k=v``) and JSON records share one path.
        """
        result: OptionValue
        if isinstance(self.default, bool):
            if isinstance(value, bool):
                result = value
            elif isinstance(value, str) and value.lower() in ("true", "yes", "1", "on"):
                result = True
            elif isinstance(value, str) and value.lower() in ("false", "no", "0", "off"):
                result = False
            else:
                raise OptionError(f"option {self.name!r} takes true or false, not {value!r}")
        elif isinstance(self.default, int):
            if isinstance(value, bool):
                raise OptionError(f"option {self.name!r} takes {self.allowed()}, not {value!r}")
            try:
                result = int(value)
            except (TypeError, ValueError):
                raise OptionError(f"option {self.name!r} takes {self.allowed()}, not {value!r}") from None
            if isinstance(value, float) and value != result:
                raise OptionError(f"option {self.name!r} takes {self.allowed()}, not {value!r}")
            if (self.minimum is not None and result < self.minimum) or (
                self.maximum is not None and result > self.maximum
            ):
                raise OptionError(f"option {self.name!r} takes {self.allowed()}, not {value!r}")
        else:
            if not isinstance(value, str):
                raise OptionError(f"option {self.name!r} takes one of {self.allowed()}, not {value!r}")
            result = value
        if self.choices and result not in self.choices:
            raise OptionError(f"option {self.name!r} takes one of {self.allowed()}, not {value!r}")
        return result

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"name": self.name, "type": self.kind, "default": self.default, "doc": self.doc}
        if self.choices:
            data["choices"] = list(self.choices)
        if self.minimum is not None:
            data["minimum"] = self.minimum
        if self.maximum is not None:
            data["maximum"] = self.maximum
        return data


def resolve_options(
    game_id: str, specs: Sequence[OptionSpec], given: Mapping[str, Any]
) -> dict[str, OptionValue]:
    """Defaults overlaid with ``given``; unknown names and bad values raise ``OptionError``."""
    by_name = {spec.name: spec for spec in specs}
    unknown = sorted(set(given) - set(by_name))
    if unknown:
        allowed = ", ".join(sorted(by_name)) or "none"
        raise OptionError(f"{game_id} has no option {unknown[0]!r} (options: {allowed})")
    return {spec.name: spec.coerce(given[spec.name]) if spec.name in given else spec.default for spec in specs}
