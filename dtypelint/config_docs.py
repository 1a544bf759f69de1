"""What every setting means, for `dtypelint config [KEY]` (ruff's `ruff config`)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Setting:
    doc: str
    default: str
    value_type: str
    example: str

    def to_json(self) -> dict[str, object]:
        """ruff's fields for one option."""
        return {
            "doc": self.doc,
            "default": self.default,
            "value_type": self.value_type,
            "scope": None,
            "example": self.example,
            "deprecated": None,
        }

    def text(self) -> str:
        return (
            f"{self.doc}\n\nDefault value: {self.default}\nType: {self.value_type}\n"
            f"Example usage:\n```toml\n{self.example}\n```"
        )


SETTINGS: dict[str, Setting] = {
    "select": Setting(
        "Rule codes, code prefixes (`DTL00`) or rule names to check. `ALL` selects every rule.\n"
        "The most specific selector decides for each rule; on a tie `ignore` wins.",
        "every rule",
        "list[str]",
        'select = ["DTL001", "camera-matmul-uncast"]',
    ),
    "ignore": Setting(
        "Rule codes, prefixes or names not to check.",
        "[]",
        "list[str]",
        'ignore = ["DTL005"]',
    ),
    "extend-select": Setting(
        "Like `select`, but adds to the rules already selected.",
        "[]",
        "list[str]",
        'extend-select = ["DTL004"]',
    ),
    "per-file-ignores": Setting(
        "Rules not to check in the files a glob matches (patterns with a `/` are relative to\n"
        "the project root, patterns without one match any file or folder name).",
        "{}",
        "dict[str, list[str]]",
        'per-file-ignores = { "tests/**" = ["DTL001"] }',
    ),
    "exclude": Setting(
        "Files and folders never walked into (glob patterns); replaces the default list\n"
        "(`.git`, `.venv`, `build`, `dist`, `node_modules`, `site-packages`, ...).",
        "the default excludes (see `dtypelint check --show-settings`)",
        "list[str]",
        'exclude = ["third_party"]',
    ),
    "extend-exclude": Setting(
        "Like `exclude`, but adds to the patterns already excluded.",
        "[]",
        "list[str]",
        'extend-exclude = ["generated/*.py"]',
    ),
    "camera-names": Setting(
        "Names of camera parameters (intrinsics, extrinsics, poses) for DTL002; replaces the\n"
        "default list. Matched case-sensitively, whole or with `_` affixes (`K_inv`).",
        "intrinsics, extrinsics, K, Ks, w2c, c2w, pose, ... (see `--show-settings`)",
        "list[str]",
        'camera-names = ["K", "intrinsics"]',
    ),
    "extend-camera-names": Setting(
        "Like `camera-names`, but adds to the names already known.",
        "[]",
        "list[str]",
        'extend-camera-names = ["cam_mat"]',
    ),
    "unsafe-fixes": Setting(
        "Whether `--fix` also applies the unsafe fixes (those that may change float32 results).\n"
        "Left unset, summaries say how many unsafe fixes are available.",
        "unset (false)",
        "bool",
        "unsafe-fixes = true",
    ),
    "scope": Setting(
        "Where findings are reported. `models`: where low precision runs (an nn.Module's compute\n"
        "methods and what they call, public tensor functions; losses report only what raises;\n"
        "tests, data, plotting and export code are left out). `all`: every tensor-taking function.",
        '"models"',
        '"models" | "all"',
        'scope = "all"',
    ),
    "unfixable": Setting(
        "Rule codes, prefixes or names whose findings are reported but never fixed.",
        "[]",
        "list[str]",
        'unfixable = ["DTL005"]',
    ),
    "output-format": Setting(
        "How findings are printed: `full` (ruff's layout with source and fix preview; `text`\n"
        "is the same), `concise`, `json`, `github`, `sarif` or `junit`.",
        '"full"',
        '"full" | "concise" | "json" | "github" | "sarif" | "junit" | "text"',
        'output-format = "concise"',
    ),
    "max-file-size": Setting(
        "Files larger than this are not read: each is reported as a DTL900 finding (skipped)\n"
        "instead of stalling a run or a pre-commit hook on a data dump. Bytes, or a size with\n"
        "a unit (`KB`, `MB`, `GB`, `KiB`, `MiB`, `GiB`); 0 means no limit.",
        '"64MiB" (67108864 bytes)',
        "int | str",
        'max-file-size = "16MB"',
    ),
    "cache-dir": Setting(
        "Where the cache of results is kept, relative to the project root (the folder of this\n"
        "file). The environment's DTYPELINT_CACHE_DIR and `--cache-dir` win over it;\n"
        "`--no-cache` (or DTYPELINT_NO_CACHE=1) neither reads nor writes it.",
        '".dtypelint_cache"',
        "str",
        'cache-dir = "~/.cache/dtypelint"',
    ),
    "verify.examples": Setting(
        "Files with example functions (`example`, `example_*`) for `dtypelint verify`.",
        "the PATH files themselves",
        "list[str]",
        'examples = ["examples/bf16.py"]',
    ),
    "verify.device": Setting(
        "Where `dtypelint verify` runs: `cuda`, `cpu`, or `auto` (CUDA with compute\n"
        "capability 8.0 or newer, else the CPU).",
        '"auto"',
        '"auto" | "cuda" | "cpu"',
        'device = "cpu"',
    ),
    "verify.dtype": Setting(
        "The low-precision dtype `dtypelint verify` runs: `bfloat16`, `float16`, or `auto`\n"
        "(bfloat16 where supported, float16 on older GPUs).",
        '"auto"',
        '"auto" | "bfloat16" | "float16"',
        'dtype = "bfloat16"',
    ),
    "verify.timeout": Setting(
        "Seconds one example may run before `dtypelint verify` stops it.",
        "120",
        "float",
        "timeout = 300",
    ),
}

#: Tables: a key with sub-keys (`[tool.dtypelint.verify]`).
TABLES = ("verify",)


def top_level_keys() -> list[str]:
    keys: list[str] = []
    for key in SETTINGS:
        top = key.split(".", 1)[0]
        if top not in keys:
            keys.append(top)
    return keys


def sub_keys(table: str) -> dict[str, Setting]:
    prefix = table + "."
    return {key[len(prefix) :]: value for key, value in SETTINGS.items() if key.startswith(prefix)}


def all_keys() -> list[str]:
    return [*top_level_keys(), *(key for key in SETTINGS if "." in key)]
