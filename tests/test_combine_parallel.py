"""CombineParallelConv2D / BatchMatmul / Dense: the combined graph computes what the branches did.

Each case checks the numbers before and after on seeded random inputs (the reference
interpreter) and counts what the pass emitted.
"""

from __future__ import annotations

from testlib.numerics import run_and_check

from xrelay import IRModule, relay, transform


def count(mod: IRModule, name: str) -> int:
    return sum(1 for op in mod.module.walk() if op.name == name)


def test_conv2d_branches_with_scale_and_relu() -> None:
    """Three 1x1 convs (4, 8 and 4 channels) with scale + relu combine; the 3x3 conv stays."""
    x = relay.var("x", shape=(1, 4, 6, 6))
    ws = [relay.var(f"w{i}", shape=(c, 4, 1, 1)) for i, c in enumerate((4, 8, 4))]
    ss = [relay.var(f"s{i}", shape=(c, 1, 1)) for i, c in enumerate((4, 8, 4))]
    w3 = relay.var("w3", shape=(4, 4, 3, 3))
    outs = [
        relay.nn.relu(relay.multiply(relay.nn.conv2d(x, w), s)) for w, s in zip(ws, ss, strict=True)
    ]
    outs.append(relay.nn.conv2d(x, w3))
    mod = IRModule.from_expr(relay.Function([x, *ws, *ss, w3], relay.Tuple(outs)))
    out = run_and_check(mod, transform.CombineParallelConv2D(), opt_level=4)
    assert count(out, "relay.nn.conv2d") == 2
    assert count(out, "relay.multiply") == 1
    assert count(out, "relay.nn.relu") == 1
    assert count(out, "relay.strided_slice") == 3


def test_conv2d_below_min_branches_unchanged() -> None:
    x = relay.var("x", shape=(1, 4, 6, 6))
    w1 = relay.var("w1", shape=(4, 4, 1, 1))
    w2 = relay.var("w2", shape=(4, 4, 1, 1))
    body = relay.Tuple([relay.nn.conv2d(x, w1), relay.nn.conv2d(x, w2)])
    mod = IRModule.from_expr(relay.Function([x, w1, w2], body))
    before = str(mod)
    out = run_and_check(mod, transform.CombineParallelConv2D(), opt_level=4)
    assert str(out) == before


def test_batch_matmul_branches_with_bias() -> None:
    x = relay.var("x", shape=(2, 3, 4))
    ws = [relay.var(f"w{i}", shape=(2, n, 4)) for i, n in enumerate((5, 6, 7))]
    bs = [relay.var(f"b{i}", shape=(n,)) for i, n in enumerate((5, 6, 7))]
    outs = [relay.add(relay.nn.batch_matmul(x, w), b) for w, b in zip(ws, bs, strict=True)]
    mod = IRModule.from_expr(relay.Function([x, *ws, *bs], relay.Tuple(outs)))
    out = run_and_check(mod, transform.CombineParallelBatchMatmul(), opt_level=4)
    assert count(out, "relay.nn.batch_matmul") == 1
    assert count(out, "relay.add") == 1
    assert count(out, "relay.concatenate") == 2


def dense_branches(widths: tuple[int, ...]) -> IRModule:
    """Denses of x (widths given) with a per-column bias and a scalar scale each."""
    x = relay.var("x", shape=(3, 4))
    ws = [relay.var(f"w{i}", shape=(n, 4)) for i, n in enumerate(widths)]
    bs = [relay.var(f"b{i}", shape=(n,)) for i, n in enumerate(widths)]
    ss = [relay.var(f"s{i}", shape=()) for i in range(len(widths))]
    outs = [
        relay.multiply(relay.add(relay.nn.dense(x, w), b), s)
        for w, b, s in zip(ws, bs, ss, strict=True)
    ]
    return IRModule.from_expr(relay.Function([x, *ws, *bs, *ss], relay.Tuple(outs)))


def test_dense_to_batch() -> None:
    """The biases stack; the scalar scales would not broadcast per branch once stacked, so
    the combined levels stop before them (TVM emits ill-typed IR there)."""
    out = run_and_check(dense_branches((5, 5, 5)), transform.CombineParallelDense(), opt_level=4)
    assert count(out, "relay.nn.dense") == 0
    assert count(out, "relay.nn.batch_matmul") == 1
    assert count(out, "relay.add") == 1
    assert count(out, "relay.multiply") == 3
    assert count(out, "relay.squeeze") == 3


def test_dense_flat_with_widths() -> None:
    combine = transform.CombineParallelDense(min_num_branches=2, to_batch=False)
    out = run_and_check(dense_branches((2, 5, 3)), combine, opt_level=4)
    assert count(out, "relay.nn.dense") == 1
    assert count(out, "relay.repeat") == 3
    assert count(out, "relay.strided_slice") == 3


def test_dense_to_batch_needs_one_weight_shape() -> None:
    mod = dense_branches((2, 5, 3))
    before = str(mod)
    assert str(run_and_check(mod, transform.CombineParallelDense(), opt_level=4)) == before
