"""`[tool.dtypelint]` settings: finding, reading and checking them, and rule selection.

Selection follows ruff: a selector is an exact code (`DTL001`), a code prefix (`DTL`, `DTL00`),
a rule name (`factory-without-dtype`) or `ALL`. For each code the most specific matching selector
decides; on a tie `ignore` wins. `select` replaces the default (everything), `extend-select` adds.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Any

from dtypelint.files import DEFAULT_MAX_FILE_SIZE, format_size

if TYPE_CHECKING:
    from types import ModuleType

#: Files read for settings, in order of precedence within one folder.
CONFIG_FILENAMES = (".dtypelint.toml", "dtypelint.toml", "pyproject.toml")
#: Accepted values of `output-format`. `full` is ruff's name for the default layout; `text` is
#: dtypelint's older name for it and stays accepted.
OUTPUT_FORMATS = ("full", "concise", "json", "github", "sarif", "junit", "text")
VERIFY_DEVICES = ("auto", "cuda", "cpu")
VERIFY_DTYPES = ("auto", "bfloat16", "float16")
# Always on unless explicitly ignored: a file we cannot parse (DTL000), read (DTL900), finish
# (DTL901, an internal error) or analyse on this Python (DTL902) is never silently skipped
# because `select` lists other codes.
_ALWAYS_SELECTED_CODES = frozenset({"DTL000", "DTL900", "DTL901", "DTL902"})
_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class ConfigError(Exception):
    """A bad setting; the message is one line naming the file, the key and a suggestion."""


@dataclass(frozen=True)
class Config:
    select: tuple[str, ...] | None = None  # None: every rule
    ignore: tuple[str, ...] = ()
    extend_select: tuple[str, ...] = ()
    per_file_ignores: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    exclude: tuple[str, ...] | None = None  # None: the default excludes (engine.DEFAULT_EXCLUDE)
    extend_exclude: tuple[str, ...] = ()
    # Raw settings; `camera_names` resolves them against analysis.DEFAULT_CAMERA_NAMES.
    camera_names_setting: tuple[str, ...] | None = None
    extend_camera_names: tuple[str, ...] = ()
    unsafe_fixes: bool = False
    #: "models": findings only where low precision runs (module compute methods, what they
    #: call, public tensor functions); "all": every tensor-taking function
    scope: str = "models"
    # Whether `unsafe-fixes` was given at all (file or command line): when it was not, summaries
    # hint at the unsafe fixes available, as ruff's do.
    unsafe_fixes_set: bool = False
    # Selectors whose findings keep no fix (`unfixable`, `--unfixable`, `--extend-unfixable`).
    unfixable: tuple[str, ...] = ()
    ignore_noqa: bool = False  # `--ignore-noqa`: report what noqa comments would silence
    output_format: str = "full"
    #: Files larger than this many bytes are skipped with a DTL900 finding (None: no limit).
    max_file_size: int | None = DEFAULT_MAX_FILE_SIZE
    verify: Mapping[str, Any] = field(default_factory=dict)
    #: `cache-dir`: where the content cache lives (relative to the project root); cache.py
    cache_dir: str | None = None
    project_root: Path | None = None
    config_path: Path | None = None

    @property
    def camera_names(self) -> frozenset[str]:
        """`camera-names` replaces the default list, `extend-camera-names` adds to it."""
        base = self.camera_names_setting
        if base is None:
            base = _default_camera_names()
        return frozenset(base) | frozenset(self.extend_camera_names)

    def selected_codes(self, rule_names: Mapping[str, str] | None = None) -> frozenset[str]:
        """The codes this configuration turns on, out of `rule_names` (code -> name)."""
        names = known_rule_names() if rule_names is None else rule_names
        return _resolve_selection(self.select, self.extend_select, self.ignore, names)

    def codes_for_file(
        self, path: str | PurePath, rule_names: Mapping[str, str] | None = None
    ) -> frozenset[str]:
        """`selected_codes` less what `per-file-ignores` switches off for `path`."""
        names = known_rule_names() if rule_names is None else rule_names
        codes = self.selected_codes(names)
        if not self.per_file_ignores:
            return codes
        parts = relative_parts(path, self.project_root)
        for pattern, selectors in self.per_file_ignores.items():
            if path_matches(pattern, parts):
                codes -= _codes_matched_by(selectors, names)
        return codes

    def unfixable_codes(self, rule_names: Mapping[str, str] | None = None) -> frozenset[str]:
        """The codes whose findings keep no fix (matched like `select`: code, prefix or name)."""
        if not self.unfixable:
            return frozenset()
        names = known_rule_names() if rule_names is None else rule_names
        return _codes_matched_by(self.unfixable, names)

    def with_overrides(
        self,
        *,
        select: Sequence[str] | None = None,
        ignore: Sequence[str] = (),
        extend_select: Sequence[str] = (),
        unsafe_fixes: bool | None = None,
        output_format: str | None = None,
        exclude: Sequence[str] | None = None,
        extend_exclude: Sequence[str] = (),
        unfixable: Sequence[str] | None = None,
        extend_unfixable: Sequence[str] = (),
        ignore_noqa: bool = False,
    ) -> Config:
        """Layer command-line options over the file's settings, as ruff does.

        A command-line `--select` starts the selection afresh (the file's `ignore` and
        `extend-select` no longer apply); `--ignore` and `--extend-select` add to what is there.
        `--exclude` and `--unfixable` replace the file's lists, their `--extend-*` forms add.
        """
        for option, values in (
            ("--select", select or ()),
            ("--ignore", ignore),
            ("--extend-select", extend_select),
            ("--unfixable", unfixable or ()),
            ("--extend-unfixable", extend_unfixable),
        ):
            check_selectors(values, option)
        updated = self
        if select is not None:
            updated = replace(updated, select=tuple(select), ignore=(), extend_select=())
        updated = replace(
            updated,
            ignore=updated.ignore + tuple(ignore),
            extend_select=updated.extend_select + tuple(extend_select),
            extend_exclude=updated.extend_exclude + tuple(extend_exclude),
            unfixable=(updated.unfixable if unfixable is None else tuple(unfixable))
            + tuple(extend_unfixable),
            ignore_noqa=updated.ignore_noqa or ignore_noqa,
        )
        if exclude is not None:
            updated = replace(updated, exclude=tuple(exclude))
        if unsafe_fixes is not None:
            updated = replace(updated, unsafe_fixes=unsafe_fixes, unsafe_fixes_set=True)
        if output_format is not None:
            updated = replace(updated, output_format=output_format)
        return updated


def _default_camera_names() -> tuple[str, ...]:
    # Imported on use: analysis is the heavier module and Config must stay cheap to build.
    from dtypelint.analysis import DEFAULT_CAMERA_NAMES

    return tuple(DEFAULT_CAMERA_NAMES)


def known_rule_names() -> Mapping[str, str]:
    """code -> name for every selectable code (the real registry)."""
    from dtypelint.rules import RULE_NAMES

    return RULE_NAMES


# ---------------------------------------------------------------------------------------------
# Rule selection


def _selector_specificity(selector: str, code: str, name: str) -> int | None:
    """How specifically `selector` names `code` (higher wins), or None when it does not."""
    if selector == "ALL":
        return 0
    if selector in (name, code):
        return len(code) + 1
    if code.startswith(selector):
        return len(selector)
    return None


def _best(selectors: Iterable[str], code: str, name: str) -> int | None:
    scores = [_selector_specificity(s, code, name) for s in selectors]
    matched = [score for score in scores if score is not None]
    return max(matched) if matched else None


def _resolve_selection(
    select: Sequence[str] | None,
    extend_select: Sequence[str],
    ignore: Sequence[str],
    rule_names: Mapping[str, str],
) -> frozenset[str]:
    selectors = ("ALL",) if select is None else tuple(select)
    selectors += tuple(extend_select)
    chosen = set()
    for code, name in rule_names.items():
        chosen_by = _best(selectors, code, name)
        if chosen_by is None and code in _ALWAYS_SELECTED_CODES:
            chosen_by = 0
        ignored_by = _best(ignore, code, name)
        if chosen_by is not None and (ignored_by is None or chosen_by > ignored_by):
            chosen.add(code)
    return frozenset(chosen)


def _codes_matched_by(selectors: Iterable[str], rule_names: Mapping[str, str]) -> frozenset[str]:
    return frozenset(
        code for code, name in rule_names.items() if _best(selectors, code, name) is not None
    )


def _selector_is_known(selector: str, rule_names: Mapping[str, str]) -> bool:
    if selector == "ALL":
        return True
    return any(
        _selector_specificity(selector, code, name) is not None for code, name in rule_names.items()
    )


def check_selectors(selectors: Iterable[str], where: str) -> None:
    """Raise ConfigError for a selector that names no rule, with the closest real one."""
    rule_names = known_rule_names()
    for selector in selectors:
        if not _selector_is_known(selector, rule_names):
            choices = ["ALL", *rule_names, *rule_names.values()]
            raise ConfigError(
                f"unknown rule selector `{selector}` in {where}{_did_you_mean(selector, choices)}"
            )


def _did_you_mean(word: str, choices: Iterable[str]) -> str:
    options = list(choices)
    close = _closest(word, options)
    if close is None and word.upper() != word:
        close = _closest(word.upper(), options)
    return f"; did you mean `{close}`?" if close else ""


_RARE = frozenset({"DTL901", "DTL902"})  # findings about dtypelint itself, seldom meant


def _closest(word: str, choices: Sequence[str], cutoff: float = 0.5) -> str | None:
    """difflib's closest match (ties: the larger name, as difflib), the engine's DTL901 and
    DTL902 losing ties to the other codes (`DTL01` suggests DTL001, not DTL901)."""
    import difflib  # only a mistyped name pays for it

    scored = [
        (difflib.SequenceMatcher(None, word, choice).ratio(), choice not in _RARE, choice)
        for choice in choices
    ]
    scored = [item for item in scored if item[0] >= cutoff]
    return max(scored)[2] if scored else None


# ---------------------------------------------------------------------------------------------
# Path patterns (exclude, extend-exclude, per-file-ignores)


@lru_cache(maxsize=512)
def _glob_regex(pattern: str) -> re.Pattern[str]:
    """Translate a glob to a regex: `*` and `?` stay inside one folder, `**` crosses folders."""
    out: list[str] = []
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        elif pattern[i] == "[" and "]" in pattern[i + 2 :]:
            end = pattern.index("]", i + 2)
            body = pattern[i + 1 : end]
            if body.startswith("!"):
                body = "^" + body[1:]
            out.append("[" + body.replace("\\", "\\\\") + "]")
            i = end + 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out))


def split_pattern(pattern: str) -> tuple[str, bool]:
    """An exclude pattern without `./` and trailing `/`, and whether it names folders only."""
    text = pattern.strip()
    if text.startswith("./"):
        text = text[2:]
    return text.rstrip("/"), text.endswith("/")


def path_matches(pattern: str, parts: Sequence[str], first: int = 0) -> bool:
    """Whether `pattern` matches the path given as `parts` (folders then the file).

    A pattern with a `/` is anchored at the project root and matches the path or any folder above
    it (`src/gen` covers `src/gen/a.py`); a pattern without one matches any single folder or file
    name (`build`, `*_pb2.py`). Names before index `first` (above the folder being walked) are not
    tested against unanchored patterns, so `dtypelint build/` still checks what it is asked to.
    """
    text, dir_only = split_pattern(pattern)
    if not text:
        return False
    regex = _glob_regex(text.lstrip("/"))
    last = len(parts) - 1 if dir_only else len(parts)
    if "/" in text:
        return any(regex.fullmatch("/".join(parts[: k + 1])) for k in range(last))
    return any(regex.fullmatch(parts[k]) for k in range(first, last))


def relative_parts(path: str | PurePath, root: Path | None) -> tuple[str, ...]:
    """`path` as names relative to `root` (or the current folder); absolute when outside it."""
    pure = Path(path)
    base = root if root is not None else Path.cwd()
    absolute = pure if pure.is_absolute() else Path.cwd() / pure
    try:
        return absolute.relative_to(base).parts
    except ValueError:
        return pure.parts if not pure.is_absolute() else absolute.parts[1:]


#: What marks a project's top folder where no configuration file does.
_PROJECT_MARKERS = (".git", "pyproject.toml", "setup.py", "setup.cfg")


def project_parts(path: str | PurePath, root: Path | None) -> tuple[str, ...]:
    """`path`'s folders and name within its project: below `root` (the configuration's), else
    below the nearest folder above it that holds a project marker, else `relative_parts`.
    The folders above a project are none of its own: a checkout in `~/data/` is no data code."""
    pure = Path(path)
    absolute = pure if pure.is_absolute() else Path.cwd() / pure
    if root is not None:
        try:
            return absolute.relative_to(root).parts
        except ValueError:
            pass
    top = _marked_top(absolute.parent)
    if top is not None:
        return absolute.relative_to(top).parts
    return relative_parts(path, root)


@lru_cache(maxsize=1024)
def _marked_top(folder: Path) -> Path | None:
    for candidate in (folder, *folder.parents):
        if any((candidate / marker).exists() for marker in _PROJECT_MARKERS):
            return candidate
    return None


# ---------------------------------------------------------------------------------------------
# Reading settings

_TOP_KEYS = (
    "select",
    "ignore",
    "extend-select",
    "per-file-ignores",
    "exclude",
    "extend-exclude",
    "camera-names",
    "extend-camera-names",
    "unsafe-fixes",
    "unfixable",
    "output-format",
    "scope",
    "max-file-size",
    "cache-dir",
    "verify",
)
#: `scope`: where findings are reported (dtypelint/analysis/scope.py). Kept here as plain strings
#: so that reading a configuration never imports the analysis.
SCOPES = ("models", "all")
_VERIFY_KEYS = ("examples", "device", "dtype", "timeout")


def find_config_file(start: Path) -> tuple[Path | None, Path | None]:
    """(file with dtypelint settings, project root) found walking up from `start`.

    The project root is the folder of the settings file, else of the nearest pyproject.toml.
    A pyproject.toml without `[tool.dtypelint]` is passed over, as ruff passes over one without
    `[tool.ruff]`.
    """
    nearest_pyproject: Path | None = None
    for folder in (start, *start.parents):
        for name in CONFIG_FILENAMES:
            candidate = folder / name
            if not candidate.is_file():
                continue
            if name != "pyproject.toml":
                return candidate, folder
            if nearest_pyproject is None:
                nearest_pyproject = candidate
            if _pyproject_has_section(candidate):
                return candidate, folder
    return None, nearest_pyproject.parent if nearest_pyproject else None


def _pyproject_has_section(path: Path) -> bool:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror or exc}") from None
    if b"dtypelint" not in data:  # cheap test before parsing
        return False
    return "dtypelint" in _tool_table(_read_toml(path), path)


def _tool_table(data: Mapping[str, Any], path: Path) -> Mapping[str, Any]:
    tool = data.get("tool", {})
    if not isinstance(tool, dict):
        raise ConfigError(
            f"{path}: `tool` must be a table (`[tool.dtypelint]`), not {_toml_type(tool)}"
        )
    return tool


def _toml_type(value: Any) -> str:
    names = {bool: "a boolean", int: "an integer", float: "a float", str: "a string"}
    names |= {list: "an array", dict: "a table"}
    return names.get(type(value), "a date or time")


def _tomllib() -> ModuleType:
    """The TOML parser, loaded when a settings file is read (a run without one never needs it)."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on 3.10 only
        import tomli as tomllib
    return tomllib


