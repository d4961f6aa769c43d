"""`xrelay.ext`, the public extension API: complete, documented, and enough for a target.

The example package `examples/myacc` is an out-of-tree target written against it alone
(tests/test_example_plugin.py checks its imports).
"""

from __future__ import annotations

import inspect
from pathlib import Path

import numpy as np
from xrelay.dialects.relay import RELAY

import xrelay
import xrelay.ext
from xrelay import relay
from xrelay.ext import ops
from xrelay.ext.ops_gen import render


def test_every_public_name_resolves_and_is_documented() -> None:
    doc = xrelay.ext.__doc__ or ""
    assert "Stability promise" in doc
    for name in xrelay.ext.__all__:
        value = getattr(xrelay.ext, name)
        assert f"`{name}" in doc, f"{name} is not described in xrelay.ext's docstring"
        if inspect.isclass(value) or inspect.isfunction(value) or inspect.ismodule(value):
            assert (value.__doc__ or "").strip(), f"{name} has no docstring"
    assert len(set(xrelay.ext.__all__)) == len(xrelay.ext.__all__)  # ruff RUF022 sorts it


def test_ops_holds_every_relay_op_by_class_name() -> None:
    by_name = {op.__name__: op for op in RELAY.operations}
    assert set(ops.__all__) == set(by_name)
    for name, op in by_name.items():
        assert getattr(ops, name) is op
    assert ops.CompositeOp.name == "relay.composite"
    assert ops.MultiplyOp.name == "relay.multiply"


def test_ops_file_is_what_the_generator_writes() -> None:
    assert Path(ops.__file__).read_text() == render()


def test_a_target_written_against_the_api_builds_and_runs(tmp_path: Path) -> None:
    """The example package (examples/myacc, installed by scripts/setup) as a user of the API."""
    import xrelay_myacc

    x = relay.var("x", shape=(2, 3))
    w = relay.var("w", shape=(4, 3))
    body = relay.nn.relu(relay.nn.dense(relay.add(x, relay.const(-0.5)), w))
    mod = xrelay.IRModule.from_expr(relay.Function([x, w], body))
    lib = xrelay.build(mod, ["myacc", "c"], options={"cache_dir": tmp_path})
    names = {op.name for op in lib.module.module.walk()}
    assert xrelay_myacc.MatmulReluOp.name in names
    assert "relay.nn.relu" not in names
    data = np.arange(6, dtype="float32").reshape(2, 3) / 3 - 1
    weight = np.arange(12, dtype="float32").reshape(4, 3) / 6 - 1
    expected = np.maximum((data - 0.5) @ weight.T, 0)
    np.testing.assert_allclose(lib(data, weight), xrelay.evaluate(mod, data, weight), rtol=1e-6)
    np.testing.assert_allclose(xrelay.evaluate(lib.module, data, weight), expected, rtol=1e-6)
    assert (expected > 0).any()
    assert (expected == 0).any()
