"""`xrelay_myacc`: an example accelerator added to xrelay from outside its tree.

Importing the package registers everything it defines (xrelay imports it by
its `xrelay.plugins` entry point, on first need):

- `dialect`: the `myacc` dialect, `myacc.gelu` and `myacc.matmul_relu`;
- `reference`: what those ops compute (numpy), for the interpreter;
- `fuse`: the pass `myacc-fuse-matmul-relu` (relay -> myacc, a rewrite pattern);
- `patterns`: the BYOC pattern table of target `myacc` (`partition_for(mod, "myacc")`);
- `lowering`: the lowering patterns of `myacc` partitions and `convert-relay-to-myacc`;
- `codegen`: the C printer of lowered partitions and the `myacc` code generator.

It is written only against xrelay's public API (`xrelay.ext`, `xrelay.transform`,
`xrelay.byoc`, `xrelay.ir`, `xrelay.relay`) and xDSL: see docs/extending.md.
"""

from __future__ import annotations

from xrelay_myacc import codegen, dialect, fuse, lowering, patterns, reference
from xrelay_myacc.dialect import MYACC, GeluOp, MatmulReluOp

__all__ = [
    "MYACC",
    "GeluOp",
    "MatmulReluOp",
    "codegen",
    "dialect",
    "fuse",
    "lowering",
    "patterns",
    "reference",
]
