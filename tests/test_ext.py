"""`xrelay.ext`, the public extension API: complete, documented, and enough for a target.

`tests/testlib/myacc.py` is an out-of-tree target written against it alone.
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import numpy as np
from xrelay.dialects.relay import RELAY

import xrelay
import xrelay.ext
from xrelay import relay
from xrelay.ext import ops
from xrelay.ext.ops_gen import render

PUBLIC_ROOTS = ("xrelay", "xdsl", "numpy")
ALLOWED = {"xrelay", "xrelay.ext", "xrelay.transform", "xrelay.byoc", "xrelay.ir", "xrelay.relay"}


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


def test_the_tiny_target_imports_only_public_modules() -> None:
    tree = ast.parse((Path(__file__).parent / "testlib" / "myacc.py").read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module is not None:
            module = node.module
            if module.startswith("xrelay"):
                assert module in ALLOWED, module
                if module == "xrelay":
                    assert all(f"xrelay.{a.name}" in ALLOWED for a in node.names)
            elif module != "__future__" and not module.startswith(PUBLIC_ROOTS):
                assert module in ("collections.abc", "typing"), module


def test_a_target_written_against_the_api_builds_and_runs(tmp_path: Path) -> None:
    from tests.testlib import myacc

    x = relay.var("x", shape=(2, 3))
    body = relay.nn.relu(relay.add(x, relay.const(-0.5)))
    mod = xrelay.IRModule.from_expr(relay.Function([x], body))
    lib = xrelay.build(mod, ["myacc", "c"], options={"cache_dir": tmp_path})
    names = {op.name for op in lib.module.module.walk()}
    assert myacc.MyaccReluOp.name in names
    assert "relay.nn.relu" not in names
    data = np.arange(6, dtype="float32").reshape(2, 3) / 3 - 1
    np.testing.assert_allclose(lib(data), xrelay.evaluate(mod, data), rtol=1e-6)
    np.testing.assert_allclose(xrelay.evaluate(lib.module, data), np.maximum(data - 0.5, 0))


REGISTRATIONS = [
    f"codegen/{target}/{module}.py"
    for target in ("accel", "dnnl")
    for module in ("__init__", "patterns", "op_support")
]
"""Where accel and dnnl register their code generator, pattern table and op predicates."""


def test_our_targets_register_through_the_public_api() -> None:
    # Dogfood (issue 17): what an out-of-tree target can do is all our own targets use.
    root = Path(__file__).parent.parent
    for path in REGISTRATIONS:
        package = "xrelay." + str(Path(path).parent).replace("/", ".")
        for node in ast.walk(ast.parse((root / path).read_text())):
            if (
                isinstance(node, ast.ImportFrom)
                and node.module
                and node.module.startswith("xrelay")
            ):
                internal = node.module not in ALLOWED | {"xrelay.ext.ops"}
                own = node.module.startswith(package)
                assert own or not internal, f"{path} imports {node.module}"
