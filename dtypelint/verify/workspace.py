"""The two trees `dtypelint verify` runs: the user's (never written) and a patched copy.

Also finds the example functions, by reading the files (no import: the parent process stays free
of torch and of the user's code).
"""

from __future__ import annotations

import ast
import contextlib
import os
import shutil
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from dtypelint.config import Config
from dtypelint.diagnostics import Diagnostic
from dtypelint.engine import DecodedSource, read_source
from dtypelint.fixer import fix_source

# Folders a run never needs and that can be huge: VCS data, caches, virtual environments.
_SKIPPED_DIRS = frozenset(
    {".git", ".hg", ".svn", "__pycache__", "node_modules", ".tox", ".nox", ".eggs"}
)
# Bigger files (datasets, checkpoints) are linked, not copied: the patched side only reads them.
_LINK_ABOVE_BYTES = 1 << 20


def display_path(path: Path) -> str:
    """How a file is named in reports: relative to the current folder when under it."""
    absolute = Path(os.path.abspath(path))
    try:
        return absolute.relative_to(Path.cwd()).as_posix()
    except ValueError:
        return absolute.as_posix()


@dataclass(frozen=True)
class Example:
    file: Path  # absolute path of the file in the user's tree
    name: str

    @property
    def id(self) -> str:
        return f"{display_path(self.file)}:{self.name}"


def example_names(path: Path) -> list[str]:
    """Module-level functions named `example` or `example_*` in `path` (empty if unparsable)."""
    decoded = read_source(path)
    if not isinstance(decoded, DecodedSource):
        return []
    try:
        module = ast.parse(decoded.text, filename=str(path))
    except SyntaxError:
        return []
    return [
        node.name
        for node in module.body
        if isinstance(node, ast.FunctionDef)
        and (node.name == "example" or node.name.startswith("example_"))
    ]


def find_examples(files: Iterable[Path]) -> list[Example]:
    examples = []
    for path in files:
        absolute = Path(os.path.abspath(path))
        examples.extend(Example(absolute, name) for name in example_names(absolute))
    return examples


def configured_example_files(patterns: Sequence[str], root: Path) -> list[Path]:
    """`[tool.dtypelint.verify] examples`: paths or glob patterns relative to the project root."""
    files: list[Path] = []
    for pattern in patterns:
        if any(char in pattern for char in "*?["):
            files.extend(sorted(root.glob(pattern)))
        else:
            files.append(root / pattern)
    return files


@dataclass
class PatchedTree:
    """A copy of the project root with the fixes `--fix` would make applied to the PATH files."""

    original_root: Path
    root: Path
    applied: dict[Path, list[Diagnostic]] = field(default_factory=dict)  # original file -> fixes
    outside_root: list[Path] = field(default_factory=list)  # PATH files that could not be patched

    @property
    def changed(self) -> bool:
        return bool(self.applied)

    def map(self, original: Path) -> Path:
        """Where a file of the user's tree lives in the patched copy (itself when outside)."""
        try:
            relative = Path(os.path.abspath(original)).relative_to(self.original_root)
        except ValueError:
            return original
        return self.root / relative


def build_patched_tree(
    project_root: Path, files: Sequence[Path], config: Config, unsafe: bool, destination: Path
) -> PatchedTree:
    """Copy `project_root` to `destination` and write the fixed text of `files` there."""
    project_root = Path(os.path.abspath(project_root))
    copy_tree(project_root, destination)
    tree = PatchedTree(project_root, destination)
    for path in files:
        absolute = Path(os.path.abspath(path))
        target = tree.map(absolute)
        if target == absolute:
            tree.outside_root.append(absolute)
            continue
        fixed = fixed_source(absolute, config, unsafe)
        if fixed is None:
            continue
        decoded, text, applied = fixed
        target.parent.mkdir(parents=True, exist_ok=True)
        if target.is_symlink():
            target.unlink()
        data = text.encode(decoded.encoding)
        target.write_bytes((b"\xef\xbb\xbf" if decoded.bom else b"") + data)
        tree.applied[absolute] = applied
    return tree


def fixed_source(
    path: Path, config: Config, unsafe: bool
) -> tuple[DecodedSource, str, list[Diagnostic]] | None:
    """(decoded original, fixed text, fixes applied), or None when nothing changes."""
    try:
        decoded = read_source(path)
    except OSError:
        return None
    if not isinstance(decoded, DecodedSource):
        return None
    result = fix_source(decoded.text, filename=display_path(path), config=config, unsafe=unsafe)
    if result.source == decoded.text:
        return None
    return decoded, result.source, list(result.applied)


def copy_tree(source: Path, destination: Path) -> None:
    """Copy the project: sources copied (they may be patched), big files linked, caches and
    virtual environments left out. `destination` is skipped if it lies inside `source`."""
    destination.mkdir(parents=True, exist_ok=True)
    skip = Path(os.path.abspath(destination))
    for folder, dirnames, filenames in os.walk(source):
        here = Path(folder)
        target_folder = destination / here.relative_to(source)
        target_folder.mkdir(parents=True, exist_ok=True)
        kept = []
        for name in dirnames:
            path = here / name
            if (
                name in _SKIPPED_DIRS
                or name.endswith("_cache")  # .mypy_cache, .pytest_cache, .ruff_cache
                or path == skip
                or (path / "pyvenv.cfg").exists()
            ):
                continue
            if path.is_symlink():  # os.walk does not enter linked folders: link them too
                _link(path, target_folder / name)
                continue
            kept.append(name)
        dirnames[:] = kept
        for name in filenames:
            _copy_file(here / name, target_folder / name)


def _copy_file(source: Path, target: Path) -> None:
    try:
        big = source.stat().st_size > _LINK_ABOVE_BYTES
    except OSError:
        return  # a dangling link or an unreadable file: nothing an example could import
    if (source.is_symlink() or big) and _link(source, target):
        return
    with contextlib.suppress(OSError):  # sockets and the like
        shutil.copy2(source, target)


def _link(source: Path, target: Path) -> bool:
    try:
        target.symlink_to(source.resolve(), target_is_directory=source.is_dir())
    except OSError:  # no symlinks here (Windows without the privilege)
        return False
    return True
