"""Rule pages (`rules/<CODE>.md`) for `dtypelint rule`.

A normal install carries them inside the package (`dtypelint/rule_pages/`, copied there by
setup.py at build time); a source checkout or an editable install reads the top-level `rules/`.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

_SOURCE_PAGES = Path(__file__).resolve().parent.parent / "rules"


def _folders() -> list[Path]:
    folders = []
    packaged = resources.files("dtypelint") / "rule_pages"
    if packaged.is_dir():
        folders.append(Path(str(packaged)))
    if _SOURCE_PAGES.is_dir():
        folders.append(_SOURCE_PAGES)
    return folders


def page_codes() -> list[str]:
    """Codes that have a page, sorted."""
    codes = {page.stem for folder in _folders() for page in folder.glob("*.md")}
    return sorted(codes)


def rule_page(code: str) -> str | None:
    for folder in _folders():
        page = folder / f"{code}.md"
        if page.is_file():
            return page.read_text(encoding="utf-8")
    return None
