"""The content cache: a file's result is reused when nothing it depends on has changed.

What one file's result depends on (engine.process_decoded is a pure function of it):

* the file's text (hashed) and the name it is shown under, which settings match against
  (`per-file-ignores`, `scope`) and which gives its module name (`pkg.geometry`, from the
  `__init__.py` files above it);
* dtypelint itself: its version, and the size and modification time of each of its source files
  (an edited checkout is a new version), the rules run and the Python version;
* the settings that change results (not `output-format`, `exclude` or `verify`), and the working
  folder that relative names are matched from;
* what the run asks for (check, fix, diff; unsafe fixes);
* the project summaries the analysis looked up while checking the file (engine.lint_paths,
  phase 2): each name it asked for is recorded with what it got (`None` when the table had no
  summary). A stored result is reused only where the current table gives the same answer for
  every one of those names, so editing a helper re-checks exactly the callers that asked about
  it, and nothing else.

Entries live in `<cache folder>/v<FORMAT>/`, in one shard file per source folder and settings
(named by a hash of the folder, the settings and the working folder): a header line, then one
line per file, `name-hash checksum json`; inside the JSON the full key is checked again. A line
that is cut, whose checksum does not match or that does not decode is a miss for that file.
Shards are written by the main process, once per phase, to a temporary file renamed into place,
so that a reader sees an old shard or a new one, never half of one; a run writing a shard keeps
the lines another run wrote meanwhile, except for its own files.

Keeping this true: whatever else a result comes to depend on must join the key. A new Config
field does by itself (only `_CONFIG_FIELDS_IGNORED` are left out); a new way for the analysis to
read the file system does not (today that is only module_name_for, mirrored by `Cache._layout`),
nor a new input from the environment. tests/test_cache.py runs the suite's projects with the
cache cold and warm against no cache; `pytest --dtypelint-cache=off|cold|warm` runs it all.

The folder is `.dtypelint_cache` under the project root (the folder of the settings file or of
the nearest pyproject.toml, else the working folder), `cache-dir` in the settings, or the
environment's DTYPELINT_CACHE_DIR; `--no-cache` or DTYPELINT_NO_CACHE=1 turns the cache off. It
writes its own `.gitignore` (and a CACHEDIR.TAG) when it creates the folder.
"""

from __future__ import annotations

import contextlib
import dataclasses
import enum
import json
import os
import stat
import sys
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Any

try:  # the builtin module: `hashlib` also loads OpenSSL, which costs more than the whole hash
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - other Python implementations
    from hashlib import blake2b

if TYPE_CHECKING:
    from dtypelint.config import Config
    from dtypelint.engine import FileOutcome, RunOptions
    from dtypelint.linter import DecodedSource

#: Bump when the layout of an entry changes: entries of another format are never read.
FORMAT = 2
DEFAULT_FOLDER_NAME = ".dtypelint_cache"
ENV_CACHE_DIR = "DTYPELINT_CACHE_DIR"
ENV_NO_CACHE = "DTYPELINT_NO_CACHE"
#: Results kept per entry (check, fix, diff, ... and the tables they were computed with).
MAX_VARIANTS = 6
_MAGIC = b"dtypelint-cache %d\n" % FORMAT
_GITIGNORE = "# Automatically created by dtypelint.\n*\n"
_CACHEDIR_TAG = (
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by dtypelint.\n"
    "# For information about cache directory tags see https://bford.info/cachedir/\n"
)
#: Config fields that change what is reported or which files are found, never a file's result.
_CONFIG_FIELDS_IGNORED = frozenset(
    {
        "output_format",
        "verify",
        "config_path",
        "exclude",
        "extend_exclude",
        "unsafe_fixes",  # fixes: `unsafe` is part of what the run asks for
        "unsafe_fixes_set",
        "cache_dir",
    }
)


class CacheMiss(Exception):
    """Raised instead of computing, by a cache made with `lookup_only` (scheduling's first pass)."""


def _hash(*parts: bytes | str) -> str:
    digest = blake2b(digest_size=20)
    for part in parts:
        data = part.encode("utf-8", "surrogatepass") if isinstance(part, str) else part
        digest.update(len(data).to_bytes(8, "little"))
        digest.update(data)
    return digest.hexdigest()


