"""`--verify-diagnostics`: check produced diagnostics against `expected-*` comments.

MLIR's semantics: a comment `// expected-error@+1 {{text}}` expects an error
whose message contains `text` on the line one below the comment (`@-N` above,
`@above` / `@below` the nearest line above / below that is not itself an
`expected-*` comment, no `@` the comment's own line); `expected-error-re`
matches `{{regex}}` parts of the text as regular expressions;
`expected-warning`, `expected-note` and `expected-remark` work the same way.
Every expectation must be met by a diagnostic, and every diagnostic must be
expected: anything else fails the run.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from xrelay.dialects.diagnostics import Diagnostic

_EXPECTED = re.compile(
    r"expected-(?P<severity>error|note|remark|warning)(?P<regex>-re)?"
    r" *(?:@(?P<where>[+-][0-9]+|above|below))? *\{\{(?P<text>.*)\}\}"
)


@dataclass
class Expectation:
    """One `expected-<severity>` comment and the line it points at."""

    line: int
    severity: str
    text: str
    comment_line: int
    pattern: re.Pattern[str] | None = None
    matched: bool = False

    def accepts(self, message: str) -> bool:
        """Whether a diagnostic message satisfies this expectation."""
        if self.pattern is not None:
            return self.pattern.search(message) is not None
        return self.text in message


def _regex_of(text: str) -> re.Pattern[str]:
    """`a {{b.*}} c` -> literal `a `, regex `b.*`, literal ` c`."""
    parts = re.split(r"\{\{(.*?)\}\}", text)
    return re.compile(
        "".join(part if index % 2 else re.escape(part) for index, part in enumerate(parts))
    )


def parse_expectations(text: str, line_offset: int = 0) -> list[Expectation]:
    """The expectations in a chunk; lines count from `line_offset` + 1."""
    lines = text.splitlines()
    designators = [_EXPECTED.search(source) is not None for source in lines]
    out: list[Expectation] = []
    for index, source in enumerate(lines):
        match = _EXPECTED.search(source)
        if match is None:
            continue
        where = match.group("where")
        target = index
        if where == "above":
            while target > 0 and designators[target]:
                target -= 1
        elif where == "below":
            while target < len(lines) - 1 and designators[target]:
                target += 1
        elif where is not None:
            target = index + int(where)
        body = match.group("text")
        out.append(
            Expectation(
                line_offset + target + 1,
                match.group("severity"),
                body,
                line_offset + index + 1,
                _regex_of(body) if match.group("regex") else None,
            )
        )
    return out


def check_diagnostics(
    diagnostics: Sequence[Diagnostic], expectations: list[Expectation], filename: str
) -> list[str]:
    """Problems as error lines; empty when diagnostics and expectations agree."""
    problems: list[str] = []
    for diagnostic in diagnostics:
        for expectation in expectations:
            if (
                not expectation.matched
                and expectation.line == diagnostic.line
                and expectation.severity == diagnostic.severity
                and expectation.accepts(diagnostic.message)
            ):
                expectation.matched = True
                break
        else:
            problems.append(
                f"{filename}:{diagnostic.line}:{diagnostic.column}: error: unexpected "
                f"{diagnostic.severity}: {diagnostic.message}"
            )
    for expectation in expectations:
        if not expectation.matched:
            problems.append(
                f"{filename}:{expectation.comment_line}: error: expected "
                f'{expectation.severity} "{expectation.text}" was not produced'
            )
    return problems
