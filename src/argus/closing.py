"""``Closing``: the one ``with`` protocol for Argus's long-lived resources.

The run store, the sensor, the loop's services and the feature lock each hold something
that must be given back (a connection, a browser, a file lock). Each says how in ``close()``;
``with resource:`` then closes it on the way out, whatever happened inside.
"""

from __future__ import annotations

from types import TracebackType
from typing import Self


class Closing:
    """``__exit__`` calls ``close()``. ``__enter__`` returns the resource; a subclass that
    acquires on entry (a lock, a thread) overrides it and returns ``self``."""

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