def env_disables_cache() -> bool:
    """DTYPELINT_NO_CACHE set to anything but an empty string, 0, false or no (RUFF_NO_CACHE)."""
    value = os.environ.get(ENV_NO_CACHE, "").strip().lower()
    return value not in ("", "0", "false", "no", "off")


def cache_folder(config: Config, cli_value: str | None = None) -> Path:
    """--cache-dir (or DTYPELINT_CACHE_DIR, relative to the working folder), else `cache-dir`
    (relative to the project root), else `.dtypelint_cache` in the project root."""
    given = cli_value or os.environ.get(ENV_CACHE_DIR)
    if given:
        return Path(os.path.abspath(os.path.expanduser(given)))
    root = config.project_root if config.project_root is not None else Path.cwd()
    setting = os.path.expanduser(config.cache_dir) if config.cache_dir else DEFAULT_FOLDER_NAME
    return Path(os.path.abspath(root / setting))


# ---------------------------------------------------------------------------------------------
# What a result depends on, beyond the file


def _source_stamp() -> str:
    """dtypelint's own files (name, size, modification time): an edited checkout is new."""
    package = Path(__file__).resolve().parent
    parts = []
    for folder, subfolders, names in os.walk(package):
        subfolders[:] = sorted(name for name in subfolders if name != "__pycache__")
        for name in sorted(names):
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                try:
                    status = os.stat(path)
                except OSError:
                    continue
                parts.append(
                    f"{os.path.relpath(path, package)}:{status.st_size}:{status.st_mtime_ns}"
                )
    return _hash(*parts)


def _rule_stamp(rules: Any) -> list[str]:
    """The rules run, and where each comes from (test rules live outside the package)."""
    stamps = []
    for rule in rules:
        module = sys.modules.get(rule.__module__)
        file = getattr(module, "__file__", None) or ""
        try:
            status = os.stat(file)
            where = f"{file}:{status.st_size}:{status.st_mtime_ns}"
        except OSError:
            where = file
        stamps.append(f"{rule.__module__}.{rule.__qualname__}@{where}")
    return stamps


def config_fingerprint(config: Config) -> str:
    """The settings that can change a file's result, as stable text."""
    values = {
        field.name: _canonical(getattr(config, field.name))
        for field in dataclasses.fields(config)
        if field.name not in _CONFIG_FIELDS_IGNORED
    }
    return json.dumps(values, sort_keys=True)


def _canonical(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, PurePath):
        return str(value)
    if isinstance(value, Mapping):
        return [[_canonical(k), _canonical(v)] for k, v in value.items()]
    if isinstance(value, (set, frozenset)):
        return sorted((_canonical(item) for item in value), key=json.dumps)
    if isinstance(value, (list, tuple)):
        return [_canonical(item) for item in value]
    if isinstance(value, enum.Enum):
        return _canonical(value.value)
    if dataclasses.is_dataclass(value):
        return {f.name: _canonical(getattr(value, f.name)) for f in dataclasses.fields(value)}
    return repr(value)


# ---------------------------------------------------------------------------------------------
# Encoding results (JSON, never pickle: a cache folder is data, reading it runs no code)


class Unencodable(TypeError):
    """A value the entry format cannot hold: that result is simply not stored."""


_CLASSES: dict[str, type] = {}


def _class_name(cls: type) -> str:
    return f"{cls.__module__}:{cls.__qualname__}"


def _load_class(name: str) -> type:
    cls = _CLASSES.get(name)
    if cls is not None:
        return cls
    module_name, _, qualname = name.partition(":")
    if not module_name.startswith("dtypelint.") or "." in qualname:
        raise ValueError(f"not a dtypelint class: {name}")
    import importlib

    found = getattr(importlib.import_module(module_name), qualname)
    if not isinstance(found, type) or not (
        dataclasses.is_dataclass(found) or issubclass(found, enum.Enum)
    ):
        raise ValueError(f"not a data class: {name}")
    _CLASSES[name] = found
    return found


