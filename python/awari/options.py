"""An option as the engine announces it (`option name ... type ...`), and the values it
allows: `configure` checks every value here before it sends anything."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping, MutableMapping
from typing import Optional, TypeVar, Union

from awari import _native
from awari.errors import OptionError

__all__ = ["CaseInsensitiveDict", "Option"]


@dataclasses.dataclass(frozen=True)
class Option:
    """An option as the engine announced it: `option name N type T [default D] [min m] [max M]
    [var V]...`."""

    name: str
    type: str
    default: Optional[str]
    min: Optional[int]
    max: Optional[int]
    var: tuple[str, ...]

    def check(self, value: Union[str, int, bool, None]) -> Optional[str]:
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
    def parse(line: str) -> Optional[Option]:
        """An `option ...` line read by the crate's reader (`awari._native.read_option`), or
        None when it names no option or type."""
        read = _native.read_option(line)
        kind = None if read is None else read["type"]
        if read is None or not kind:
            return None
        return Option(read["name"], kind, read["default"], read["min"], read["max"],
                      tuple(read["var"]))


V = TypeVar("V")


class CaseInsensitiveDict(MutableMapping[str, V]):
    """A dict whose keys are found whatever their case, as the protocol's option names are
    (python-chess's `engine.options` is one); each key keeps the case it was stored with."""

    def __init__(self, items: Optional[Mapping[str, V]] = None) -> None:
        self._store: dict[str, tuple[str, V]] = {}
        for key, value in (items or {}).items():
            self[key] = value

    def __getitem__(self, key: str) -> V:
        return self._store[key.lower()][1]

    def __setitem__(self, key: str, value: V) -> None:
        self._store[key.lower()] = (key, value)

    def __delitem__(self, key: str) -> None:
        del self._store[key.lower()]

    def __iter__(self) -> Iterator[str]:
        return (key for key, _ in self._store.values())

    def __len__(self) -> int:
        return len(self._store)

    def __repr__(self) -> str:
        return f"CaseInsensitiveDict({dict(self.items())!r})"
