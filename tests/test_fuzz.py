"""Fuzzing (issue 12): generated programs and mutated real files never make dtypelint fail.

For every case: checking raises nothing (no internal error), `--fix` (unsafe fixes included)
gives code that parses whenever the input parsed, and fixing the result again changes nothing.

A few hundred cases run in CI (`DTYPELINT_FUZZ_CASES`, default 300, half generated, half
mutated; `DTYPELINT_FUZZ_SEED` to replay a run). Locally, for a longer campaign:

    DTYPELINT_FUZZ_CASES=5000 python -m pytest tests/test_fuzz.py -q
"""

from __future__ import annotations

import ast
import os
import random
import warnings
from pathlib import Path

import pytest

import dtypelint

ROOT = Path(__file__).resolve().parent.parent
CASES = int(os.environ.get("DTYPELINT_FUZZ_CASES", "300"))
SEED = int(os.environ.get("DTYPELINT_FUZZ_SEED", "12"))
#: Cases per test item: several per item keeps pytest's own overhead small.
BATCH = 20

FACTORIES = [
    "zeros",
    "ones",
    "empty",
    "full",
    "rand",
    "randn",
    "eye",
    "linspace",
    "arange",
    "tensor",
]
CAMERA = ["K", "intrinsics", "pose", "w2c", "c2w", "cam2img", "K_inv", "extrinsics"]
ACTIVATIONS = ["x", "h", "feats", "points", "q", "k", "v"]
CASTS = [".float()", ".half()", ".to(torch.float32)", ".to(x.dtype)", ".to(x)", ".type_as(x)", ""]


