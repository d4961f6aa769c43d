"""The seeds' TVM pass and instrument examples, run with only their imports changed.

`import tvm` / `from tvm import relay` become `import xrelay as tvm` /
`from xrelay import relay`; the code below each comment is otherwise the
seed's (`shared/seeds/001_*`, TVM's pass-infra document, and TVM's
`use_pass_instrument` tutorial it points to).
"""

from __future__ import annotations

import numpy as np
import pytest

import xrelay as tvm
from xrelay import relay


def test_module_pass_example() -> None:
    # seed 001, "用户可以借助装饰器创建 pass" (the pass that adds an `abs` function).
    @relay.transform.module_pass(opt_level=2)
    def transform(mod, ctx):
        tp = relay.TensorType((10,), "float32")
        x = relay.var("x", tp)
        gv = relay.GlobalVar("abs")
        func = relay.Function([x], relay.abs(x))
        new_mod = tvm.IRModule({gv: func})
        new_mod.update(mod)
        return new_mod

    module_pass = transform
    assert isinstance(module_pass, tvm.transform.ModulePass)
    assert module_pass.info.opt_level == 2

    mod = tvm.IRModule()
    mod = module_pass(mod)
    assert list(mod) == ["abs"]
    data = np.array([-1, 2, -3, 4, -5, 6, -7, 8, -9, 10], "float32")
    np.testing.assert_array_equal(tvm.evaluate(mod, data, entry="abs"), np.abs(data))


def test_function_pass_class_example() -> None:
    # seed 001, the TestReplaceFunc example. The seed indents `transform_function` inside
    # `__init__` (a typo: TVM would fail too); here it is a method, as in TVM's own test.
    @relay.transform.function_pass(opt_level=1)
    class TestReplaceFunc:
        def __init__(self, new_func):
            self.new_func = new_func

        def transform_function(self, func, mod, ctx):
            # Just for demo purposes
            # Transform func to new_func
            return self.new_func

    x = relay.var("x", shape=(10, 20))
    f1 = relay.Function([x], x)
    f2 = relay.Function([x], relay.log(x))
    # fpass is now a special pass that replaces every
    # function to f1
    fpass = TestReplaceFunc(f1)
    # Now every function in input_mod is replaced by f1
    input_mod = tvm.IRModule({"main": f2, "other": f2})
    res_mod = fpass(input_mod)

    expected = tvm.IRModule({"main": f1})["main"].to_func_op("main")
    assert str(res_mod.module.ops.first) == str(expected)
    data = np.ones((10, 20), "float32")
    np.testing.assert_array_equal(tvm.evaluate(res_mod, data, entry="other"), data)


def test_typo_in_the_seed_is_reported_at_decoration() -> None:
    # The seed's class exactly as printed: no transform_function method.
    with pytest.raises(TypeError, match="must define transform_function"):

        @relay.transform.function_pass(opt_level=1)
        class TestReplaceFunc:
            def __init__(self, new_func):
                self.new_func = new_func

                def transform_function(self, func, mod, ctx):
                    return self.new_func


def test_print_ir_instrument_example(capsys: pytest.CaptureFixture[str]) -> None:
    # TVM's use_pass_instrument / use_pass_infra tutorial: an instrument printing the IR
    # before every pass, registered on a PassContext.
    @tvm.instrument.pass_instrument
    class PrintIR:
        """Print the name of the pass, the IR, only before passes execute."""

        def run_before_pass(self, mod, info):
            print("Running pass: {}", info)
            print(mod)

    x = relay.var("x", shape=(1, 2, 3))
    mod = tvm.IRModule.from_expr(relay.Function([x], relay.add(x, x)))
    seq = tvm.transform.Sequential([tvm.transform.PrintIR()])
    with tvm.transform.PassContext(opt_level=3, instruments=[PrintIR()]):
        mod = seq(mod)
    out = capsys.readouterr().out
    assert out.count("Running pass: {} The meta data of the pass - pass name: ") == 2
    assert "pass name: sequential, opt_level: 0, required passes: []" in out
    assert "pass name: PrintIR, opt_level: 0, required passes: []" in out
    assert "relay.add %x, %x" in out


