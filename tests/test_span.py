"""relay.Span / relay.SourceName: a call's span is its op's location, kept by passes, read
back from a module, printed by astext and ignored by structural_equal (as TVM)."""

from __future__ import annotations

from xdsl.dialects.builtin import FileLineColLoc

import xrelay
from xrelay import IRModule, relay
from xrelay.relay import analysis, transform
from xrelay.relay.testing import run_opt_pass


def conv_relu(span: relay.Span | None) -> relay.Function:
    x = relay.var("x", shape=(1, 4, 4, 8))
    w = relay.var("w", shape=(3, 3, 8, 8))
    y = relay.nn.conv2d(
        x, w, channels=8, kernel_size=(3, 3), data_layout="NHWC", kernel_layout="HWIO"
    )
    if span is not None:  # TVM's idiom: the fifth argument of relay.Call
        y = relay.Call(y.op, y.args, y.attrs, y.type_args, span)
    y = relay.nn.relu(y)
    return relay.Function(analysis.free_vars(y), y)


def test_span_fields_in_tvm_order() -> None:
    span = relay.Span(relay.SourceName("model.py"), 3, 4, 7, 9)
    assert (span.source_name.name, span.line, span.end_line, span.column, span.end_column) == (
        "model.py",
        3,
        4,
        7,
        9,
    )
    assert str(span) == "model.py:3:7"
    assert xrelay.ir.Span is relay.Span


def test_span_is_the_op_location_and_reads_back() -> None:
    span = relay.Span(relay.SourceName("SpanConv2D"), 3, 3, 7, 7)
    mod = IRModule.from_expr(conv_relu(span))
    (conv,) = [op for op in mod.module.walk() if op.name == "relay.nn.conv2d"]
    assert isinstance(conv.location, FileLineColLoc)
    assert (conv.location.filename.data, conv.location.line.data, conv.location.column.data) == (
        "SpanConv2D",
        3,
        7,
    )
    body = mod["main"].body
    assert isinstance(body, relay.Call)
    assert body.span is None  # relu was built without one
    assert str(body.args[0].span) == "SpanConv2D:3:7"
    text = mod["main"].astext()
    assert "span=SpanConv2D:3:7" in text
    assert text.count("span=") == 1


def test_convert_layout_keeps_the_span_and_equality_ignores_it() -> None:
    span = relay.Span(relay.SourceName("SpanConv2D"), 0, 0, 0, 0)
    converted = {"nn.conv2d": ["NCHW", "default"]}
    with_span = run_opt_pass(conv_relu(span), transform.ConvertLayout(converted))
    without = run_opt_pass(conv_relu(None), transform.ConvertLayout(converted))
    assert "span=SpanConv2D:0:0" in with_span.astext()
    assert "span=" not in without.astext()
    xrelay.ir.assert_structural_equal(with_span, without, map_free_vars=True)


def test_span_keyword() -> None:
    x = relay.var("x", shape=(2,))
    call = relay.Call(relay.op.get("exp"), [x], span=relay.Span(relay.SourceName("k"), 1, 1, 2, 2))
    assert str(call.span) == "k:1:2"
