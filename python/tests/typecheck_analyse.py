"""What mypy is to know of `analyse`: one InfoDict without `multipv` (or with None), a list
with a number, either with `int | None`; on Engine and SimpleEngine alike. Never run, only
checked: `mypy --strict python/awari python/tests/typecheck_analyse.py`. A wrong overload
fails the check (`assert_type` wants the exact type)."""

from typing import assert_type

from awari.engine import Engine, InfoDict, Limit, Position, SimpleEngine


async def asyncio_engine(engine: Engine, maybe: int | None) -> None:
    assert_type(await engine.analyse(Position(), Limit(depth=1)), InfoDict)
    assert_type(await engine.analyse(Position(), Limit(depth=1), multipv=None), InfoDict)
    assert_type(await engine.analyse(Position(), Limit(depth=1), multipv=3), list[InfoDict])
    assert_type(await engine.analyse(Position(), Limit(depth=1), multipv=maybe),
                InfoDict | list[InfoDict])


def simple_engine(engine: SimpleEngine, maybe: int | None) -> None:
    assert_type(engine.analyse(Position(), Limit(depth=1)), InfoDict)
    assert_type(engine.analyse(Position(), Limit(depth=1), multipv=None, timeout=2), InfoDict)
    assert_type(engine.analyse(Position(), Limit(depth=1), multipv=3), list[InfoDict])
    assert_type(engine.analyse(Position(), Limit(depth=1), multipv=maybe),
                InfoDict | list[InfoDict])
    # The fields of one InfoDict, and of each in the list, are typed without a cast.
    assert_type(engine.analyse(Position(), Limit(depth=1))["depth"], int)
    assert_type(engine.analyse(Position(), Limit(depth=1), multipv=2)[0]["pv"], list[str])