def _read_toml(path: Path) -> dict[str, Any]:
    """A settings file's TOML; every way it can be broken is one line naming the file."""
    try:
        with path.open("rb") as handle:
            data = handle.read()
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise ConfigError(
            f"{path}: invalid TOML: not UTF-8 (byte 0x{data[exc.start]:02x} on line {line})"
        ) from None
    return parse_toml(text, str(path))


def parse_toml(text: str, where: str) -> dict[str, Any]:
    tomllib = _tomllib()
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{where}: invalid TOML: {exc}") from None
    except (RecursionError, MemoryError):
        raise ConfigError(f"{where}: invalid TOML: nested too deeply to read") from None


def config_start(paths: Sequence[str]) -> Path | None:
    """Where to look for the config: the first PATH (its folder for a file), like ruff, which
    takes the settings nearest to the code it checks; None (the current directory) for stdin."""
    for raw in paths:
        if raw == "-":
            continue
        path = Path(raw)
        if path.is_dir():
            return path
        if path.parent.is_dir():
            return path.parent
    return None


def load_config(
    config_file: Path | None = None,
    start: Path | None = None,
    *,
    isolated: bool = False,
    inline: Mapping[str, Any] | None = None,
) -> Config:
    """Settings from `config_file`, else from the nearest config file above `start` (cwd).

    `isolated` (ruff's `--isolated`) reads no file at all. `inline` holds `--config KEY = VALUE`
    settings; like ruff's, they win over every file.
    """
    path: Path | None
    settings: dict[str, Any]
    if isolated:
        path, root, settings = None, None, {}
    elif config_file is not None:
        path = Path(config_file)
        if not path.is_file():
            raise ConfigError(f"{path}: no such config file")
        settings, root = _settings_in(path, explicit=True), path.resolve().parent
    else:
        folder = Path(start if start is not None else Path.cwd()).resolve()
        path, root = find_config_file(folder)
        settings = _settings_in(path, explicit=False) if path is not None else {}
    if inline:
        _build_config(inline, None, root, where="--config")  # errors name the option, not a file
        settings = _merged(settings, inline)
    if path is None and not inline:
        return Config(project_root=root)
    return _build_config(settings, path, root)