class Generator:
    """Random torch-flavoured modules: hazards, look-alikes and odd layouts."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def pick(self, options: list[str]) -> str:
        return self.rng.choice(options)

    def factory(self, names: list[str]) -> str:
        name = self.pick(FACTORIES)
        shape = ", ".join(
            self.pick(["3", "4", f"{self.pick(names)}.shape[0]", "n", "1"])
            for _ in range(self.rng.randint(0, 3))
        )
        if name == "full":
            shape = f"({shape or '2'},), {self.pick(['0.5', '1', 'float(n)'])}"
        elif name == "tensor":
            shape = self.pick(["[1.0, 2.0]", "[[0.0]]", "values", "np.zeros(3)"])
        keywords = []
        if self.rng.random() < 0.5:
            keywords.append(f"device={self.pick(names)}.device")
        if self.rng.random() < 0.2:
            keywords.append(
                f"dtype={self.pick(['torch.float32', f'{self.pick(names)}.dtype', 'torch.long'])}"
            )
        if self.rng.random() < 0.1:
            keywords.append("**factory_kwargs")
        arguments = ", ".join(part for part in [shape, *keywords] if part)
        if self.rng.random() < 0.15:  # a multi-line layout, maybe with a trailing comma
            arguments = (
                "\n        "
                + arguments.replace(", ", ",\n        ")
                + ("," if self.rng.random() < 0.5 else "")
                + "\n    "
            )
        if self.rng.random() < 0.1:
            arguments += "  # a comment"
            arguments += "\n    "
        prefix = self.pick(["torch.", "torch.", "torch.", ""])
        return f"{prefix}{name}({arguments})"

    def expression(self, names: list[str], depth: int = 0) -> str:
        roll = self.rng.random()
        if depth > 2 or roll < 0.3:
            return self.pick(names) + self.pick([*CASTS, "", "", ".T", "[0]", "[:, :3]"])
        if roll < 0.45:
            return self.factory(names)
        if roll < 0.6:
            return f"{self.expression(names, depth + 1)} {self.pick(['@', '+', '*', '-', '/'])} {self.expression(names, depth + 1)}"
        if roll < 0.7:
            items = ", ".join(
                self.expression(names, depth + 1) for _ in range(self.rng.randint(1, 3))
            )
            return f"torch.{self.pick(['cat', 'stack'])}([{items}], dim=-1)"
        if roll < 0.78:
            return f"torch.where({self.pick(names)} > 0, {self.expression(names, depth + 1)}, {self.expression(names, depth + 1)})"
        if roll < 0.85:
            return f"torch.{self.pick(['matmul', 'bmm', 'einsum'])}({self.expression(names, depth + 1)}, {self.expression(names, depth + 1)})".replace(
                "einsum(", "einsum('ij,jk->ik', "
            )
        if roll < 0.9:
            return f"torch.from_numpy({self.pick(['arr', 'np.eye(3)', 'data'])})"
        if roll < 0.95:
            return (
                f"self.{self.pick(['proj', 'buf', 'scale', 'K'])}({self.pick(names)})"
                if self.rng.random() < 0.5
                else f"self.{self.pick(['buf', 'scale', 'K'])}"
            )
        return f"({self.expression(names, depth + 1)})"

    def statements(self, names: list[str], indent: str, count: int) -> list[str]:
        lines = []
        for _ in range(count):
            roll = self.rng.random()
            target = self.pick(
                ["y", "z", "out", *self.rng.sample(ACTIVATIONS, 1), *self.rng.sample(CAMERA, 1)]
            )
            if roll < 0.55:
                lines.append(f"{indent}{target} = {self.expression(names)}")
                names = [*names, target]
            elif roll < 0.65:
                lines.append(f"{indent}{target}[..., :3] = {self.expression(names)}")
            elif roll < 0.75:
                lines.append(f"{indent}if {self.pick(names)}.dim() > 2:")
                lines += self.statements(names, indent + "    ", self.rng.randint(1, 2))
                if self.rng.random() < 0.5:
                    lines.append(f"{indent}elif n > 1:")
                    lines += self.statements(names, indent + "    ", 1)
                lines.append(f"{indent}else:")
                lines += self.statements(names, indent + "    ", 1)
            elif roll < 0.82:
                lines.append(f"{indent}for i in range(n):")
                lines += self.statements(names, indent + "    ", self.rng.randint(1, 2))
            elif roll < 0.88:
                lines.append(
                    f"{indent}with torch.autocast('cuda'{self.pick(['', ', enabled=False'])}):"
                )
                lines += self.statements(names, indent + "    ", 1)
            elif roll < 0.91:
                lines.append(f"{indent}{target} = [{self.expression(names)} for _ in range(n)]")
            elif roll < 0.93:  # deep code: a long chain, as generated code has
                operand = self.pick(names)
                terms = " + ".join([operand] * self.rng.randint(50, 1000))
                lines.append(f"{indent}{target} = {self.expression(names)} + {terms}")
            else:
                lines.append(
                    f"{indent}{self.pick(names)}.{self.pick(['index_add_', 'masked_scatter_', 'copy_'])}(0, {self.expression(names)})"
                )
        return lines

    def function(self, name: str, indent: str = "", method: bool = False) -> list[str]:
        params = self.rng.sample(ACTIVATIONS, self.rng.randint(1, 2)) + self.rng.sample(
            CAMERA, self.rng.randint(0, 1)
        )
        annotated = [f"{p}: torch.Tensor" if self.rng.random() < 0.6 else p for p in params]
        signature = ", ".join((["self"] if method else []) + annotated + ["n: int = 2"])
        lines = [f"{indent}def {name}({signature}):"]
        lines += self.statements(params, indent + "    ", self.rng.randint(1, 5))
        lines.append(f"{indent}    return {self.expression(params)}")
        return lines

    def module(self) -> str:
        lines = [
            "import numpy as np",
            "import torch",
            "import torch.nn as nn",
            "from torch import zeros, ones",
            "",
        ]
        for index in range(self.rng.randint(1, 3)):
            if self.rng.random() < 0.5:
                lines += [
                    "",
                    f"class Block{index}(nn.Module):",
                    "    def __init__(self, dim: int):",
                    "        super().__init__()",
                ]
                lines.append("        self.proj = nn.Linear(dim, dim)")
                lines.append(
                    f"        self.{self.pick(['buf', 'scale', 'K'])} = {self.factory(['self.proj.weight'])}"
                )
                if self.rng.random() < 0.5:
                    lines.append("        self.register_buffer('mask', torch.ones(dim))")
                lines.append("")
                lines += self.function("forward", "    ", method=True)
                if self.rng.random() < 0.4:
                    lines += ["", *self.function(f"helper{index}", "    ", method=True)]
            else:
                lines += ["", "", *self.function(f"fn{index}")]
        source = "\n".join(lines) + "\n"
        if self.rng.random() < 0.1:
            source = source.replace("\n", "\r\n")
        return source


def mutate(rng: random.Random, source: str) -> str:
    """A real file, cut down to a few top-level statements and then damaged a little."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return source
    lines = source.splitlines(keepends=True)
    chunks = []
    for node in tree.body:
        start = node.lineno - 1 - len(getattr(node, "decorator_list", []))
        chunks.append("".join(lines[start : node.end_lineno]))
    heads = [chunk for chunk in chunks if chunk.startswith(("import", "from"))]
    bodies = [chunk for chunk in chunks if not chunk.startswith(("import", "from"))]
    kept = heads + rng.sample(bodies, min(len(bodies), rng.randint(1, 2)))
    text = "\n".join(kept)
    for _ in range(rng.randint(0, 3)):
        text = _damage(rng, text)
    return text


