"""`xrelay_myacc`: an example accelerator added to xrelay from outside its tree.

Importing the package registers everything it defines; xrelay imports it by its
`xrelay.plugins` entry point, on first need. Each pass lives in the file named
after its flag, as in xrelay:

- `dialect`: the `myacc` dialect, `myacc.gelu` and `myacc.matmul_relu`;
- `reference`: what those ops compute (numpy), for the interpreter;
- `myacc_fuse_matmul_relu`: the pass `myacc-fuse-matmul-relu` (relay -> myacc);
- `patterns`: the BYOC pattern table of target `myacc` (`partition_for(mod, "myacc")`);
- `convert_relay_to_myacc`: the pass lowering `myacc` partitions, and its patterns;
- `codegen`: the C printer of lowered partitions and the `myacc` code generator.

It is written only against xrelay's public API (`xrelay.ext`, `xrelay.transform`,
`xrelay.byoc`, `xrelay.ir`, `xrelay.relay`) and xDSL: see docs/extending.md.
"""

from __future__ import annotations

from xrelay_myacc import (
    codegen,
    convert_relay_to_myacc,
    dialect,
    myacc_fuse_matmul_relu,
    patterns,
    reference,
)
from xrelay_myacc.dialect import MYACC, GeluOp, MatmulReluOp

__all__ = [
    "MYACC",
    "GeluOp",
    "MatmulReluOp",
    "codegen",
    "convert_relay_to_myacc",
    "dialect",
    "myacc_fuse_matmul_relu",
    "patterns",
    "reference",
]