def encode(value: Any) -> Any:
    """`value` as JSON data that `decode_entry` turns back into an equal value.

    Only tagged values are JSON objects (a tuple is `{"t": [...]}`, a data class
    `{"c": "module:Class", "f": [[field, value], ...]}`), so that decoding runs in json's own
    loop, one hook call per object.
    """
    kind = type(value)
    if kind is str or kind is int or kind is bool or kind is float or value is None:
        return value
    if kind is list:
        return [encode(item) for item in value]
    if kind is tuple:
        return {"t": [encode(item) for item in value]}
    if kind is set or kind is frozenset:
        items = [encode(item) for item in value]
        if all(type(item) is str for item in items):
            items.sort()
        else:
            items.sort(key=_sort_key)
        return {"fs" if kind is frozenset else "s": items}
    if kind is dict:
        return {"d": [[encode(k), encode(v)] for k, v in value.items()]}
    if isinstance(value, enum.Enum):
        return {"e": _class_name(kind), "v": value.value}
    names = _FIELD_NAMES.get(kind)
    if names is None:
        if not dataclasses.is_dataclass(value) or isinstance(value, type):
            if isinstance(value, (str, int, float)):  # subclasses of plain values
                return encode(kind.__mro__[-2](value))
            raise Unencodable(f"cannot store a {kind.__name__}")
        names = _FIELD_NAMES[kind] = (
            _class_name(kind),
            tuple(f.name for f in dataclasses.fields(value)),
        )
    fields = [[name, encode(getattr(value, name))] for name in names[1]]
    return {"c": names[0], "f": fields}


#: per data class: its name as stored and its fields' names
_FIELD_NAMES: dict[type, tuple[str, tuple[str, ...]]] = {}


def _sort_key(item: Any) -> str:
    return json.dumps(item, sort_keys=True)


#: per data class: whether instances keep their fields in `__dict__`, and its `__init__` fields
_LAYOUTS: dict[type, tuple[bool, frozenset[str]]] = {}


def _decoded(tagged: dict[str, Any]) -> Any:
    """json's object hook: one tagged value, its contents already decoded."""
    if len(tagged) == 1:
        tag, value = next(iter(tagged.items()))
        if tag == "t":
            return tuple(value)
        if tag == "fs":
            return frozenset(value)
        if tag == "s":
            return set(value)
        if tag == "d":
            return {key: item for key, item in value}
        return tagged
    if len(tagged) == 2 and "c" in tagged and "f" in tagged:
        cls = _load_class(tagged["c"])
        layout = _LAYOUTS.get(cls)
        if layout is None:
            plain = "__slots__" not in cls.__dict__ and "__post_init__" not in cls.__dict__
            init = frozenset(f.name for f in dataclasses.fields(cls) if f.init)
            layout = _LAYOUTS[cls] = (plain, init)
        fields = dict(tagged["f"])
        if layout[0]:  # as `__init__` would, without running it field by field
            result = cls.__new__(cls)
            result.__dict__.update(fields)
            return result
        result = cls(**{name: value for name, value in fields.items() if name in layout[1]})
        for name, value in fields.items():  # fields the constructor does not take
            if name not in layout[1]:
                object.__setattr__(result, name, value)
        return result
    if len(tagged) == 2 and "e" in tagged and "v" in tagged:
        return _load_class(tagged["e"])(tagged["v"])
    return tagged


def decode_entry(body: bytes) -> Any:
    """An entry's JSON, every encoded value decoded (json.loads with the hook)."""
    return json.loads(body, object_hook=_decoded)


def decode(data: Any) -> Any:
    """`encode`'s data back to the value (for data already parsed without the hook)."""
    return decode_entry(json.dumps(data))


# ---------------------------------------------------------------------------------------------
# The project summaries a file's analysis asked for


