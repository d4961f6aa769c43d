"""The C of myacc partitions, and the `myacc` code generator `xrelay.build` uses.

Each lowered function is printed by a `FunctionEmitter` given myacc's kernels
table (op name -> printer); a printer writes plain loops reading `k.ins` and
writing `k.outs`, accumulating in double. An op with no entry (a partition
whose lowering did not run) is a located "cannot be emitted" error.
"""

from __future__ import annotations

from xdsl.dialects import func

from xrelay.ext import (
    CEmitter,
    CodegenTarget,
    FunctionEmitter,
    Kernel,
    KernelFn,
    numel,
    register_codegen,
)


def gelu_kernel(k: Kernel) -> None:
    """`out[i] = x * 0.5 * (1 + erf(x / sqrt(2)))`."""
    x, out = k.ins[0], k.outs[0]
    with k.w.loop("i", numel(k.out_shape())):
        k.w.line(f"double v = (double){x}[i];")
        k.w.line(f"{out}[i] = (float)(0.5 * v * (1.0 + erf(v * 0.70710678118654752440)));")


def matmul_relu_kernel(k: Kernel) -> None:
    """`out[m, n] = max(sum_k x[m, k] * w[n, k], 0)`."""
    (rows, depth), (units, _) = k.in_shape(0), k.in_shape(1)
    x, w, out = k.ins[0], k.ins[1], k.outs[0]
    with k.w.loop("m", rows), k.w.loop("n", units):
        k.w.line("double acc = 0.0;")
        with k.w.loop("c", depth):
            k.w.line(f"acc += (double){x}[m * {depth} + c] * (double){w}[n * {depth} + c];")
        k.w.line(f"{out}[m * {units} + n] = acc > 0.0 ? (float)acc : 0.0f;")


KERNELS: dict[str, KernelFn] = {
    "myacc.gelu": gelu_kernel,
    "myacc.matmul_relu": matmul_relu_kernel,
}
"""Op name -> its C printer."""


def function_emitter(owner: CEmitter, function: func.FuncOp, symbol: str) -> FunctionEmitter:
    """The printer of one lowered myacc function."""
    return FunctionEmitter(owner, function, symbol, target="myacc", kernels=KERNELS, rules={})


MYACC_CODEGEN = register_codegen(
    CodegenTarget(
        name="myacc",
        lowering=("convert-relay-to-myacc",),
        function_emitter=function_emitter,
        dialect="myacc",
        accepts=("relay.constant", "func.return"),
    )
)
