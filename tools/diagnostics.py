"""`--verify-diagnostics`: check produced diagnostics against `expected-*` comments.

The semantics are MLIR's (`SourceMgrDiagnosticVerifierHandler`):

- `// expected-error {{text}}` expects an error on the comment's own line
  whose message contains `text`; `expected-warning`, `expected-note` and
  `expected-remark` work the same way for their severities;
- `@+N` / `@-N` point N lines below / above the comment's line;
- `@above` points at the nearest line above that is not itself an
  `expected-*` line, `@below` at the nearest such line below (so several
  expectations can stack on one op);
- `expected-error-re {{a {{[0-9]+}} b}}` treats the `{{...}}` parts inside
  the text as regular expressions and the rest literally.

Every produced diagnostic must meet an expectation (same line, same
severity, message match) and every expectation must be met; otherwise the
run fails with `file:line:col: error: unexpected error: ...` at the
diagnostic and `file:line:col: error: expected error "..." was not produced`
at the comment.
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

NOWHERE = -1
"""The line of an `@above` / `@below` expectation with no line to point at: never matches."""


@dataclass(frozen=True)
class Expectation:
    """One `expected-<severity>` comment: the line it points at and what it accepts."""

    line: int
    """The 1-based line (in the whole file) a matching diagnostic must be on."""
    severity: str
    text: str
    comment_line: int
    """Where the comment itself is (1-based line and column), for reporting."""
    comment_column: int
    pattern: re.Pattern[str] | None = None
    """For `expected-*-re`: the compiled pattern that must be found in the message."""

    def accepts(self, diagnostic: Diagnostic) -> bool:
        """Whether `diagnostic` satisfies this expectation."""
        if diagnostic.line != self.line or diagnostic.severity != self.severity:
            return False
        if self.pattern is not None:
            return self.pattern.search(diagnostic.message) is not None
        return self.text in diagnostic.message


def _regex_of(text: str) -> re.Pattern[str]:
    """`a {{b.*}} c` -> literal `a `, regex `b.*`, literal ` c`."""
    parts = re.split(r"\{\{(.*?)\}\}", text)
    return re.compile(
        "".join(part if index % 2 else re.escape(part) for index, part in enumerate(parts))
    )


def parse_expectations(text: str, line_offset: int = 0) -> list[Expectation]:
    """The expectations in `text`, whose first line is line `line_offset + 1` of its file.

    Raises `re.error` (a ValueError) for a malformed `expected-*-re` pattern.
    """
    lines = text.splitlines()
    matches = [_EXPECTED.search(source) for source in lines]
    expectations: list[Expectation] = []
    for index, match in enumerate(matches):
        if match is None:
            continue
        where = match.group("where")
        if where is None:
            target = index
        elif where == "above":
            target = next((i for i in range(index - 1, -1, -1) if matches[i] is None), NOWHERE)
        elif where == "below":
            target = next((i for i in range(index + 1, len(lines)) if matches[i] is None), NOWHERE)
        else:
            target = index + int(where)
        body = match.group("text")
        expectations.append(
            Expectation(
                line=NOWHERE if target == NOWHERE else line_offset + target + 1,
                severity=match.group("severity"),
                text=body,
                comment_line=line_offset + index + 1,
                comment_column=match.start() + 1,
                pattern=_regex_of(body) if match.group("regex") else None,
            )
        )
    return expectations


def check_diagnostics(
    diagnostics: Sequence[Diagnostic], expectations: Sequence[Expectation], filename: str
) -> list[str]:
    """The verification failures, as error lines; empty when diagnostics and expectations agree.

    Each expectation is met by at most one diagnostic, the first that fits, in
    the order both were produced.
    """
    unmet = list(expectations)
    problems: list[str] = []
    for diagnostic in diagnostics:
        met = next((e for e in unmet if e.accepts(diagnostic)), None)
        if met is not None:
            unmet.remove(met)
            continue
        where = (
            f"{diagnostic.filename}:{diagnostic.line}:{diagnostic.column}"
            if diagnostic.line > 0
            else filename
        )
        problems.append(f"{where}: error: unexpected {diagnostic.severity}: {diagnostic.message}")
    for expectation in unmet:
        problems.append(
            f"{filename}:{expectation.comment_line}:{expectation.comment_column}: error: "
            f'expected {expectation.severity} "{expectation.text}" was not produced'
        )
    return problems