class RecordingTable(Mapping):  # type: ignore[type-arg]
    """The project's summaries as the analysis sees them, remembering every name it asks for.

    Asking for the whole table (iterating, its length) records that the result depends on all of
    it; asking whether it is empty records that answer.
    """

    def __init__(self, table: Mapping[str, Any]) -> None:
        self.table = table
        self.asked: dict[str, Any] = {}
        self.everything = False
        self.nonempty: bool | None = None  # None: never asked

    def __getitem__(self, name: str) -> Any:
        value = self.table.get(name)
        self.asked[name] = value
        if value is None and name not in self.table:
            raise KeyError(name)
        return value

    def get(self, name: str, default: Any = None) -> Any:
        value = self.table.get(name)
        self.asked[name] = value
        return default if value is None and name not in self.table else value

    def __contains__(self, name: object) -> bool:
        if not isinstance(name, str):
            return False
        self.asked[name] = self.table.get(name)
        return name in self.table

    def __iter__(self) -> Iterator[str]:
        self.everything = True
        return iter(self.table)

    def __len__(self) -> int:
        self.everything = True
        return len(self.table)

    def __bool__(self) -> bool:
        self.nonempty = bool(self.table)
        return self.nonempty


def table_digest(table: Mapping[str, Any]) -> str:
    """The whole table, for a result that looked at all of it."""
    return _hash(json.dumps([[name, encode(table[name])] for name in sorted(table)]))


# ---------------------------------------------------------------------------------------------
# The cache


@dataclasses.dataclass
class _Shard:
    """The entries of one folder's files: raw lines by the hash of the file's name."""

    lines: dict[str, bytes]
    pending: dict[str, bytes] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass
