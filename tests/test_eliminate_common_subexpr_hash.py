"""EliminateCommonSubexpr merges constants by value, never by hash alone.

Its table is a dict keyed by each op's name, properties (a constant's dense value),
attributes, operands and result types: two keys with equal hashes are compared with
`==` before an op is merged, so constants whose values differ stay apart even when
their hashes collide. SimplifyInference's folded batch_norm constants
(`passes/simplify_inference_fold.py`) rely on that.
"""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import BytesAttr, DenseIntOrFPElementsAttr

from xrelay import parse, transform

TEXT = """
func.func @main(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %a = relay.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %b = relay.constant dense<[1.0, 2.0, 4.0]> : tensor<3xf32>
  %c = relay.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %0 = relay.add %x, %a : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %1 = relay.add %x, %b : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %2 = relay.add %x, %c : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  func.return %0, %1, %2 : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}
"""


def constants_and_adds() -> tuple[int, int]:
    mod = parse(TEXT)
    with transform.PassContext(opt_level=3):
        after = transform.get_pass("EliminateCommonSubexpr")(mod)
    names = [op.name for op in after.module.walk()]
    return names.count("relay.constant"), names.count("relay.add")


@pytest.mark.parametrize("collide", [False, True])
def test_colliding_hashes_do_not_merge_different_constants(
    collide: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With every dense value and byte string hashing alike, `a` and `c` (equal) merge and
    `b` (different) stays, exactly as with real hashes."""
    if collide:
        monkeypatch.setattr(DenseIntOrFPElementsAttr, "__hash__", lambda self: 7)
        monkeypatch.setattr(BytesAttr, "__hash__", lambda self: 7)
        a = parse(TEXT).module
        values = [op.properties["value"] for op in a.walk() if op.name == "relay.constant"]
        assert len({hash(v) for v in values}) == 1  # the collision is real
    assert constants_and_adds() == (2, 2)
