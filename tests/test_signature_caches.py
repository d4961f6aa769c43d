"""The verifier's and the printer's per-signature shortcuts (`dialects/verify_cache.py`,
`dialects/relay/print_cache.py`) change no result: an op that fails on where it is still
fails after its signature verified, and values that compare equal as floats but print
differently (0.0 and -0.0) print as written."""

from __future__ import annotations

import io

from xrelay.dialects.dense_literal import ExactPrinter
from xrelay.dialects.diagnostics import verify_located
from xrelay.dialects.parser import parse_module

CLIPS = """func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.clip %x {a_min = 0.0, a_max = 1.0} : tensor<4xf32>
  %1 = relay.clip %0 {a_min = -0.0, a_max = 1.0} : tensor<4xf32>
  %2 = relay.clip %1 {a_min = 0.0, a_max = 1.0} : tensor<4xf32>
  %3 = relay.clip %2 {a_min = -0.0, a_max = 1.0} : tensor<4xf32>
  func.return %3 : tensor<4xf32>
}
"""


def printed(text: str) -> str:
    out = io.StringIO()
    ExactPrinter(stream=out).print_op(parse_module(text))
    return out.getvalue()


def test_signed_zeros_print_as_written_from_the_tail_table() -> None:
    for _ in range(2):  # the second time every tail comes from the table
        text = printed(CLIPS)
        assert text.count("a_min = -0.0") == 2
        assert text.count("a_min = 0.0") == 2
        assert text.index("%1 = relay.clip %0 {a_min = -0.0") < text.index("%2 =")


def test_a_verified_signature_still_fails_where_the_op_is() -> None:
    text = """func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.add %x, %x : tensor<4xf32>
  %1 = relay.add %x, %x : tensor<4xf32>
}
"""
    problems = verify_located(parse_module(text, "t.mlir"))
    assert [(p.line, p.severity) for p in problems] == [(3, "error")]
    assert "terminates block" in problems[0].message


def test_a_signature_that_failed_fails_every_time() -> None:
    text = """func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.add %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<5xf32>
  %1 = relay.add %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<5xf32>
  func.return %x : tensor<4xf32>
}
"""
    for _ in range(2):
        problems = verify_located(parse_module(text, "t.mlir"))
        assert [p.line for p in problems] == [2, 3]
