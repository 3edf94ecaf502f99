"""An option as the engine announces it (`option name ... type ...`), and the values it
allows: `configure` checks every value here before it sends anything."""

from __future__ import annotations

import dataclasses

from awari.errors import OptionError

__all__ = ["Option"]


@dataclasses.dataclass(frozen=True)
class Option:
    """An option as the engine announced it: `option name N type T [default D] [min m] [max M]
    [var V]...`."""

    name: str
    type: str
    default: str | None
    min: int | None
    max: int | None
    var: tuple[str, ...]

    def check(self, value: str | int | bool | None) -> str | None:
        """The value as it goes on the `setoption` line (None: no `value` word), or
        `OptionError` naming the option and what it allows."""
        if self.type == "button":
            if value not in (None, True):
                raise OptionError(f"option {self.name!r} is a button: it takes no value")
            return None
        if value is None:
            raise OptionError(f"option {self.name!r} needs a value")
        if self.type == "check":
            if isinstance(value, bool):
                return "true" if value else "false"
            if str(value) in ("true", "false"):
                return str(value)
            raise OptionError(f"option {self.name!r} is a check: true or false, not {value!r}")
        if self.type == "spin":
            if isinstance(value, bool):
                raise OptionError(f"option {self.name!r} is a spin: an integer, not {value!r}")
            try:
                number = int(value)
            except ValueError:
                raise OptionError(
                    f"option {self.name!r} is a spin: an integer, not {value!r}"
                ) from None
            low = self.min if self.min is not None else number
            high = self.max if self.max is not None else number
            if not low <= number <= high:
                raise OptionError(
                    f"option {self.name!r} takes {self.min} to {self.max}, not {number}"
                )
            return str(number)
        if self.type == "combo":
            if str(value) not in self.var:
                raise OptionError(
                    f"option {self.name!r} takes one of {', '.join(self.var)}, not {value!r}"
                )
            return str(value)
        text = str(value)
        if "\n" in text or "\r" in text:
            raise OptionError(f"option {self.name!r}: a value cannot hold a line break")
        return text

    @staticmethod
    def parse(line: str) -> Option | None:
        """An `option ...` line read, or None when it names no option or type."""
        words = line.split()
        if words[:2] != ["option", "name"]:
            return None
        keys = {"name", "type", "default", "min", "max", "var"}
        fields: dict[str, list[str]] = {}
        values: list[tuple[str, list[str]]] = []
        key = ""
        for word in words[1:]:
            if word in keys and not (key == "name" and word not in ("type",)):
                key = word
                values.append((key, []))
            elif values:
                values[-1][1].append(word)
        var: list[str] = []
        for key, value in values:
            if key == "var":
                var.append(" ".join(value))
            else:
                fields[key] = value
        name = " ".join(fields.get("name", []))
        kind = " ".join(fields.get("type", []))
        if not name or not kind:
            return None

        def number(key: str) -> int | None:
            try:
                return int(" ".join(fields[key]))
            except (KeyError, ValueError):
                return None

        default = " ".join(fields["default"]) if "default" in fields else None
        return Option(name, kind, default, number("min"), number("max"), tuple(var))
