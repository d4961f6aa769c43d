"""Tokens of MLIR-ish text and seeded structure-aware mutations of them (for `fuzz_text`).

`tokenize` splits text into tokens that keep their leading whitespace, so
`render(tokenize(t)) == t` and a mutated list renders to text again.
`Mutator` applies one random mutation at a time: a token deleted, duplicated,
swapped or replaced by another of its kind from the corpus; a number, a
dimension or an element type changed to an edge case; a line duplicated or
deleted; two operands swapped; a bracket nested deeper.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from xrelay.tools.files import split_input

_TOKEN = re.compile(
    r"""(?P<space>\s*)(?:
      (?P<comment>//[^\n]*)
    | (?P<string>"(?:[^"\\\n]|\\.)*")
    | (?P<type>(?:tensor|memref|vector)<(?:(?:\?|\d+)x)*[A-Za-z_][\w.]*>)
    | (?P<ssa>%[\w.$-]+(?:\#\d+)?)
    | (?P<symbol>@(?:[\w.$-]+|"(?:[^"\\\n]|\\.)*"))
    | (?P<block>\^[\w.$-]+)
    | (?P<number>-?(?:0x[0-9a-fA-F]+|\d+\.\d*(?:[eE][+-]?\d+)?|\d+(?:[eE][+-]?\d+)?))
    | (?P<ident>[A-Za-z_][\w.$]*)
    | (?P<punct>->|::|\.\.\.|\S)
    )?""",
    re.VERBOSE,
)

_ELEMENT_TYPE = re.compile(r"^(?:[fi]\d+|bf16|index|ui\d+|si\d+)$")

ELEMENT_TYPES = ("f16", "bf16", "f32", "f64", "i1", "i8", "i16", "i32", "i64", "ui8", "index")
NUMBERS = (
    "0",
    "-1",
    "1",
    "2147483648",
    "4294967296",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775809",
    "99999999999999999999",
    "1.0e39",
    "-1.0e39",
    "1.0e-46",
    "-0.0",
    "nan",
    "inf",
    "0x7FC00000",
    "0xFFFFFFFFFFFFFFFFFF",
    "3.4028235e38",
)
DIMS = ("0", "?", "1", "2147483648", "4611686018427387904", "99999999999", "1000001")

_STRIP = re.compile(r"^\s*//.*\n?", re.MULTILINE)


@dataclass(frozen=True)
class Token:
    """One token: its kind (a group name of `_TOKEN`), its text, the whitespace before it."""

    kind: str
    text: str
    space: str = ""


def tokenize(text: str) -> list[Token]:
    """The tokens of `text`; trailing whitespace becomes an empty `end` token."""
    tokens: list[Token] = []
    pos = 0
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        if match is None or match.end() == pos:
            break
        kind = match.lastgroup or "punct"
        if kind == "space":  # only whitespace was left
            tokens.append(Token("end", "", match.group("space")))
        else:
            token_text = match.group(kind)
            if kind == "ident" and _ELEMENT_TYPE.match(token_text):
                kind = "etype"
            tokens.append(Token(kind, token_text, match.group("space")))
        pos = match.end()
    return tokens


def render(tokens: Sequence[Token]) -> str:
    """The text of `tokens`."""
    return "".join(t.space + t.text for t in tokens)


def corpus_chunks(root: Path) -> list[str]:
    """Every `// -----` chunk of every `.mlir` file under `root`, comment lines stripped."""
    chunks: list[str] = []
    for path in sorted(root.rglob("*.mlir")):
        for chunk in split_input(path.read_text(encoding="utf-8")):
            text = _STRIP.sub("", chunk.text).strip()
            if text:
                chunks.append(text + "\n")
    return chunks


Mutation = Callable[[random.Random, list[Token]], list[Token] | None]


class Mutator:
    """Seeded structure-aware mutations; `pool` holds tokens by kind for replacements."""

    def __init__(self, pool: dict[str, list[str]] | None = None):
        self.pool = pool or {}
        self.mutations: dict[str, Mutation] = {
            "delete": self.delete,
            "duplicate": self.duplicate,
            "swap": self.swap,
            "replace": self.replace_same_kind,
            "number": self.change_number,
            "dim": self.change_dim,
            "etype": self.change_element_type,
            "line": self.line,
            "operands": self.swap_operands,
            "nest": self.nest,
        }

    @classmethod
    def from_corpus(cls, chunks: Sequence[str]) -> Mutator:
        """A mutator whose replacements come from the tokens of `chunks`."""
        pool: dict[str, set[str]] = {}
        for chunk in chunks:
            for token in tokenize(chunk):
                pool.setdefault(token.kind, set()).add(token.text)
        return cls({kind: sorted(texts) for kind, texts in pool.items()})

    def mutate(
        self, rng: random.Random, tokens: list[Token], count: int
    ) -> tuple[str, list[Token]]:
        """`count` mutations applied in turn; the names of those that applied, and the tokens."""
        names: list[str] = []
        keys = sorted(self.mutations)
        for _ in range(count * 4):
            if len(names) >= count:
                break
            name = rng.choice(keys)
            result = self.mutations[name](rng, tokens)
            if result is not None:
                tokens = result
                names.append(name)
        return "+".join(names), tokens

    # ------------------------------------------------------------- helpers

    @staticmethod
    def _indices(tokens: Sequence[Token], *kinds: str) -> list[int]:
        wanted = set(kinds)
        return [i for i, t in enumerate(tokens) if t.kind in wanted]

    @staticmethod
    def _set(tokens: list[Token], index: int, text: str) -> list[Token]:
        out = list(tokens)
        out[index] = replace(out[index], text=text)
        return out

    def _code(self, tokens: Sequence[Token]) -> list[int]:
        return [i for i, t in enumerate(tokens) if t.kind not in ("comment", "end")]

    # ----------------------------------------------------------- mutations

    def delete(self, rng: random.Random, tokens: list[Token]) -> list[Token] | None:
        code = self._code(tokens)
        if not code:
            return None
        i = rng.choice(code)
        return tokens[:i] + tokens[i + 1 :]

    def duplicate(self, rng: random.Random, tokens: list[Token]) -> list[Token] | None:
        code = self._code(tokens)
        if not code:
            return None
        i = rng.choice(code)
        return [*tokens[: i + 1], replace(tokens[i], space=" "), *tokens[i + 1 :]]

    def swap(self, rng: random.Random, tokens: list[Token]) -> list[Token] | None:
        code = self._code(tokens)
        if len(code) < 2:
            return None
        i = rng.randrange(len(code) - 1)
        a, b = code[i], code[i + 1] if rng.random() < 0.6 else rng.choice(code)
        out = list(tokens)
        out[a], out[b] = (
            replace(tokens[b], space=tokens[a].space),
            replace(tokens[a], space=tokens[b].space),
        )
        return out

    def replace_same_kind(self, rng: random.Random, tokens: list[Token]) -> list[Token] | None:
        code = [i for i in self._code(tokens) if self.pool.get(tokens[i].kind)]
        if not code:
            return None
        i = rng.choice(code)
        return self._set(tokens, i, rng.choice(self.pool[tokens[i].kind]))

    def change_number(self, rng: random.Random, tokens: list[Token]) -> list[Token] | None:
        numbers = self._indices(tokens, "number")
        if not numbers:
            return None
        return self._set(tokens, rng.choice(numbers), rng.choice(NUMBERS))

    def change_dim(self, rng: random.Random, tokens: list[Token]) -> list[Token] | None:
        types = self._indices(tokens, "type")
        if not types:
            return None
        i = rng.choice(types)
        head, _, rest = tokens[i].text.partition("<")
        parts = rest[:-1].split("x")
        dims, element = parts[:-1], parts[-1]
        roll = rng.random()
        if dims and roll < 0.7:
            dims[rng.randrange(len(dims))] = rng.choice(DIMS)
        elif dims and roll < 0.85:
            del dims[rng.randrange(len(dims))]
        else:
            dims.insert(rng.randint(0, len(dims)), rng.choice(DIMS))
        return self._set(tokens, i, f"{head}<{'x'.join([*dims, element])}>")

    def change_element_type(self, rng: random.Random, tokens: list[Token]) -> list[Token] | None:
        spots = self._indices(tokens, "type", "etype")
        if not spots:
            return None
        i = rng.choice(spots)
        new = rng.choice(ELEMENT_TYPES)
        if tokens[i].kind == "etype":
            return self._set(tokens, i, new)
        text = tokens[i].text
        cut = max(text.rfind("x"), text.find("<"))
        return self._set(tokens, i, text[: cut + 1] + new + ">")

    def line(self, rng: random.Random, tokens: list[Token]) -> list[Token] | None:
        starts = [i for i, t in enumerate(tokens) if "\n" in t.space and t.kind != "end"]
        if len(starts) < 2:
            return None
        k = rng.randrange(len(starts) - 1)
        a, b = starts[k], starts[k + 1]
        if rng.random() < 0.5:
            return tokens[:a] + tokens[b:]
        return tokens[:b] + tokens[a:b] + tokens[b:]

    def swap_operands(self, rng: random.Random, tokens: list[Token]) -> list[Token] | None:
        ssa = self._indices(tokens, "ssa")
        pairs = [
            (a, b)
            for a, b in itertools.pairwise(ssa)
            if "\n" not in "".join(t.space for t in tokens[a + 1 : b + 1])
            and tokens[a].text != tokens[b].text
        ]
        if not pairs:
            return None
        a, b = rng.choice(pairs)
        out = self._set(tokens, a, tokens[b].text)
        return self._set(out, b, tokens[a].text)

    def nest(self, rng: random.Random, tokens: list[Token]) -> list[Token] | None:
        """Wrap the contents of a bracket pair in many more levels of the same bracket."""
        closing = {"[": "]", "(": ")", "<": ">", "{": "}"}
        opens = [i for i, t in enumerate(tokens) if t.text in closing]
        if not opens:
            return None
        i = rng.choice(opens)
        j = _matching(tokens, i, closing[tokens[i].text])
        if j is None:
            return None
        depth = rng.choice((2, 10, 100, 300, 1200))
        prefix = tokens[i - 1].text if tokens[i].text == "<" and i > 0 else ""
        opener = [tokens[i]]
        if prefix in ("tuple", "tensor", "dense"):
            opener = [Token("ident", prefix), tokens[i]]
        inner = tokens[i + 1 : j]
        extra_open = opener * (depth - 1) if prefix else [tokens[i]] * (depth - 1)
        if tokens[i].text == "<" and not prefix:
            return None
        return [*tokens[: i + 1], *extra_open, *inner, *[tokens[j]] * (depth - 1), *tokens[j:]]


def _matching(tokens: Sequence[Token], start: int, close: str) -> int | None:
    opener, depth = tokens[start].text, 0
    for k in range(start, len(tokens)):
        text = tokens[k].text
        if text == opener:
            depth += 1
        elif text == close:
            depth -= 1
            if depth == 0:
                return k
    return None