def parse_inline_setting(text: str) -> dict[str, Any]:
    """`--config "unsafe-fixes = true"` -> {"unsafe-fixes": True} (TOML, as in ruff)."""
    tomllib = _tomllib()
    try:
        parsed = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(
            f"--config `{text}`: neither a config file nor a `KEY = VALUE` setting ({exc})"
        ) from None
    except (RecursionError, MemoryError):
        raise ConfigError(f"--config `{text[:40]}...`: nested too deeply to read") from None
    if not parsed:
        raise ConfigError(f"--config `{text}`: neither a config file nor a `KEY = VALUE` setting")
    return parsed


def _merged(settings: Mapping[str, Any], overrides: Mapping[str, Any]) -> dict[str, Any]:
    """`overrides` over `settings`; tables (`verify`, `per-file-ignores`) are merged key by key."""
    result = dict(settings)
    for key, value in overrides.items():
        if isinstance(value, dict) and isinstance(result.get(key), dict):
            result[key] = {**result[key], **value}
        else:
            result[key] = value
    return result


def _settings_in(path: Path, *, explicit: bool) -> dict[str, Any]:
    data = _read_toml(path)
    if path.name != "pyproject.toml":
        return data
    settings = _tool_table(data, path).get("dtypelint")
    if settings is None:
        if explicit:  # an explicit file without our section is surely a mistake
            raise ConfigError(f"{path}: no [tool.dtypelint] section")
        return {}
    if not isinstance(settings, dict):
        raise ConfigError(
            f"{path}: `tool.dtypelint` must be a table ([tool.dtypelint]), not "
            f"{_toml_type(settings)}"
        )
    return settings