class Cache:
    """One run's view of the cache folder: where entries go and what every key starts with.

    Entries are grouped by the folder of the file they are for (one shard file per source
    folder: few files to open, create and rename), one line per file, each line checksummed.
    Results computed in this process, or handed over from workers (`take_pending`/`merge`),
    are written by `flush`, which scheduling calls once per phase in the main process.
    """

    folder: Path
    #: settings, rules, working folder: part of every shard's name
    location: str
    #: dtypelint's version and files, Python's version: checked in every entry
    build: str
    #: False: a miss raises CacheMiss instead of computing (scheduling's first pass)
    computes: bool = True
    #: results reused (in this process), for -v
    hits: int = 0
    _shards: dict[str, _Shard] = dataclasses.field(default_factory=dict, repr=False)
    _folders: dict[str, str] = dataclasses.field(default_factory=dict, repr=False)
    _digests: Any = dataclasses.field(default=None, repr=False)
    _listing: set[str] | None = dataclasses.field(default=None, repr=False)

    @classmethod
    def for_run(cls, folder: Path, config: Config, rules: Any) -> Cache:
        from dtypelint import __version__

        location = _hash(config_fingerprint(config), *_rule_stamp(rules), os.getcwd())
        build = _hash(__version__, _source_stamp(), sys.version, sys.implementation.name)
        return cls(Path(folder), location, build)

    @property
    def entries(self) -> Path:
        return self.folder / f"v{FORMAT}"

    def shard_name(self, filename: str) -> str:
        return _hash(self.location, os.path.dirname(filename))

    def has_entry(self, filename: str) -> bool:
        """Whether a result for `filename` is stored (current or not): no source read needed."""
        if self._listing is None:
            try:
                self._listing = set(os.listdir(self.entries))
            except OSError:
                self._listing = set()
        name = self.shard_name(filename)
        if name not in self._listing and name not in self._shards:
            return False
        return _line_name(filename) in self._shard(name).lines

    # -- one file ---------------------------------------------------------------------------

    def outcome(
        self,
        decoded: DecodedSource,
        filename: str,
        config: Config,
        options: RunOptions,
        compute: Callable[[DecodedSource, str, Config, RunOptions], FileOutcome],
    ) -> FileOutcome:
        """The stored result for this text and these options, else `compute` it and store it."""
        key = _hash(self.build, filename, self._layout(filename), decoded.text)
        mode = _mode(options)
        table = {} if options.project_summaries is None else options.project_summaries
        shard = self._shard(self.shard_name(filename))
        line_name = _line_name(filename)
        entry = _decode_line(shard.lines.get(line_name), key)
        for variant in entry["variants"] if entry is not None else ():
            if variant.get("mode") == mode and self._still_valid(variant, table):
                outcome = variant.get("outcome")
                if outcome.__class__.__name__ == "FileOutcome":
                    self.hits += 1
                    return outcome  # type: ignore[no-any-return]
        if not self.computes:
            raise CacheMiss(filename)
        recording = RecordingTable(table)
        outcome = compute(
            decoded, filename, config, dataclasses.replace(options, project_summaries=recording)
        )
        if not outcome.errors:  # an internal error is not a result to keep
            line = _encode_line(key, mode, recording, outcome, entry)
            if line is not None:
                shard.lines[line_name] = shard.pending[line_name] = line
        return outcome

    def _still_valid(self, variant: dict[str, Any], table: Mapping[str, Any]) -> bool:
        """Whether `table` answers every question the stored result asked as it was answered."""
        try:
            everything = variant.get("all")
            if everything is not None and everything != self._table_digest(table):
                return False
            nonempty = variant.get("nonempty")
            if nonempty is not None and nonempty != bool(table):
                return False
            return all(table.get(name) == answer for name, answer in variant["deps"])
        except (TypeError, ValueError, KeyError, Unencodable):
            return False

    def _table_digest(self, table: Mapping[str, Any]) -> str:
        if self._digests is None or self._digests[0] is not table:
            self._digests = (table, table_digest(table))
        return self._digests[1]  # type: ignore[no-any-return]

    def _layout(self, filename: str) -> str:
        """What the file's module name (analysis.summaries.module_name_for) is made from.

        That function resolves the file's path and walks up while folders hold an
        `__init__.py`. Folder by folder this is worked out once per run: one `lstat` per file
        (is it there, is it a link), one `realpath` and a few `isfile` per folder.
        """
        try:
            link = stat.S_ISLNK(os.lstat(filename).st_mode)
            there = not link or os.path.exists(filename)
        except (OSError, ValueError):
            link = there = False
        if link:
            real = os.path.realpath(filename)
            folder_key, name = os.path.dirname(real), os.path.basename(real)
        else:
            folder_key, name = os.path.dirname(filename) or ".", os.path.basename(filename)
        folder = self._folders.get(folder_key)
        if folder is None:
            current = os.path.realpath(folder_key)
            chain = []
            while True:
                package = os.path.isfile(os.path.join(current, "__init__.py"))
                chain.append(f"{current}:{int(package)}")
                parent = os.path.dirname(current)
                if not package or parent == current:
                    break
                current = parent
            folder = self._folders[folder_key] = "|".join(chain)
        return f"{int(there)}:{name}:{folder}"

    # -- shards -------------------------------------------------------------------------------

    def _shard(self, name: str) -> _Shard:
        shard = self._shards.get(name)
        if shard is None:
            shard = self._shards[name] = _Shard(_read_shard(self.entries / name))
        return shard

    def take_pending(self) -> dict[str, dict[str, bytes]]:
        """The lines stored since the last call, by shard (a worker hands them to the parent)."""
        taken = {name: shard.pending for name, shard in self._shards.items() if shard.pending}
        for name in taken:
            self._shards[name].pending = {}
        return taken

    def merge(self, pending: Mapping[str, Mapping[str, bytes]]) -> None:
        """Lines a worker stored, to be written by this process's `flush`."""
        for name, lines in pending.items():
            shard = self._shard(name)
            shard.lines.update(lines)
            shard.pending.update(lines)

    def flush(self) -> None:
        """Write every shard with new lines: the lines on disk now, with ours over them."""
        pending = self.take_pending()
        if not pending:
            return
        try:
            self._prepare()
        except OSError:
            return  # a read-only or full disk: the run goes on without storing
        for name, lines in pending.items():
            path = self.entries / name
            current = _read_shard(path)  # what concurrent runs wrote meanwhile stays
            current.update(lines)
            body = b"".join(
                _line_name_bytes(key) + b" " + line + b"\n" for key, line in current.items()
            )
            try:
                _write_atomic(path, _MAGIC + body)
            except OSError:
                continue
            if self._listing is not None:
                self._listing.add(name)

    def _prepare(self) -> None:
        """Create the folder, with its .gitignore and CACHEDIR.TAG."""
        if not self.entries.is_dir():
            self.entries.mkdir(parents=True, exist_ok=True)
        for name, text in ((".gitignore", _GITIGNORE), ("CACHEDIR.TAG", _CACHEDIR_TAG)):
            target = self.folder / name
            if not target.exists():
                _write_atomic(target, text.encode("ascii"))


