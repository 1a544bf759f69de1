"""What a rule is: one class with its code, name, message, fix and its own examples (Fixit style)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from dtypelint.diagnostics import Applicability, Diagnostic, Edit, Fix

if TYPE_CHECKING:
    import ast

    from dtypelint.analysis import ModuleAnalysis


@dataclass(frozen=True)
class Invalid:
    """A snippet the rule must flag: where (1-based line, column) and the source after `--fix`.

    `fixed` is the expected source after applying this rule's fixes (unsafe ones included when
    `unsafe=True`); None means the rule offers no fix for it.
    """

    code: str
    line: int
    column: int
    fixed: str | None = None
    unsafe: bool = False


class Rule:
    code: ClassVar[str]
    name: ClassVar[str]
    summary: ClassVar[str]
    # Self-tests checked by tests/test_rule_examples.py.
    valid: ClassVar[tuple[str, ...]] = ()
    invalid: ClassVar[tuple[Invalid, ...]] = ()

    def check(self, module: ModuleAnalysis) -> Iterable[Diagnostic]:
        raise NotImplementedError

    def diagnostic(
        self,
        module: ModuleAnalysis,
        node: ast.AST,
        message: str,
        fix: Fix | None = None,
    ) -> Diagnostic:
        source = module.source
        return Diagnostic(
            code=self.code,
            name=self.name,
            message=message,
            filename=module.filename,
            location=source.start(node),
            end_location=source.end(node),
            fix=fix,
        )


def make_fix(message: str, edits: Iterable[Edit], *, safe: bool) -> Fix:
    return Fix(Applicability.SAFE if safe else Applicability.UNSAFE, message, tuple(edits))
