"""Many exclude patterns matched at once: config.path_matches for a whole list, as one regex.

Walking a folder tests every file against every exclude pattern (the defaults are 28); with
`path_matches` called per pattern that is most of the time of a rerun served by the cache. The
patterns without a `/` (matched against single names) are joined into one alternation per kind
(any name, or folder names only for `dir/` patterns); the anchored ones are few and keep
`path_matches`. `PatternSet(patterns, first).matches(parts)` equals
`any(path_matches(p, parts, first) for p in patterns)` (tests/test_engine.py checks it).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from dtypelint.config import _glob_regex, path_matches, split_pattern


class PatternSet:
    def __init__(self, patterns: Sequence[str], first: int = 0) -> None:
        self.first = first
        names: list[str] = []
        folder_names: list[str] = []
        self.anchored: list[str] = []
        for pattern in patterns:
            text, dir_only = split_pattern(pattern)
            if not text:
                continue  # path_matches: matches nothing
            if "/" in text:
                self.anchored.append(pattern)
                continue
            regex = _glob_regex(text.lstrip("/")).pattern
            (folder_names if dir_only else names).append(f"(?:{regex})")
        self.names = re.compile("|".join(names)) if names else None
        self.folder_names = re.compile("|".join(folder_names)) if folder_names else None

    def matches(self, parts: Sequence[str]) -> bool:
        count = len(parts)
        if self.names is not None:
            fullmatch = self.names.fullmatch
            if any(fullmatch(parts[k]) for k in range(self.first, count)):
                return True
        if self.folder_names is not None:
            fullmatch = self.folder_names.fullmatch
            if any(fullmatch(parts[k]) for k in range(self.first, count - 1)):
                return True
        return any(path_matches(pattern, parts, self.first) for pattern in self.anchored)