def _build_config(
    settings: Mapping[str, Any], path: Path | None, root: Path | None, where: str | None = None
) -> Config:
    pyproject = path is not None and path.name == "pyproject.toml"
    section = "[tool.dtypelint]" if pyproject else ("the setting" if where else "the top level")
    where = f"{where or path}:"
    for key in settings:
        if key not in _TOP_KEYS:
            raise ConfigError(
                f"{where} unknown key `{key}` in {section}{_did_you_mean(key, _TOP_KEYS)}"
            )

    def strings(key: str) -> tuple[str, ...] | None:
        return _string_list(settings, key, where)

    select = strings("select")
    ignore = strings("ignore") or ()
    extend_select = strings("extend-select") or ()
    for key, selectors in (
        ("select", select),
        ("ignore", ignore),
        ("extend-select", extend_select),
    ):
        _check_selectors_at(selectors or (), f"`{key}`", where)

    per_file_ignores = _per_file_ignores(settings.get("per-file-ignores", {}), where)
    camera_names = strings("camera-names")
    extend_camera_names = strings("extend-camera-names") or ()
    for key, names in (
        ("camera-names", camera_names or ()),
        ("extend-camera-names", extend_camera_names),
    ):
        for name in names:
            if not _IDENTIFIER.match(name):
                raise ConfigError(f"{where} `{key}`: `{name}` is not a Python identifier")

    unsafe_fixes = settings.get("unsafe-fixes", False)
    if not isinstance(unsafe_fixes, bool):
        raise ConfigError(f"{where} `unsafe-fixes` must be true or false")
    scope = settings.get("scope", "models")
    if scope not in SCOPES:
        raise ConfigError(
            f"{where} `scope` must be one of {', '.join(SCOPES)}{_did_you_mean(str(scope), SCOPES)}"
        )
    unfixable = strings("unfixable") or ()
    _check_selectors_at(unfixable, "`unfixable`", where)
    output_format = settings.get("output-format", "full")
    if output_format not in OUTPUT_FORMATS:
        raise ConfigError(
            f"{where} `output-format` must be one of {', '.join(OUTPUT_FORMATS)}"
            f"{_did_you_mean(str(output_format), OUTPUT_FORMATS)}"
        )
    max_file_size = _max_file_size(settings, where)
    cache_dir = settings.get("cache-dir")
    if cache_dir is not None and (not isinstance(cache_dir, str) or not cache_dir):
        raise ConfigError(f"{where} `cache-dir` must be a folder name (a string)")
    return Config(
        select=select,
        ignore=ignore,
        extend_select=extend_select,
        per_file_ignores=per_file_ignores,
        exclude=strings("exclude"),
        extend_exclude=strings("extend-exclude") or (),
        camera_names_setting=camera_names,
        extend_camera_names=extend_camera_names,
        unsafe_fixes=unsafe_fixes,
        scope=scope,
        unsafe_fixes_set="unsafe-fixes" in settings,
        unfixable=unfixable,
        output_format=output_format,
        max_file_size=max_file_size,
        verify=_verify_settings(settings.get("verify", {}), where),
        cache_dir=cache_dir,
        project_root=root,
        config_path=path,
    )


