"""The content cache (dtypelint/cache.py): results are reused only while nothing they depend on
has changed, a damaged entry is a miss, and every result equals the one computed without it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from support import FIXLOG, ROOT, git

import dtypelint
import dtypelint.cli_check
import dtypelint.engine
from dtypelint import cache as cache_module
from dtypelint.cli import main

HELPER_CAMERA = 'import torch\n\n\ndef get_matrix(batch):\n    return batch["cam2world"][:, :3]\n'
HELPER_PLAIN = HELPER_CAMERA.replace("cam2world", "features")
CALLER = """\
import torch
from torch import nn

from pkg.helpers import get_matrix


class Head(nn.Module):
    def forward(self, batch, feats: torch.Tensor):
        M = get_matrix(batch)
        return feats @ M.mT
"""
OTHER = "import torch\n\n\ndef scale(x: torch.Tensor):\n    return x * torch.zeros(3)\n"


@pytest.fixture
def cached(
    in_tmp: Path, monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> Path:
    """The cache on (whatever the suite's mode), in a folder of its own, each run run once."""
    monkeypatch.delenv("DTYPELINT_NO_CACHE", raising=False)
    monkeypatch.setenv("DTYPELINT_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
    monkeypatch.setattr(dtypelint.cli_check, "lint_paths", dtypelint.engine.lint_paths)
    return in_tmp


@pytest.fixture
def computed(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, bool]]:
    """Every analysis the runs make: (file, with the project's summaries)."""
    calls: list[tuple[str, bool]] = []
    real = dtypelint.engine._process_decoded

    def counting(decoded: Any, filename: str, config: Any, options: Any) -> Any:
        calls.append((filename, _has_table(options)))
        return real(decoded, filename, config, options)

    monkeypatch.setattr(dtypelint.engine, "_process_decoded", counting)
    return calls


def _has_table(options: Any) -> bool:
    table = options.project_summaries
    inner = getattr(table, "table", table)
    return bool(inner)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def uncached(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    return run(capsys, "--no-cache", *args)


def write_project(root: Path, helper: str = HELPER_CAMERA) -> None:
    (root / "pkg").mkdir(exist_ok=True)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "helpers.py").write_text(helper)
    (root / "pkg" / "model.py").write_text(CALLER)
    (root / "pkg" / "other.py").write_text(OTHER)


CONCISE = ("--output-format", "concise", ".")


# --- what is analysed again --------------------------------------------------------------------


def test_editing_a_helper_rechecks_its_callers_and_nothing_else(
    cached: Path, computed: list[tuple[str, bool]], capsys: pytest.CaptureFixture[str]
) -> None:
    write_project(cached)
    first = run(capsys, *CONCISE)
    assert "pkg/model.py:10:24: DTL002" in first[1]
    assert ("pkg/model.py", True) in computed  # phase 2: the helper's summary reached it
    assert first == uncached(capsys, *CONCISE)
    computed.clear()

    assert run(capsys, *CONCISE) == first
    assert computed == []  # nothing changed, nothing analysed

    # The helper no longer returns a camera value: the caller's finding disappears. Only the
    # helper is analysed: the caller's own result never asked about a summary.
    (cached / "pkg" / "helpers.py").write_text(HELPER_PLAIN)
    computed.clear()
    second = run(capsys, *CONCISE)
    assert computed == [("pkg/helpers.py", False)]
    assert "DTL002" not in second[1] and "pkg/other.py" in second[1]
    assert second == uncached(capsys, *CONCISE)

    # And back: the finding appears again; the caller's result with that summary is still there.
    (cached / "pkg" / "helpers.py").write_text(HELPER_CAMERA)
    computed.clear()
    assert run(capsys, *CONCISE) == first
    assert computed == [("pkg/helpers.py", False)]

    # A change to the helper that keeps its summary: its callers are not analysed again.
    (cached / "pkg" / "helpers.py").write_text(HELPER_CAMERA + "\n\nTOLERANCE = 1e-6\n")
    computed.clear()
    assert run(capsys, *CONCISE) == first
    assert computed == [("pkg/helpers.py", False)]


COORDINATES = """
import torch


def generate_coordinate(sizes, device="cuda"):
    x = torch.linspace(-1, 1, sizes[-1], device=device){dtype}
    y = torch.linspace(-1, 1, sizes[-2], device=device){dtype}
    yy, xx = torch.meshgrid(y, x, indexing="ij")
    return torch.stack([xx, yy])[None].expand(sizes[0], 2, -1, -1)
"""

HEAD = """
import torch
from torch import nn

from .utils import generate_coordinate


class Head(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(6, 4, 1)

    def forward(self, feat):
        coords = generate_coordinate(feat.size(), feat.device)
        return self.conv(torch.cat([feat, coords], 1))
"""


def test_a_helper_reexported_by_a_package_reaches_its_callers(
    cached: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`from .utils import f` where `utils/__init__.py` re-exports `utils/misc.py`'s `f` (mmdet's
    generate_coordinate): the float32 grid it returns meets the caller's features there. Fixing
    the helper makes the caller's finding go, through the cache too."""
    (cached / "pkg" / "utils").mkdir(parents=True)
    (cached / "pkg" / "__init__.py").write_text("")
    (cached / "pkg" / "utils" / "__init__.py").write_text("from .misc import generate_coordinate\n")
    (cached / "pkg" / "utils" / "misc.py").write_text(COORDINATES.format(dtype=""))
    (cached / "pkg" / "head.py").write_text(HEAD)
    first = run(capsys, *CONCISE)
    assert (
        "pkg/head.py:14:18: DTL001 [*] generate_coordinate(...) returns a float32 tensor"
        " (torch.linspace(...) on line 6 has no dtype=) but meets 'feat';"
        " cast it with .to(feat.dtype)"
    ) in first[1]
    assert first == uncached(capsys, *CONCISE)
    (cached / "pkg" / "utils" / "misc.py").write_text(
        COORDINATES.format(dtype=".to(torch.float16)")
    )
    second = run(capsys, *CONCISE)
    assert "pkg/head.py" not in second[1]
    assert second == uncached(capsys, *CONCISE)


def test_a_caller_edited_while_its_helper_is_unchanged(
    cached: Path, computed: list[tuple[str, bool]], capsys: pytest.CaptureFixture[str]
) -> None:
    write_project(cached)
    run(capsys, *CONCISE)
    (cached / "pkg" / "model.py").write_text(CALLER.replace("M.mT", "M.mT.to(feats.dtype)"))
    computed.clear()
    code, out, err = run(capsys, *CONCISE)
    assert "DTL002" not in out and "pkg/other.py" in out
    assert {name for name, _ in computed} == {"pkg/model.py"}
    assert (code, out, err) == uncached(capsys, *CONCISE)


def test_results_with_the_cache_cold_and_warm_equal_those_without(
    cached: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every format's bytes, on the fix log and both evaluation sets."""
    for name, source in [
        ("fixlog", FIXLOG / "before"),
        ("labelled", ROOT / "evaluation" / "labelled"),
        ("blind_v2", ROOT / "evaluation" / "blind_v2"),
    ]:
        shutil.copytree(source, cached / name)
    for args in (
        ("--output-format", "json"),
        ("--output-format", "full", "--show-fixes"),
        ("--statistics",),
        ("--diff",),
        ("--diff", "--unsafe-fixes"),
    ):
        expected = uncached(capsys, *args, ".")
        assert run(capsys, *args, ".") == expected, args  # cold
        assert run(capsys, *args, ".") == expected, args  # warm


def test_fix_from_a_cached_check_writes_the_same_bytes(
    cached: Path, capsys: pytest.CaptureFixture[str], tmp_path_factory: pytest.TempPathFactory
) -> None:
    reference = tmp_path_factory.mktemp("reference")
    shutil.copytree(FIXLOG / "before", reference / "tree")
    shutil.copytree(FIXLOG / "before", cached / "tree")
    os.chdir(reference)
    expected = uncached(capsys, "--fix", "--unsafe-fixes", "tree")
    os.chdir(cached)
    run(capsys, "tree")  # the check's results are stored
    run(capsys, "--diff", "--unsafe-fixes", "tree")  # and the diff's
    assert run(capsys, "--fix", "--unsafe-fixes", "tree") == expected
    for file in sorted((reference / "tree").rglob("*.py")):
        relative = file.relative_to(reference)
        assert (cached / relative).read_bytes() == file.read_bytes(), relative
    assert run(capsys, "--fix", "--unsafe-fixes", "tree")[0] == 0  # nothing left to fix


def test_a_diff_from_the_cache_is_the_same_diff(
    cached: Path, computed: list[tuple[str, bool]], capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copytree(FIXLOG / "before", cached / "tree")
    first = run(capsys, "--diff", "tree")
    assert first[0] == 1 and "+++ tree/models/pixel_aligned.py" in first[1]
    computed.clear()
    assert run(capsys, "--diff", "tree") == first
    assert computed == []
    assert run(capsys, "--diff", "--unsafe-fixes", "tree") == uncached(
        capsys, "--diff", "--unsafe-fixes", "tree"
    )


def test_settings_that_change_results_are_part_of_the_key(
    cached: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_project(cached)
    variants = [
        (),
        ("--ignore", "DTL002"),
        ("--select", "DTL001"),
        ("--config", 'per-file-ignores = { "pkg/other.py" = ["DTL001"] }'),
        ("--config", 'camera-names = ["Q"]'),
        ("--config", 'scope = "all"'),
        ("--ignore-noqa",),
        ("--unfixable", "DTL002"),
    ]
    expected = [uncached(capsys, *CONCISE, *args) for args in variants]
    assert len({out for _, out, _ in expected}) >= 4  # the settings do change results
    for _ in range(2):
        assert [run(capsys, *CONCISE, *args) for args in variants] == expected


def test_a_new_version_of_dtypelint_analyses_again(
    cached: Path,
    computed: list[tuple[str, bool]],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    write_project(cached)
    run(capsys, *CONCISE)
    computed.clear()
    run(capsys, *CONCISE)
    assert computed == []
    monkeypatch.setattr(dtypelint, "__version__", "99.0.0")
    run(capsys, *CONCISE)
    assert len(computed) == 5  # four files, and the caller again with the summaries


def test_a_package_above_a_file_changes_its_module_name_and_result(
    cached: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`pkg.helpers` is found while `src/` is not a package; once it is, the module is
    `src.pkg.helpers`, the import no longer names it, and the finding goes."""
    (cached / "src").mkdir()
    write_project(cached / "src")
    args = ("--output-format", "concise", "src")
    first = run(capsys, *args)
    assert "DTL002" in first[1] and first == uncached(capsys, *args)
    (cached / "src" / "__init__.py").write_text("")
    second = run(capsys, *args)
    assert "DTL002" not in second[1] and second == uncached(capsys, *args)


def test_the_same_text_under_two_names_has_two_entries(
    cached: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (cached / "a.py").write_text(OTHER)
    (cached / "b.py").write_text(OTHER)
    out = run(capsys, *CONCISE)[1]
    assert "a.py:5:16: DTL001" in out and "b.py:5:16: DTL001" in out
    assert run(capsys, *CONCISE)[1] == out


# --- damaged entries -----------------------------------------------------------------------------
#
# Entries are lines of shard files (one per source folder): `name-hash checksum json`.


def _truncate(data: bytes) -> bytes:
    return data[: len(data) // 2]


def _each_line(change: Callable[[bytes], bytes]) -> Callable[[bytes], bytes]:
    """Apply `change` to every entry line of a shard (its header kept)."""

    def apply(data: bytes) -> bytes:
        header, _, body = data.partition(b"\n")
        lines = [change(line) if line else line for line in body.split(b"\n")]
        return header + b"\n" + b"\n".join(lines)

    return apply


def _flip(line: bytes) -> bytes:
    position = len(line) - 20
    return line[:position] + bytes([line[position] ^ 0x01]) + line[position + 1 :]


def _resealed(outcome: Any) -> Callable[[bytes], bytes]:
    """A well-formed line (right checksum, right key) holding `outcome` as the result."""

    def change(line: bytes) -> bytes:
        name, _, rest = line.partition(b" ")
        body = json.loads(rest.partition(b" ")[2])
        body["variants"] = [{"mode": "check", "all": None, "deps": [], "outcome": outcome}]
        text = json.dumps(body).encode()
        return name + b" " + cache_module._hash(text).encode() + b" " + text

    return change


CORRUPTIONS: dict[str, Callable[[bytes], bytes]] = {
    "truncated": _truncate,
    "each line cut": _each_line(lambda line: line[: len(line) * 2 // 3]),
    "one bit flipped in each line": _each_line(_flip),
    "empty": lambda data: b"",
    "garbage": lambda data: os.urandom(300),
    "another format": lambda data: b"dtypelint-cache 7\n" + data.partition(b"\n")[2],
    "only the header": lambda data: data.split(b"\n", 1)[0] + b"\n",
    "a function to call": _each_line(
        _resealed({"c": "os:system", "f": [["command", "touch pwned"]]})
    ),
    "a function, not a class": _each_line(_resealed({"c": "dtypelint.engine:lint_paths", "f": []})),
    "a list for a result": _each_line(_resealed([1, 2, 3])),
    "a class that is not a result": _each_line(
        _resealed({"c": "dtypelint.diagnostics:Location", "f": [["row", 1], ["column", 1]]})
    ),
}


def entries(folder: Path) -> list[Path]:
    """The shard files of a cache folder."""
    return sorted(path for path in (folder / "v2").iterdir() if not path.name.startswith("."))


@pytest.mark.parametrize("corruption", sorted(CORRUPTIONS))
def test_a_damaged_entry_is_a_miss(
    cached: Path,
    computed: list[tuple[str, bool]],
    capsys: pytest.CaptureFixture[str],
    corruption: str,
) -> None:
    write_project(cached)
    expected = run(capsys, *CONCISE)
    folder = Path(os.environ["DTYPELINT_CACHE_DIR"])
    for shard in entries(folder):
        shard.write_bytes(CORRUPTIONS[corruption](shard.read_bytes()))
    computed.clear()
    assert run(capsys, *CONCISE) == expected
    if corruption != "truncated":  # half a shard keeps the lines before the cut
        assert len(computed) == 5  # every file analysed again
    assert computed
    assert not (cached / "pwned").exists()
    computed.clear()
    assert run(capsys, *CONCISE) == expected  # the entries were written again, whole
    assert computed == []


def test_an_entry_that_is_a_folder_or_a_cache_folder_that_is_a_file(
    cached: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    write_project(cached)
    expected = uncached(capsys, *CONCISE)
    folder = Path(os.environ["DTYPELINT_CACHE_DIR"])
    assert run(capsys, *CONCISE) == expected
    for entry in entries(folder):
        entry.unlink()
        entry.mkdir()
    assert run(capsys, *CONCISE) == expected
    (cached / "a_file").write_text("")
    monkeypatch.setenv("DTYPELINT_CACHE_DIR", str(cached / "a_file" / "cache"))
    assert run(capsys, *CONCISE) == expected


def test_leftovers_of_an_interrupted_write_are_ignored(
    cached: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_project(cached)
    expected = run(capsys, *CONCISE)
    folder = Path(os.environ["DTYPELINT_CACHE_DIR"]) / "v2"
    for shard in entries(folder.parent):
        (folder / f".{shard.name}.123.abc.tmp").write_bytes(_truncate(shard.read_bytes()))
        shard.write_bytes(_truncate(shard.read_bytes()))
    assert run(capsys, *CONCISE) == expected


def test_concurrent_runs_share_the_cache_safely(tmp_path: Path) -> None:
    """Runs writing the same entries at once: every run's output is the uncached one."""
    write_project(tmp_path)
    env = {**os.environ, "DTYPELINT_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("DTYPELINT_NO_CACHE", None)
    command = [sys.executable, "-m", "dtypelint", "check", "--output-format", "concise", "."]
    expected = subprocess.run(
        [*command, "--no-cache"], cwd=tmp_path, capture_output=True, text=True, env=env
    ).stdout
    for _ in range(3):
        shutil.rmtree(tmp_path / "cache", ignore_errors=True)
        runs = [
            subprocess.Popen(command, cwd=tmp_path, stdout=subprocess.PIPE, text=True, env=env)
            for _ in range(4)
        ]
        assert [process.communicate()[0] for process in runs] == [expected] * 4
    again = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, env=env)
    assert again.stdout == expected


# --- where the cache lives -----------------------------------------------------------------------


@pytest.fixture
def default_location(cached: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("DTYPELINT_CACHE_DIR")
    return cached


def test_the_cache_is_in_the_project_root_and_ignores_itself(
    default_location: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = default_location
    (root / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    write_project(root)
    git(root, "init", "-q")
    run(capsys, *CONCISE)
    os.chdir(root / "pkg")
    run(capsys, "--output-format", "concise", "model.py")
    folder = root / ".dtypelint_cache"
    assert (folder / ".gitignore").read_text().splitlines()[-1] == "*"
    assert (
        (folder / "CACHEDIR.TAG")
        .read_text()
        .startswith("Signature: 8a477f597d28d172789f06886806bc55")
    )
    assert len(entries(folder)) == 2  # pkg/ from the root, and . from pkg/
    assert not (root / "pkg" / ".dtypelint_cache").exists()
    assert ".dtypelint_cache" not in git(root, "status", "--porcelain", "--untracked-files=all")


def test_cache_dir_setting_environment_and_option(
    default_location: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = default_location
    (root / "pyproject.toml").write_text('[tool.dtypelint]\ncache-dir = "build/lint-cache"\n')
    write_project(root)
    run(capsys, *CONCISE)
    assert entries(root / "build" / "lint-cache")
    assert not (root / ".dtypelint_cache").exists()
    monkeypatch.setenv("DTYPELINT_CACHE_DIR", "from-env")
    run(capsys, *CONCISE)
    assert entries(root / "from-env")
    run(capsys, "--cache-dir", "from-option", *CONCISE)
    assert entries(root / "from-option")
    code, out, _ = run(capsys, "config", "cache-dir")
    assert code == 0 and "DTYPELINT_CACHE_DIR" in out


@pytest.mark.parametrize("how", ["--no-cache", "-n", "DTYPELINT_NO_CACHE"])
def test_no_cache_reads_and_writes_nothing(
    default_location: Path,
    computed: list[tuple[str, bool]],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    how: str,
) -> None:
    write_project(default_location)
    run(capsys, *CONCISE)
    computed.clear()
    if how.startswith("-"):
        run(capsys, how, *CONCISE)
    else:
        monkeypatch.setenv(how, "1")
        run(capsys, *CONCISE)
    assert len(computed) == 5
    shutil.rmtree(default_location / ".dtypelint_cache")
    if how.startswith("-"):
        run(capsys, how, *CONCISE)
    else:
        run(capsys, *CONCISE)
    assert not (default_location / ".dtypelint_cache").exists()


def test_standard_input_is_not_cached(
    default_location: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(OTHER.encode())))
    assert run(capsys, "--output-format", "concise", "-")[0] == 1
    assert not (default_location / ".dtypelint_cache").exists()


def test_show_settings_names_the_cache(
    default_location: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_project(default_location)
    out = run(capsys, "--show-settings", "pkg/model.py")[1]
    assert f'cache_dir = "{default_location / ".dtypelint_cache"}"' in out
    assert (
        run(capsys, "--show-settings", "--no-cache", "pkg/model.py")[1].count("cache_dir = none")
        == 1
    )


# --- the parts -----------------------------------------------------------------------------------


def test_outcomes_survive_encoding(cached: Path) -> None:
    """Every outcome of the fix log and an evaluation set, fixed or not, decodes equal."""
    from dtypelint.config import Config
    from dtypelint.engine import discover_files, lint_paths

    shutil.copytree(FIXLOG / "before", cached / "tree")
    shutil.copytree(ROOT / "evaluation" / "labelled", cached / "labelled")
    files = discover_files(["."], Config())
    for options in ({}, {"diff": True, "unsafe": True}):
        for outcome in lint_paths(files, Config(), jobs=1, **options):
            encoded = json.loads(json.dumps(cache_module.encode(outcome)))
            assert cache_module.decode(encoded) == outcome
            again = cache_module.decode(encoded)
            assert [d.details for d in again.diagnostics] == [
                d.details for d in outcome.diagnostics
            ]


def test_the_recording_table_remembers_every_question() -> None:
    table = cache_module.RecordingTable({"pkg.a.f": "summary"})
    assert table.get("pkg.a.f") == "summary" and table.get("pkg.b.g") is None
    assert "pkg.c.h" not in table and table.nonempty is None
    empty = cache_module.RecordingTable({})
    assert not empty and empty.nonempty is False and bool(table) and table.nonempty
    with pytest.raises(KeyError):
        table["pkg.d.i"]
    assert table.asked == {"pkg.a.f": "summary", "pkg.b.g": None, "pkg.c.h": None, "pkg.d.i": None}
    assert not table.everything
    list(table)
    assert table.everything


def test_the_file_layout_is_part_of_the_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What module_name_for reads: the resolved folder and the `__init__.py` files above."""
    from dtypelint.config import Config

    monkeypatch.chdir(tmp_path)
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "m.py").write_text("")

    def layout() -> str:
        fresh = cache_module.Cache.for_run(tmp_path / "c", Config(), ())
        return fresh._layout("pkg/m.py")

    before = layout()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    with_package = layout()
    (tmp_path / "__init__.py").write_text("")
    assert len({before, with_package, layout()}) == 3
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "m.py").write_text("")
    (tmp_path / "pkg" / "m.py").unlink()
    (tmp_path / "pkg" / "m.py").symlink_to(tmp_path / "elsewhere" / "m.py")
    assert layout() != with_package


def test_results_that_looked_at_the_whole_table_or_whether_it_is_empty(tmp_path: Path) -> None:
    """An analysis that iterates the summaries, or tests them for emptiness, depends on that."""
    from dtypelint.analysis.values import Summary
    from dtypelint.config import Config
    from dtypelint.engine import FileOutcome, RunOptions
    from dtypelint.linter import DecodedSource

    cache = cache_module.Cache.for_run(tmp_path / "cache", Config(), ())
    decoded = DecodedSource("x = 1\n", "utf-8")
    computed: list[str] = []

    def compute(decoded: Any, filename: str, config: Any, options: Any) -> FileOutcome:
        table = options.project_summaries
        note = f"{len(table)} summaries" if table else "no summaries"
        computed.append(note)
        return FileOutcome(filename, warnings=[note])

    def run(table: dict[str, Any] | None) -> list[str]:
        options = RunOptions(project_summaries=table)
        return cache.outcome(decoded, "m.py", Config(), options, compute).warnings

    one = {"pkg.a.f": Summary(numpy=True)}
    two = {**one, "pkg.b.g": Summary(cameras=("K",))}
    assert [run(None), run(one), run(two)] == [["no summaries"], ["1 summaries"], ["2 summaries"]]
    assert [run(None), run(one), run(two), run({})] == [
        ["no summaries"],
        ["1 summaries"],
        ["2 summaries"],
        ["no summaries"],
    ]
    assert computed == ["no summaries", "1 summaries", "2 summaries"]  # the rest were stored
    changed = {**one, "pkg.b.g": Summary(cameras=("intrinsics",))}
    assert run(changed) == ["2 summaries"] and len(computed) == 4  # same length, new table
