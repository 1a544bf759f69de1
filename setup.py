"""Build hooks: ship the top-level rules/*.md pages inside the package (dtypelint/rule_pages/),
and give an editable install the compiled bytecode a regular install gets.

Everything else about the package is in pyproject.toml.
"""

import compileall
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent


class build_py_with_rule_pages(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            # An editable install reads rules/ from the checkout (dtypelint/docs.py). pip
            # compiles a regular install's modules; do the same for the checkout's, or every
            # start compiles them again where PYTHONDONTWRITEBYTECODE is set (docker images,
            # CI), which costs a one-file check more than the check itself.
            compileall.compile_dir(str(HERE / "dtypelint"), quiet=2)
            return
        target = Path(self.build_lib) / "dtypelint" / "rule_pages"
        target.mkdir(parents=True, exist_ok=True)
        for page in sorted((HERE / "rules").glob("*.md")):
            (target / page.name).write_bytes(page.read_bytes())


setup(cmdclass={"build_py": build_py_with_rule_pages})
