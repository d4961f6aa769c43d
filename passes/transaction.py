"""Snapshots for transactional passes: structural comparison, restore, crash reproducers.

xDSL passes rewrite the module in place, so a pass that raises halfway would
leave a half-rewritten module behind. The pass manager clones the module
before each pass (`transform.transactional`, on by default), restores the
clone into the very same `ModuleOp` if the pass fails, and compares it with
the result to learn whether the pass changed anything (which `required`
resolution and `testing.immutable_module` use).
"""

from __future__ import annotations

import contextlib
import itertools
import os
import stat
import tempfile
from collections.abc import Sequence

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, SSAValue
from xrelay.dialects.deep_clone import deep_clone
from xrelay.passes.rewriting import collector_paused


def same_ir(a: Operation, b: Operation) -> bool:
    """Whether two ops are the same IR: names, attributes, properties, types and use-def edges.

    Unlike xDSL's `is_structurally_equivalent`, result and block-argument
    types count (a pass that only retypes values changed the IR). Locations
    and SSA names do not.
    """
    return _same_op(a, b, {}, {})


def _same_op(
    a: Operation, b: Operation, values: dict[SSAValue, SSAValue], blocks: dict[Block, Block]
) -> bool:
    if (
        a.name != b.name
        or len(a.operands) != len(b.operands)
        or len(a.results) != len(b.results)
        or len(a.regions) != len(b.regions)
        or len(a.successors) != len(b.successors)
        or a.attributes != b.attributes
        or a.properties != b.properties
    ):
        return False
    if any(values.get(x) is not y for x, y in zip(a.operands, b.operands, strict=True)):
        return False
    if any(blocks.get(x) is not y for x, y in zip(a.successors, b.successors, strict=True)):
        return False
    for region_a, region_b in zip(a.regions, b.regions, strict=True):
        pairs = list(itertools.zip_longest(region_a.blocks, region_b.blocks))
        if any(x is None or y is None for x, y in pairs):
            return False
        blocks.update(pairs)
        for block_a, block_b in pairs:
            if not _same_block(block_a, block_b, values, blocks):
                return False
    for x, y in zip(a.results, b.results, strict=True):
        if x.type != y.type:
            return False
        values[x] = y
    return True


def _same_block(
    a: Block, b: Block, values: dict[SSAValue, SSAValue], blocks: dict[Block, Block]
) -> bool:
    if len(a.args) != len(b.args):
        return False
    for x, y in zip(a.args, b.args, strict=True):
        if x.type != y.type:
            return False
        values[x] = y
    for op_a, op_b in itertools.zip_longest(a.ops, b.ops):
        if op_a is None or op_b is None or not _same_op(op_a, op_b, values, blocks):
            return False
    return True


def snapshot(module: ModuleOp) -> ModuleOp:
    """A deep copy of the module, taken with the cyclic garbage collector paused.

    Cloning allocates several objects per op; with the collector running, its
    full collections, each proportional to every live object, make a clone of
    a 30k-op module 2.5x slower per op than one of a 1k-op module. A clone
    makes no garbage, so pausing the collector loses nothing. The copy is
    `module.clone()`'s, built in one pass (`deep_clone`).
    """
    with collector_paused():
        return deep_clone(module)


def restore(target: ModuleOp, snapshot: ModuleOp) -> None:
    """Make `target` hold `snapshot`'s IR again, keeping `target`'s identity (moves the ops)."""
    block = target.body.block
    for op in list(block.ops):
        op.detach()
    for op in list(snapshot.body.block.ops):
        op.detach()
        block.add_op(op)
    target.attributes = dict(snapshot.attributes)
    target.properties = dict(snapshot.properties)


def reproducer_text(
    module_text: str, pass_label: str, pipeline: str | None, error: str, options: Sequence[str]
) -> str:
    """A crash reproducer: comments saying how to rerun it, then the module before the pass."""
    lines = [f"// xrelay crash reproducer: pass {pass_label} failed:"]
    lines += [f"//   {line}" for line in error.splitlines()[:20] or ["(no message)"]]
    if pipeline is None:
        lines.append("// The pass is not registered, so xrelay-opt cannot name it: register")
        lines.append("// it with xrelay.transform.register_pass, then run it on this module.")
    else:
        command = " ".join(["xrelay-opt", "<this file>", "-p", f"'{pipeline}'", *options])
        lines.append("// Reproduce with:")
        lines.append(f"//   {command}")
    return "\n".join(lines) + "\n" + module_text


def write_atomically(path: str, text: str | bytes) -> None:
    """Replace `path` by `text` (or bytes) all at once: a failed write leaves the old file.

    The text goes to a temporary file in the same directory, which is renamed
    over the target (keeping the target's permissions, or the umask's for a
    new file). Symlinks are written through; devices and pipes (`/dev/null`,
    `/dev/stdout`) are written directly, never replaced.
    """
    real = os.path.realpath(path)
    try:
        mode: int | None = os.stat(real).st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and not stat.S_ISREG(mode):
        with open(real, "wb") as stream:
            stream.write(text.encode() if isinstance(text, str) else text)
        return
    if mode is None:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    handle, temporary = tempfile.mkstemp(
        dir=os.path.dirname(real), prefix=f".{os.path.basename(real)}.", suffix=".tmp"
    )
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(text.encode() if isinstance(text, str) else text)
        os.chmod(temporary, stat.S_IMODE(mode))
        os.replace(temporary, real)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
