"""The host C target: planned modules printed as the C of one model library (`-t c`).

`CEmitter` / `emit_c` print (see `emitter.py`); `CTarget` is `xrelay-opt -t c`;
`build` (`pipeline.py`) runs the whole flow behind `xrelay.build(mod, target="c")`.
"""

from xrelay.codegen.c.emitter import CEmitter, CSources, emit_c

__all__ = ["CEmitter", "CSources", "emit_c"]
