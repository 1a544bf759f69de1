"""Help, and the small commands: `version`, `config`, `rule --output-format json`, `help`."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import click
import pytest

from dtypelint import __version__
from dtypelint.cli import _one_line, main

SECTIONS = [
    "Commands:",
    "Arguments:",
    "Rule selection:",
    "Fix behaviour:",
    "Output:",
    "File selection:",
    "Miscellaneous:",
    "Log levels:",
    "Global options:",
]
#: Every option the issue lists, as a ruff user types it.
RUFF_OPTIONS = [
    "-q, --quiet",
    "-s, --silent",
    "-v, --verbose",
    "-o, --output-file FILE",
    "--exclude PATTERNS",
    "--extend-exclude PATTERNS",
    "--fix-only / --no-fix-only",
    "--fix / --no-fix",
    "--ignore-noqa",
    "--show-files",
    "--show-settings",
    "--isolated",
    "--unfixable CODES",
    "--extend-unfixable CODES",
    "-n, --no-cache",
    "-w, --watch",
    "--config CONFIG_OPTION",
    "--output-format FORMAT",
]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def section(help_text: str, name: str) -> list[str]:
    lines = help_text.splitlines()
    start = lines.index(name) + 1
    end = next(
        (i for i in range(start, len(lines)) if lines[i] and not lines[i][0].isspace()), None
    )
    return [line for line in lines[start:end] if line.strip()]


def test_top_level_help_lists_commands_and_the_default_commands_options_by_section(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "--help")
    assert (code, err) == (0, "")
    assert out.startswith(
        "Usage: dtypelint [OPTIONS] [PATH]...\n       dtypelint COMMAND [ARGS]...\n"
    )
    headings = [line for line in out.splitlines() if line and not line[0].isspace()][1:]
    assert headings == SECTIONS
    # Each command with its whole one-line description, none cut off.
    commands = {line.split()[0]: line.split(None, 1)[1] for line in section(out, "Commands:")}
    assert commands == {
        "check": "Check files or folders for dtype hazards (the default command)",
        "config": "List or describe the available configuration options",
        "help": "Print this message or the help of the given command",
        "rule": "Explain a rule (or all rules)",
        "trace": "Record a command's mixed-dtype torch calls (needs torch)",
        "verify": "Prove the fixes at runtime, before and after (needs torch)",
        "version": "Display dtypelint's version",
    }
    for option in RUFF_OPTIONS:
        assert re.search(rf"^  {re.escape(option)}(  |$)", out, flags=re.MULTILINE), option
    assert "-V, --version" in "\n".join(section(out, "Global options:"))
    assert "-q, --quiet" in "\n".join(section(out, "Log levels:"))
    assert "--select CODES" in "\n".join(section(out, "Rule selection:"))
    assert "--exclude PATTERNS" in "\n".join(section(out, "File selection:"))
    assert "-w, --watch" in "\n".join(section(out, "Miscellaneous:"))
    # Every option has a description (--config and --output-format had none).
    from dtypelint.cli import check

    undocumented = [p.name for p in check.params if isinstance(p, click.Option) and not p.help]
    assert undocumented == []


def test_check_help_is_grouped_the_same_way(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", "--help")
    assert code == 0
    assert out.startswith("Usage: dtypelint check [OPTIONS] [PATH]...\n")
    headings = [line for line in out.splitlines() if line and not line[0].isspace()][1:]
    assert headings == SECTIONS[1:]
    assert run(capsys, "check", "-h")[1] == out
    assert run(capsys, "help", "check")[1] == out


def test_help_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "help")[1] == run(capsys, "--help")[1]
    assert run(capsys, "help", "chekc") == (
        2,
        "",
        "error: unknown command `chekc`; did you mean `check`?\n",
    )


def test_version_command_and_flags(capsys: pytest.CaptureFixture[str]) -> None:
    expected = (0, f"dtypelint {__version__}\n", "")
    assert run(capsys, "--version") == expected
    assert run(capsys, "-V") == expected
    assert run(capsys, "version") == expected
    code, out, _ = run(capsys, "version", "--output-format", "json")
    assert (code, json.loads(out)) == (0, {"version": __version__, "commit_info": None})


def test_config_command(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "config")
    assert code == 0
    assert out.splitlines() == [
        "select",
        "ignore",
        "extend-select",
        "per-file-ignores",
        "exclude",
        "extend-exclude",
        "camera-names",
        "extend-camera-names",
        "unsafe-fixes",
        "scope",
        "unfixable",
        "output-format",
        "max-file-size",
        "cache-dir",
        "verify",
    ]
    assert run(capsys, "config", "verify")[1] == "examples\ndevice\ndtype\ntimeout\n"
    code, out, _ = run(capsys, "config", "unsafe-fixes")
    assert code == 0
    assert out.endswith(
        "\n\nDefault value: unset (false)\nType: bool\nExample usage:\n"
        "```toml\nunsafe-fixes = true\n```\n"
    )
    code, out, _ = run(capsys, "config", "verify.device", "--output-format", "json")
    assert json.loads(out) == {
        "doc": "Where `dtypelint verify` runs: `cuda`, `cpu`, or `auto` (CUDA with compute\n"
        "capability 8.0 or newer, else the CPU).",
        "default": '"auto"',
        "value_type": '"auto" | "cuda" | "cpu"',
        "scope": None,
        "example": 'device = "cpu"',
        "deprecated": None,
    }
    code, out, _ = run(capsys, "config", "--output-format", "json")
    assert "verify.timeout" in json.loads(out) and "select" in json.loads(out)
    assert run(capsys, "config", "selct") == (
        2,
        "",
        "error: unknown configuration key `selct`; did you mean `select`?\n",
    )


def test_every_setting_the_loader_knows_is_documented() -> None:
    from dtypelint import config, config_docs

    assert set(config_docs.top_level_keys()) == set(config._TOP_KEYS)
    assert set(config_docs.sub_keys("verify")) == set(config._VERIFY_KEYS)


def test_rule_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    from dtypelint.docs import rule_page

    code, out, err = run(capsys, "rule", "DTL001", "--output-format", "json")
    assert (code, err) == (0, "")
    document = json.loads(out)
    assert list(document)[:9] == [
        "name",
        "code",
        "linter",
        "summary",
        "message_formats",
        "fix",
        "fix_availability",
        "explanation",
        "preview",
    ]
    assert (document["name"], document["code"], document["linter"]) == (
        "factory-without-dtype",
        "DTL001",
        "dtypelint",
    )
    assert document["fix_availability"] == "Sometimes"
    page = rule_page("DTL001")
    assert page is not None and document["explanation"] == page.split("\n", 1)[1].lstrip("\n")
    io_error = json.loads(run(capsys, "rule", "io-error", "--output-format", "json")[1])
    assert (io_error["code"], io_error["fix_availability"]) == ("DTL900", "None")
    assert io_error["summary"] == "A path that does not exist or cannot be read."
    code, out, _ = run(capsys, "rule", "--all", "--output-format", "json")
    assert [rule["code"] for rule in json.loads(out)] == [
        "DTL000",
        "DTL001",
        "DTL002",
        "DTL003",
        "DTL004",
        "DTL005",
        "DTL900",
        "DTL901",
        "DTL902",
    ]
    assert (
        run(capsys, "--output-format", "json", "rule", "DTL001")[1]
        == run(capsys, "rule", "DTL001", "--output-format", "json")[1]
    )


def test_a_repeated_prefix_is_said_once() -> None:
    assert (
        _one_line("dtypelint verify: dtypelint verify needs PyTorch, which is not installed")
        == "dtypelint verify needs PyTorch, which is not installed"
    )
    assert _one_line("m.py: cannot read") == "m.py: cannot read"


def test_verify_without_torch_is_one_line_naming_the_cpu_build(tmp_path: Path) -> None:
    script = (
        "import sys\n"
        "class NoTorch:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'torch' or name.startswith('torch.'):\n"
        "            raise ImportError(\"No module named 'torch'\", name='torch')\n"
        "sys.meta_path.insert(0, NoTorch())\n"
        "from dtypelint.cli import main\n"
        "sys.exit(main(['verify', '.']))\n"
    )
    completed = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True
    )
    assert (completed.returncode, completed.stdout) == (2, "")
    assert completed.stderr.count("\n") == 1
    assert completed.stderr.startswith("error: ")
    assert "dtypelint verify: dtypelint verify" not in completed.stderr
    assert "torch" in completed.stderr