def test_override_instruments_example() -> None:
    # seed 001, "在 Current PassContext 中覆写 Instruments".
    @tvm.instrument.pass_instrument
    class PassNames:
        def __init__(self):
            self.names = []

        def run_before_pass(self, mod, info):
            self.names.append(info.name)

        def get_result(self):
            return self.names

    pass_inst = PassNames()
    x = relay.var("x", shape=(4,))
    mod = tvm.IRModule.from_expr(relay.Function([x], relay.add(x, x)))
    pass_seq = tvm.transform.Sequential([tvm.transform.PrintIR("a"), tvm.transform.PrintIR("b")])

    cur_pass_ctx = tvm.transform.PassContext.current()
    try:
        # override PassInstrument instances
        cur_pass_ctx.override_instruments([pass_inst])
        mod = pass_seq(mod)
        result = pass_inst.get_result()
    finally:
        cur_pass_ctx.override_instruments(None)
    assert result == ["sequential", "PrintIR", "PrintIR"]


def test_sequential_example_with_alter_op_layout() -> None:
    # seed 000, "Python顺序示例" (TVM's test_sequential_with_scoping): FoldConstant folds
    # (c+c)*2, EliminateCommonSubexpr merges z and z1, AlterOpLayout (no hook) changes nothing.
    # `relay.Module` is `tvm.IRModule`, `_transform` is `tvm.transform`, and
    # `relay.build_config(opt_level=3)` is `PassContext(opt_level=3)`; xrelay has no
    # `tvm.target.create("llvm")` (folding always evaluates on the host anyway).
    from testlib.numerics import assert_same_numerics

    # Create a simple Relay program.
    shape = (1, 2, 3)
    c_data = np.array(shape).astype("float32")
    tp = relay.TensorType(shape, "float32")
    c = relay.const(c_data)
    x = relay.var("x", tp)
    y = relay.add(c, c)
    y = relay.multiply(y, relay.const(2, "float32"))
    y = relay.add(x, y)
    z = relay.add(y, c)
    z1 = relay.add(y, c)
    z2 = relay.add(z, z1)
    func = relay.Function([x], z2)

    # Customize the optimization pipeline.
    seq = tvm.transform.Sequential(
        [
            relay.transform.InferType(),
            relay.transform.FoldConstant(),
            relay.transform.EliminateCommonSubexpr(),
            relay.transform.AlterOpLayout(),
        ]
    )

    # Create a module to perform optimizations.
    mod = tvm.IRModule({"main": func})
    original = mod.clone()

    # Users can disable any passes that they don't want to execute by providing
    # a list, e.g. disabled_pass=["EliminateCommonSubexpr"].
    with tvm.transform.PassContext(opt_level=3):
        # Perform the optimizations.
        mod = seq(mod)

    # TVM's expected result: fn(x) { y = x + const([4, 8, 12]); z = y + c; z + z }.
    x = relay.var("x", tp)
    y = relay.add(x, relay.const(np.array([4, 8, 12], "float32")))
    z = relay.add(y, relay.const(c_data))
    expected = tvm.IRModule({"main": relay.Function([x], relay.add(z, z))})

    def canonical(module: tvm.IRModule) -> str:
        """The graph re-emitted in the builder's order (TVM's structural equality)."""
        return str(tvm.IRModule(dict(module.functions.items())))

    assert canonical(mod) == str(expected)
    assert sum(1 for _ in mod.module.walk()) == sum(1 for _ in expected.module.walk())
    assert_same_numerics(original, mod)
    assert_same_numerics(expected, mod)
    data = np.arange(6, dtype="float32").reshape(shape)
    want = 2 * (data + np.array([5, 10, 15], "float32"))
    np.testing.assert_allclose(tvm.evaluate(mod, data), want, rtol=1e-6)


