"""scripts/port_tvm_tests.py, scripts/tvm_compat_report.py and the suite's status file."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent


def load(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


port = load(ROOT / "scripts" / "port_tvm_tests.py", "port_tvm_tests")
report = load(ROOT / "scripts" / "tvm_compat_report.py", "tvm_compat_report")
conftest = load(ROOT / "tests" / "tvm_compat" / "conftest.py", "tvm_compat_conftest")

SOURCE = """\
# under the License.
import numpy as np
import tvm
import tvm.testing
from tvm import relay, te
from tvm.relay.testing import run_opt_pass, create_workload
from tvm.relay.dataflow_pattern import *

flag = tvm.testing.parameter(False, True)
scope = tvm.target.Target("llvm")


class Cb(NoSuchCallback):
    pass


@tvm.testing.uses_gpu
def test_a():
    x = relay.var("x", shape=(2,))
    out = relay.create_executor().evaluate(relay.Function([x], x))(tvm.nd.array(np.ones(2)))
    tvm.testing.assert_allclose(out.numpy(), np.ones(2))
    tvm.ir.assert_structural_equal(x, x)
    relay.build(tvm.IRModule.from_expr(x), "llvm")
    for target, dev in tvm.testing.enabled_targets():
        pass


if __name__ == "__main__":
    tvm.testing.main()
"""


def test_port_rewrites_only_the_mechanical_parts() -> None:
    out = port.port_file(SOURCE, "test_x.py", "refs/tags/v0.19.0")
    lines = out.splitlines()
    assert lines[1].startswith("# Ported mechanically from TVM v0.19.0 (tests/python/relay/")
    assert "import xrelay" in lines
    assert "from xrelay import relay" in lines
    assert "# not ported (no xrelay counterpart): from tvm import te" in lines
    assert "from xrelay.relay.testing import run_opt_pass" in lines
    assert (
        "# not ported (no xrelay counterpart): from tvm.relay.testing import create_workload"
        in (lines)
    )
    assert "# not ported (no xrelay counterpart): import tvm.testing" in lines
    assert "@pytest.fixture(params=[False, True])" in lines
    assert '# not ported (no xrelay counterpart): scope = tvm.target.Target("llvm")' in lines
    assert "# not ported (no xrelay counterpart): class Cb(NoSuchCallback):" in lines
    assert "@tvm.testing.uses_gpu" not in out
    assert "np.testing.assert_allclose(out, np.ones(2))" in out
    assert "evaluate(relay.Function([x], x))(np.array(np.ones(2)))" in out
    assert "xrelay.ir.assert_structural_equal(x, x)" in out
    assert 'relay.build(xrelay.IRModule.from_expr(x), "c")' in out
    assert 'for target, dev in [("c", xrelay.cpu(0))]:' in out
    assert "pytest.main([__file__])" in out
    assert "import pytest" in lines
    compile(out, "test_x.py", "exec")
    assert port.port_file(SOURCE, "test_x.py", "refs/tags/v0.19.0") == out  # deterministic


def test_status_file_parses_and_rejects_bad_lines(tmp_path: Path) -> None:
    good = tmp_path / "status.txt"
    good.write_text("# comment\n\nf.py::t  na  Relay text parser\nf.py::u[1]  xfail  op: topk\n")
    status = conftest.read_status(good)
    assert status["f.py::t"] == conftest.Status("na", "Relay text parser")
    assert status["f.py::u[1]"].kind == "xfail"
    bad = tmp_path / "bad.txt"
    bad.write_text("f.py::t  maybe  why\n")
    with pytest.raises(ValueError, match=r"bad\.txt:1: expected"):
        conftest.read_status(bad)


def test_every_status_line_names_a_ported_test() -> None:
    status = conftest.read_status()
    files = {p.name for p in (ROOT / "tests" / "tvm_compat").glob("test_*.py")}
    for key, line in status.items():
        assert key.split("::")[0] in files, key
        assert line.reason


def test_report_table_and_classification() -> None:
    results = [
        report.Result("a.py::t1", "passed", ""),
        report.Result(
            "a.py::t2",
            "failed",
            "RelayTypeError: 'relay.nn.conv2d' expected 4-D weight, got rank 0",
        ),
        report.Result("a.py::t3", "skipped", "not applicable: QNN"),
        report.Result("b.py::t1", "passed", ""),
    ]
    table = report.table(results)
    assert "| a.py | 1 | 2 | 1 | 50% |" in table
    assert "| b.py | 0 | 1 | 1 | 100% |" in table
    assert "| all | 1 | 3 | 2 | 67% |" in table
    kind, reason = report.classify(results[1], {})
    assert (kind, reason.split(" ")[0:2]) == ("xfail", ["untyped", "var"])
    na = report.classify(report.Result("a.py::t4", "failed", "x"), {"a.py::t4": "relay.qnn.op"})
    assert na == ("na", "QNN")
