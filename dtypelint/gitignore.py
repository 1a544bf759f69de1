"""The .gitignore patterns of folders walked outside a git work tree (inside one, git lists the
files itself): the last matching pattern decides, as in git."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class _IgnoreRule:
    base: Path  # the folder of the .gitignore that holds it
    regex: re.Pattern[str]
    negated: bool
    dir_only: bool
    anchored: bool


@dataclass(frozen=True)
class GitIgnore:
    """The .gitignore patterns in force for one folder (used only outside git work trees)."""

    rules: tuple[_IgnoreRule, ...] = ()
    read: frozenset[Path] = frozenset()

    @classmethod
    def above(cls, folder: Path) -> GitIgnore:
        """Patterns from .gitignore files in the folders above `folder`, up to a `.git`."""
        folder = Path(os.path.abspath(folder))
        chain = []
        for parent in folder.parents:
            chain.append(parent)
            if (parent / ".git").exists():
                break
        else:
            chain = []
        result = cls()
        for parent in reversed(chain):
            result = result.with_file(parent / ".gitignore")
        return result

    def with_file(self, path: Path) -> GitIgnore:
        absolute = Path(os.path.abspath(path))
        if absolute in self.read or not absolute.is_file():
            return self
        added = tuple(_parse_gitignore(absolute))
        return GitIgnore(self.rules + added, self.read | {absolute})

    def ignored(self, path: Path, *, is_dir: bool) -> bool:
        absolute = Path(os.path.abspath(path))
        verdict = False
        for rule in self.rules:  # the last matching pattern decides, as in git
            if rule.dir_only and not is_dir:
                continue
            try:
                relative = absolute.relative_to(rule.base).as_posix()
            except ValueError:
                continue
            subject = relative if rule.anchored else absolute.name
            if rule.regex.fullmatch(subject):
                verdict = not rule.negated
        return verdict


def _parse_gitignore(path: Path) -> Iterator[_IgnoreRule]:
    from dtypelint.config import _glob_regex

    for raw in path.read_text(encoding="utf-8", errors="replace").splitlines():
        line = raw.rstrip()
        if raw.endswith("\\ "):  # an escaped trailing space is kept
            line += " "
        if not line or line.startswith("#"):
            continue
        negated = line.startswith("!")
        if negated or line.startswith("\\"):
            line = line[1:]
        dir_only = line.endswith("/")
        line = line.rstrip("/")
        anchored = "/" in line
        line = line.lstrip("/")
        if line:
            yield _IgnoreRule(path.parent, _glob_regex(line), negated, dir_only, anchored)