def _damage(rng: random.Random, text: str) -> str:
    lines = text.splitlines(keepends=True)
    if not lines:
        return text
    index = rng.randrange(len(lines))
    roll = rng.random()
    if roll < 0.15:
        del lines[index]
    elif roll < 0.3:
        lines.insert(index, lines[rng.randrange(len(lines))])
    elif roll < 0.4:
        other = rng.randrange(len(lines))
        lines[index], lines[other] = lines[other], lines[index]
    elif roll < 0.5:
        return text[: rng.randrange(len(text) + 1)]
    elif roll < 0.6:
        position = rng.randrange(len(text) + 1)
        token = rng.choice(
            [")", "(", ":", ",", "@", " torch.zeros(3)", "\\", '"', "\t", "é", "\x00", "\r"]
        )
        return text[:position] + token + text[position:]
    elif roll < 0.7:
        lines[index] = (
            lines[index].replace(".to(", ".float().to(", 1).replace("dtype=", "device=", 1)
        )
    elif roll < 0.8:
        lines[index] = lines[index].rstrip("\r\n") + "  # noqa\n"
    elif roll < 0.9:
        lines[index] = "    " + lines[index]
    else:
        for name in ("x", "points", "K", "self"):
            if name in lines[index]:
                lines[index] = lines[index].replace(name, rng.choice(CAMERA + ACTIVATIONS), 1)
                break
    return "".join(lines)


def _real_files() -> list[str]:
    files = sorted((ROOT / "fixtures").rglob("*.py")) + sorted(
        (ROOT / "tests" / "data").rglob("*.py")
    )
    return [path.read_text(encoding="utf-8", errors="replace") for path in files]


def _parses(source: str) -> bool:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # invalid escape sequences in mutated strings
        try:
            ast.parse(source)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return False
    return True


def check_case(source: str, label: str) -> None:
    dtypelint.lint_source(source, "fuzz.py")  # raises on an internal error
    fixed = dtypelint.fix_source(source, "fuzz.py", unsafe=True)
    if _parses(source):
        assert _parses(fixed.source), f"{label}: the fixed code does not parse\n{fixed.source}"
    again = dtypelint.fix_source(fixed.source, "fuzz.py", unsafe=True)
    assert again.source == fixed.source, f"{label}: a second --fix changed the code\n{source}"


@pytest.mark.parametrize("batch", range(max(1, CASES // 2 // BATCH)))
def test_generated_programs(batch: int) -> None:
    for case in range(BATCH):
        rng = random.Random(f"{SEED}-generated-{batch}-{case}")
        check_case(Generator(rng).module(), f"generated seed {SEED} batch {batch} case {case}")


@pytest.mark.parametrize("batch", range(max(1, CASES // 2 // BATCH)))
def test_mutated_real_files(batch: int) -> None:
    files = _real_files()
    for case in range(BATCH):
        rng = random.Random(f"{SEED}-mutated-{batch}-{case}")
        check_case(mutate(rng, rng.choice(files)), f"mutated seed {SEED} batch {batch} case {case}")


def test_the_generator_makes_findings_and_fixes() -> None:
    """The fuzzer is worth running: its programs have findings, and fixes get applied."""
    codes, applied = set(), 0
    for case in range(20):
        source = Generator(random.Random(f"coverage-{case}")).module()
        codes |= {d.code for d in dtypelint.lint_source(source, "fuzz.py")}
        applied += len(dtypelint.fix_source(source, "fuzz.py", unsafe=True).applied)
    assert {"DTL001", "DTL002"} <= codes and "DTL000" not in codes
    assert applied > 0
