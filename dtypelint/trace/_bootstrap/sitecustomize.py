"""`dtypelint trace`'s start-up hook, run by every Python process of the traced command.

`dtypelint trace` puts this folder first on PYTHONPATH; Python's `site` imports
`sitecustomize` from it at start-up. It imports dtypelint's trace session (from the folder
named in DTYPELINT_TRACE_PACKAGE, so the command's own environment need not have dtypelint),
arms it to start when torch is imported, takes this folder back off sys.path, and runs the
sitecustomize it shadows, if there is one.
"""

import os
import sys


def _import_session():  # type: ignore[no-untyped-def]
    package_parent = os.environ.get("DTYPELINT_TRACE_PACKAGE")
    added = bool(package_parent) and package_parent not in sys.path
    if added:
        sys.path.insert(0, package_parent)
    try:
        from dtypelint.trace import session
    finally:
        if added:
            sys.path.remove(package_parent)  # dtypelint stays importable through its __path__
    return session


def _chain() -> None:
    """Import the sitecustomize this one shadows (the next one on sys.path). Python's import
    machinery takes sys.modules["sitecustomize"] back out after this module has run, so an
    entry must be there: the shadowed module's, else this one's."""
    ours = sys.modules.pop("sitecustomize", None)
    try:
        import sitecustomize  # noqa: F401
    except ImportError as exc:
        sys.modules["sitecustomize"] = ours  # type: ignore[assignment]
        if exc.name != "sitecustomize":
            raise


def _main() -> None:
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = [p for p in sys.path if not p or os.path.abspath(p) != here]
    try:
        _import_session().install_on_torch_import()
    except Exception as exc:  # tracing must never stop the user's program from starting
        print(f"dtypelint trace: not tracing this process: {exc}", file=sys.stderr)
    _chain()


if os.environ.get("DTYPELINT_TRACE_DIR"):
    _main()