def _line_name(filename: str) -> str:
    return _hash(filename)


def _line_name_bytes(name: str) -> bytes:
    return name.encode("ascii")


def _read_shard(path: Path) -> dict[str, bytes]:
    """A shard's lines by name, unchecked (each is checked when used); {} if unreadable."""
    try:
        data = path.read_bytes()
    except OSError:
        return {}
    if not data.startswith(_MAGIC):
        return {}
    lines: dict[str, bytes] = {}
    for line in data[len(_MAGIC) :].split(b"\n"):
        name, space, rest = line.partition(b" ")
        if space and len(name) == 40:
            lines[name.decode("ascii", "replace")] = rest
    return lines


def _decode_line(line: bytes | None, key: str) -> dict[str, Any] | None:
    """The entry in a shard line (`checksum json`) if it is whole, decodes and is for `key`."""
    if line is None:
        return None
    checksum, space, body = line.partition(b" ")
    if not space or checksum.decode("ascii", "replace") != _hash(body):
        return None
    if key.encode("ascii") not in body[:80]:  # another version of the file: not worth decoding
        return None
    try:
        entry = decode_entry(body)
    except Exception:  # anything a damaged or foreign entry can raise while decoding
        return None
    if not isinstance(entry, dict) or entry.get("key") != key:
        return None
    variants = entry.get("variants")
    if not isinstance(variants, list) or not all(isinstance(v, dict) for v in variants):
        return None
    return entry


def _encode_line(
    key: str,
    mode: str,
    recording: RecordingTable,
    outcome: FileOutcome,
    entry: dict[str, Any] | None,
) -> bytes | None:
    """A shard line for `outcome`, with the entry's other variants; None if it cannot be stored."""
    try:
        deps = [[name, encode(answer)] for name, answer in recording.asked.items()]
        everything = table_digest(recording.table) if recording.everything else None
        variant = {
            "mode": mode,
            "all": everything,
            "nonempty": recording.nonempty,
            "deps": deps,
            "outcome": encode(outcome),
        }
        kept = [
            encode_variant(old)
            for old in (entry["variants"] if entry is not None else ())
            if not (old.get("mode") == mode and _same_questions(old, recording, everything))
        ]
    except Unencodable:
        return None
    body = json.dumps(
        {"key": key, "variants": [variant, *kept][:MAX_VARIANTS]}, separators=(",", ":")
    ).encode("utf-8")
    return _hash(body).encode("ascii") + b" " + body


def encode_variant(variant: dict[str, Any]) -> dict[str, Any]:
    """A decoded variant read from an entry, encoded again to be written back."""
    return {
        "mode": variant.get("mode"),
        "all": variant.get("all"),
        "nonempty": variant.get("nonempty"),
        "deps": [[name, encode(answer)] for name, answer in variant["deps"]],
        "outcome": encode(variant["outcome"]),
    }


def _same_questions(
    variant: dict[str, Any], recording: RecordingTable, everything: str | None
) -> bool:
    """Whether a stored variant asked the table the same questions and got the same answers."""
    asked = dict(variant.get("deps") or ())
    return (
        asked == recording.asked
        and variant.get("all") == everything
        and variant.get("nonempty") == recording.nonempty
    )


def _mode(options: RunOptions) -> str:
    if not (options.fix or options.diff):
        return "check"
    return f"fix={int(options.fix)},diff={int(options.diff)},unsafe={int(options.unsafe)}"


def _write_atomic(path: Path, data: bytes) -> None:
    """Write to a temporary file beside `path`, then rename it over `path`."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{id(data):x}.tmp")
    try:
        with open(temporary, "wb") as stream:
            stream.write(data)
        os.replace(temporary, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
