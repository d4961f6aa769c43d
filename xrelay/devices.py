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


CPU_NAMES = frozenset({"cpu", "llvm", "c", "stackvm", "test", "hybrid", "composite"})
"""The names TVM's `tvm.device` maps to the CPU (its `Device.STR2MASK`): targets that run
on the host, as `device("llvm")` in TVM's tests (`device("c")` once ported)."""


def device(dev_type: str, dev_id: int = 0) -> Device:
    """TVM's `tvm.device(dev_type, dev_id=0)`, e.g. `device("cpu")`; a host target's name
    (`"llvm"`, `"c"`, ...) is the CPU, as in TVM."""
    return Device("cpu" if dev_type in CPU_NAMES else dev_type, dev_id)
