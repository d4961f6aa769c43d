"""AnnotateSpans: every op located at its own line of the printed module, numbers unchanged;
ToANormalForm changes nothing (xrelay's SSA is A-normal)."""

from __future__ import annotations

from testlib.numerics import run_and_check
from xdsl.dialects.builtin import FileLineColLoc
from xrelay.dialects.parser import parse_module

from xrelay import IRModule, relay, transform


def model() -> IRModule:
    x, y = relay.var("x", shape=(3, 4)), relay.var("y", shape=(3, 4))
    a = relay.add(x, y)
    z = relay.split(relay.concatenate([a, relay.exp(a)], axis=0), 2)
    return IRModule.from_expr(relay.Function([x, y], relay.multiply(z[0], z[1])))


def test_every_op_is_at_its_printed_line() -> None:
    out = run_and_check(model(), transform.AnnotateSpans())
    lines = out.astext().splitlines()
    located = 0
    for op in out.module.walk():
        loc = op.location
        assert isinstance(loc, FileLineColLoc), op.name
        assert loc.filename.data == "GeneratedSource"
        line = lines[loc.line.data - 1]
        start = line[loc.column.data - 1 :]  # the op's name, as the parser locates ops
        assert start.split(" ")[0] == op.name, (op.name, line)
        located += 1
    assert located == len(list(out.module.walk()))


def test_the_locations_are_those_the_printed_text_reads_back_with() -> None:
    out = run_and_check(model(), transform.AnnotateSpans())
    reread = parse_module(out.astext(), "GeneratedSource")
    assert [op.location for op in out.module.walk()] == [op.location for op in reread.walk()]


def test_to_a_normal_form_changes_nothing() -> None:
    before = str(model())
    assert str(run_and_check(model(), transform.ToANormalForm())) == before
