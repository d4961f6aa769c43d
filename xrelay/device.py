"""`xrelay.cpu()`: TVM's device handle. xrelay runs on the host CPU only, so it is a label."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Device:
    """A device as TVM names it (`cpu`, 0); xrelay's executors accept only the CPU."""

    device_type: str
    device_id: int = 0


def cpu(dev_id: int = 0) -> Device:
    """TVM's `tvm.cpu(dev_id=0)`."""
    return Device("cpu", dev_id)
