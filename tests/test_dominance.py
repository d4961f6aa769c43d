"""`first_dominance_error`: uses before definitions, made by text or by a pass, in any nesting.

The text cases are in `tests/filecheck/dialects/relay/invalid_dominance.mlir`;
here the IR is built or rearranged directly, as a faulty pass would leave it.
"""

from __future__ import annotations

from xdsl.dialects import test
from xdsl.dialects.builtin import ModuleOp, i32
from xdsl.ir import Block, Region
from xrelay.dialects.diagnostics import verify_located
from xrelay.dialects.dominance import first_dominance_error
from xrelay.dialects.relay.elementwise import AddOp

import xrelay

TEXT = """func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = relay.exp %a : tensor<2xf32>
  %1 = relay.add %0, %a : tensor<2xf32>
  func.return %1 : tensor<2xf32>
}
"""


def test_valid_module_has_no_error() -> None:
    assert first_dominance_error(xrelay.parse(TEXT).module) is None


def test_op_moved_before_its_operand_is_reported() -> None:
    mod = xrelay.parse(TEXT)
    add = next(op for op in mod.module.walk() if isinstance(op, AddOp))
    block = add.parent_block()
    assert block is not None
    assert block.first_op is not None
    add.detach()
    block.insert_op_before(add, block.first_op)
    found = first_dominance_error(mod.module)
    assert found == (add, 0, add.operands[0])
    (diagnostic,) = verify_located(mod.module)
    assert diagnostic.message == (
        "'relay.add' op operand #0 does not dominate this use (it is defined at line 2)"
    )
    assert diagnostic.line == 3  # the use, where the parser put it


def test_values_of_a_closed_region_are_not_visible_after_it() -> None:
    inner = test.TestOp(result_types=[i32])
    holder = test.TestOp(regions=[Region(Block([inner]))])
    user = test.TestOp(operands=[inner.results[0]])
    module = ModuleOp([holder, user])
    assert first_dominance_error(module) == (user, 0, inner.results[0])


def test_blocks_of_one_region_may_refer_to_each_other() -> None:
    """Across the blocks of a multi-block region nothing is checked (no dominator tree)."""
    late = test.TestOp(result_types=[i32])
    early_user = test.TestOp(operands=[late.results[0]])
    region = Region([Block([early_user]), Block([late])])
    assert first_dominance_error(ModuleOp([test.TestOp(regions=[region])])) is None


def test_deep_nesting_is_walked_without_recursion() -> None:
    """5000 nested regions: far past Python's recursion limit, so the walk must be iterative."""
    block = Block([test.TestOp(result_types=[i32])])
    for _ in range(5000):
        block = Block([test.TestOp(regions=[Region(block)])])
    module = ModuleOp(Region(block))
    assert first_dominance_error(module) is None
