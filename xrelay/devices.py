"""`xrelay.cpu()` and `xrelay.device("cpu")`: TVM's device handles.

xrelay runs on the host CPU only, so a device is a label its executors check.
"""

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


def device(dev_type: str, dev_id: int = 0) -> Device:
    """TVM's `tvm.device(dev_type, dev_id=0)`, e.g. `device("cpu")`."""
    return Device(dev_type, dev_id)