_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([KMG]i?B|B)?\s*$", re.IGNORECASE)
_SIZE_UNITS = {"": 1, "b": 1, "kb": 1000, "kib": 1024, "mb": 1000**2, "mib": 1024**2}
_SIZE_UNITS |= {"gb": 1000**3, "gib": 1024**3}


def parse_size(value: Any) -> int | None:
    """`max-file-size`: bytes as an integer, or a string with a unit (`"20MB"`, `"512 KiB"`);
    0 means no limit. None when the value is neither."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if value >= 0 else None
    if isinstance(value, str):
        match = _SIZE.match(value)
        if match:
            return int(float(match.group(1)) * _SIZE_UNITS[(match.group(2) or "").lower()])
    return None


def _max_file_size(settings: Mapping[str, Any], where: str) -> int | None:
    if "max-file-size" not in settings:
        return DEFAULT_MAX_FILE_SIZE
    size = parse_size(settings["max-file-size"])
    if size is None:
        raise ConfigError(
            f'{where} `max-file-size` must be a number of bytes or a size such as "64MB" '
            f"(0: no limit); the default is {format_size(DEFAULT_MAX_FILE_SIZE)}"
        )
    return size or None


def _check_selectors_at(selectors: Sequence[str], key: str, where: str) -> None:
    try:
        check_selectors(selectors, key)
    except ConfigError as exc:
        raise ConfigError(f"{where} {exc}") from None


def _string_list(settings: Mapping[str, Any], key: str, where: str) -> tuple[str, ...] | None:
    if key not in settings:
        return None
    value = settings[key]
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ConfigError(f"{where} `{key}` must be a list of strings")
    return tuple(value)


def _per_file_ignores(value: Any, where: str) -> dict[str, tuple[str, ...]]:
    if not isinstance(value, dict):
        raise ConfigError(f"{where} `per-file-ignores` must be a table of glob = [codes]")
    result: dict[str, tuple[str, ...]] = {}
    for pattern, codes in value.items():
        if not isinstance(codes, list) or not all(isinstance(code, str) for code in codes):
            raise ConfigError(f"{where} `per-file-ignores` `{pattern}` must be a list of codes")
        _check_selectors_at(codes, f"`per-file-ignores` `{pattern}`", where)
        result[pattern] = tuple(codes)
    return result


def _verify_settings(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ConfigError(f"{where} `verify` must be a table ([tool.dtypelint.verify])")
    for key in value:
        if key not in _VERIFY_KEYS:
            raise ConfigError(
                f"{where} unknown key `{key}` in [tool.dtypelint.verify]"
                f"{_did_you_mean(key, _VERIFY_KEYS)}"
            )
    result = dict(value)
    if "examples" in result:
        result["examples"] = list(_string_list(value, "examples", f"{where} verify") or ())
    for key, allowed in (("device", VERIFY_DEVICES), ("dtype", VERIFY_DTYPES)):
        if key in result and result[key] not in allowed:
            raise ConfigError(
                f"{where} verify `{key}` must be one of {', '.join(allowed)}"
                f"{_did_you_mean(str(result[key]), allowed)}"
            )
    timeout = result.get("timeout")
    if timeout is not None and (
        isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout <= 0
    ):
        raise ConfigError(f"{where} verify `timeout` must be a positive number of seconds")
    return result