def test_byoc_dnnl_example() -> None:
    # seed 004, "Bring DNNL to TVM": the annotation rules (the old two-argument
    # predicate form), the pattern table, and the four passes of figures 1-4.
    # `from tvm.relay.dataflow_pattern ...` and `from tvm.relay.op.contrib.register ...`
    # become the imports below.
    from xrelay.byoc import register_pattern_table, saved_registry
    from xrelay.relay.dataflow_pattern import is_op, wildcard

    transform = tvm.transform
    with saved_registry():  # the seed re-registers "dnnl": keep the built-in one

        @tvm.ir.register_op_attr("nn.conv2d", "target.dnnl")
        def _dnnl_conv2d_wrapper(attrs, args):
            return True

        def _register_external_op_helper(op_name, supported=True):
            @tvm.ir.register_op_attr(op_name, "target.dnnl")
            def _func_wrapper(attrs, args):
                return supported

            return _func_wrapper

        _register_external_op_helper("nn.batch_norm")
        _register_external_op_helper("nn.conv2d")
        _register_external_op_helper("nn.dense")
        _register_external_op_helper("nn.relu")
        _register_external_op_helper("add")
        _register_external_op_helper("subtract")
        _register_external_op_helper("multiply")

        def make_pattern(with_bias=True):
            data = wildcard()
            weight = wildcard()
            bias = wildcard()
            conv = is_op("nn.conv2d")(data, weight)
            if with_bias:  # noqa: SIM108 (the seed's code as written)
                conv_out = is_op("add")(conv, bias)
            else:
                conv_out = conv
            return is_op("nn.relu")(conv_out)

        @register_pattern_table("dnnl")
        def pattern_table():
            conv2d_bias_relu_pat = ("dnnl.conv2d_bias_relu", make_pattern(with_bias=True))
            conv2d_relu_pat = ("dnnl.conv2d_relu", make_pattern(with_bias=False))
            dnnl_patterns = [conv2d_bias_relu_pat, conv2d_relu_pat]
            return dnnl_patterns

        def create_relay_module_from_model():
            # Figure 1: conv2d+add+relu, conv2d+relu, then a max pool DNNL is not given.
            rng = np.random.default_rng(0)
            x = relay.var("data", shape=(1, 3, 8, 8))
            w1 = relay.const(rng.standard_normal((4, 3, 3, 3)).astype("float32"))
            b1 = relay.const(rng.standard_normal((4, 1, 1)).astype("float32"))
            w2 = relay.const(rng.standard_normal((4, 4, 3, 3)).astype("float32"))
            y = relay.nn.relu(relay.add(relay.nn.conv2d(x, w1, padding=(1, 1)), b1))
            y = relay.nn.relu(relay.nn.conv2d(y, w2, padding=(1, 1)))
            y = relay.nn.max_pool2d(y, pool_size=(2, 2))
            return tvm.IRModule.from_expr(relay.Function([x], y))

        mod = create_relay_module_from_model()  # Output: Figure 1
        original = mod.clone()
        mod = transform.MergeComposite(pattern_table)(mod)
        mod = transform.AnnotateTarget(["dnnl"])(mod)  # Output: Figure 2
        mod = transform.MergeCompilerRegions()(mod)  # Output: Figure 3
        mod = transform.PartitionGraph()(mod)  # Output: Figure 4

    text = str(mod)
    assert 'relay.composite "dnnl.conv2d_bias_relu"' in text
    assert 'PartitionedFromPattern = "nn.conv2d_add_nn.relu_"' in text  # the seed's name
    assert 'relay.composite "dnnl.conv2d_relu"' in text
    assert text.count("func.func @tvmgen_default_dnnl_main_") == 1  # both merged in one
    assert "relay.nn.max_pool2d" in str(mod["main"].op)
    data = np.random.default_rng(1).standard_normal((1, 3, 8, 8)).astype("float32")
    np.testing.assert_allclose(
        tvm.evaluate(mod, data), tvm.evaluate(original, data), rtol=1e-5, atol=1e-5
    )
