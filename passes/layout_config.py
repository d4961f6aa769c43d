"""TVM's `relay.transform.LayoutConfig`: skip given conv2d layers in ConvertLayout.

    with relay.transform.LayoutConfig(skip_layers=[0]):
        mod = relay.transform.ConvertLayout({"nn.conv2d": ["HWNC", "default"]})(mod)

ConvertLayout counts the `nn.conv2d`s it is asked to convert, in program order
from 0 across the run, and leaves the ones whose number is in `skip_layers` in
their layouts (their input goes back to the original layout, as before any
boundary). The innermost `with` is the one in force; the count starts at 0 for
each config object.
"""

from __future__ import annotations

from collections.abc import Iterable
from types import TracebackType
from typing import ClassVar


class LayoutConfig:
    """Which conv2d layers ConvertLayout skips, while the config is entered."""

    current: ClassVar[LayoutConfig | None] = None
    """The config in force (None outside any `with`)."""

    def __init__(self, skip_layers: Iterable[int] | None = None) -> None:
        self.skip_layers = list(skip_layers or [])
        self.skip_counter = 0
        self._outer: LayoutConfig | None = None

    def check_skip(self) -> bool:
        """Whether the next conv2d layer is skipped (and count it)."""
        skip = self.skip_counter in self.skip_layers
        self.skip_counter += 1
        return skip

    def reset(self) -> None:
        """Count from layer 0 again."""
        self.skip_counter = 0

    def __enter__(self) -> LayoutConfig:
        self._outer, LayoutConfig.current = LayoutConfig.current, self
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        LayoutConfig.current = self._outer


def skip_conv2d_layer() -> bool:
    """Whether the config in force skips the next conv2d layer (False without one)."""
    config = LayoutConfig.current
    return config is not None and config.check_skip()
