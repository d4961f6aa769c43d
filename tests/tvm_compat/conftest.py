"""Marks TVM's ported tests from `status.txt`: `na` ones skip, `xfail` ones are strict xfails,
`slow` ones (applicable and passing, but too slow for CI's budget) skip unless run raw.

`status.txt` has one line per test that does not pass: `file::test  na|xfail  reason`
(fields separated by two spaces or more).
A test without a line must pass; an `xfail` test that starts passing fails until its line
is removed. With `XRELAY_TVM_COMPAT_RAW=1` the xfail and slow lines are ignored (the `na`
skips stay), so `scripts/tvm_compat_report.py` runs them and sees what really passes.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

STATUS = Path(__file__).with_name("status.txt")
LINE = re.compile(r"(?P<key>\S.*?) {2,}(?P<kind>na|xfail|slow) {2,}(?P<reason>\S.*)")
"""A status line; two spaces or more separate its fields (test ids may hold one)."""


@dataclass(frozen=True)
class Status:
    """One line of status.txt."""

    kind: str  # "na", "xfail" or "slow"
    reason: str


def read_status(path: Path = STATUS) -> dict[str, Status]:
    """`file::test` -> its status line."""
    out: dict[str, Status] = {}
    if not path.exists():
        return out
    for number, line in enumerate(path.read_text().splitlines(), 1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        match = LINE.match(text)
        if match is None:
            raise ValueError(f"{path}:{number}: expected 'file::test  na|xfail|slow  reason'")
        out[match["key"]] = Status(match["kind"], match["reason"])
    return out


def item_key(item: pytest.Item) -> str:
    """`file::test[params]`, the key status.txt uses."""
    return f"{Path(str(item.fspath)).name}::{item.name}"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    status = read_status()
    raw = os.environ.get("XRELAY_TVM_COMPAT_RAW") == "1"
    here = Path(__file__).parent
    for item in items:
        if Path(str(item.fspath)).parent != here:
            continue
        line = status.get(item_key(item))
        if line is None:
            continue
        if line.kind == "na":
            item.add_marker(pytest.mark.skip(reason=f"not applicable: {line.reason}"))
        elif line.kind == "slow" and not raw:
            reason = f"slow, run by scripts/tvm_compat_report.py: {line.reason}"
            item.add_marker(pytest.mark.skip(reason=reason))
        elif line.kind == "xfail" and not raw:
            item.add_marker(pytest.mark.xfail(strict=True, reason=line.reason))
