"""The small commands: `rule`, `config`, `version` and `help`, each as its ruff namesake."""

from __future__ import annotations

from typing import Any

import click

from dtypelint import __version__
from dtypelint.cli_options import LOG_OPTIONS, GroupedCommand, GroupedOption, apply

EXIT_CLEAN = 0
TEXT_OR_JSON = click.Choice(("text", "json"))


def _format_option(function: Any) -> Any:
    return click.option(
        "--output-format",
        type=TEXT_OR_JSON,
        default="text",
        show_default=True,
        cls=GroupedOption,
        group="Output",
        help="Output format",
    )(function)


def _echo_json(value: object) -> None:
    import json

    click.echo(json.dumps(value, indent=2, ensure_ascii=False))


# --- rule ------------------------------------------------------------------------------------


def _rule_json(code: str, page: str) -> dict[str, Any]:
    """ruff's `rule --output-format json` fields for one rule."""
    from dtypelint.rules import ALL_RULES, IO_ERROR_CODE, RULE_NAMES

    classes = {rule.code: rule for rule in ALL_RULES}
    rule = classes.get(code)
    fixes = rule is not None and any(case.fixed is not None for case in rule.invalid)
    from dtypelint.reporters import ENGINE_SUMMARIES

    summary = rule.summary if rule is not None else ENGINE_SUMMARIES.get(code, RULE_NAMES[code])
    return {
        "name": RULE_NAMES[code],
        "code": code,
        "linter": "dtypelint",
        "summary": summary,
        "message_formats": [summary],
        "fix": "Fix is sometimes available." if fixes else "Fix is not available.",
        "fix_availability": "Sometimes" if fixes else "None",
        "explanation": page.split("\n", 1)[1].lstrip("\n") if "\n" in page else page,
        "preview": False,
        "status": {"Stable": {"since": "v0.1.0"}},
        "category": "io" if code == IO_ERROR_CODE else "correctness",
    }


def resolve_rule(code_or_name: str) -> str:
    from dtypelint.config import _did_you_mean, known_rule_names

    names = known_rule_names()
    if code_or_name.upper() in names:
        return code_or_name.upper()
    by_name = {name: code for code, name in names.items()}
    if code_or_name in by_name:
        return by_name[code_or_name]
    suggestion = _did_you_mean(code_or_name, [*names, *by_name])
    raise click.UsageError(f"unknown rule `{code_or_name}`{suggestion}")


@click.command("rule", cls=GroupedCommand, short_help="Explain a rule (or all rules)")
@click.argument("code", required=False)
@click.option("--all", "show_all", is_flag=True, help="Explain every rule")
@_format_option
def rule(code: str | None, show_all: bool, output_format: str, **_: object) -> int:
    """Explain rule CODE (a code like DTL001 or a name like factory-without-dtype): its page."""
    from dtypelint import docs

    if show_all == (code is not None):
        raise click.UsageError("give one rule CODE, or --all")
    codes = docs.page_codes() if show_all else [resolve_rule(code or "")]
    pages = []
    for each in codes:
        page = docs.rule_page(each)
        if page is None:
            raise click.UsageError(f"no page for rule {each}")
        pages.append((each, page.rstrip("\n") + "\n"))
    if output_format == "json":
        documents = [_rule_json(each, page) for each, page in pages]
        _echo_json(documents if show_all else documents[0])
    else:
        click.echo("\n".join(page for _, page in pages), nl=False)
    return EXIT_CLEAN


# --- config ----------------------------------------------------------------------------------


@click.command(
    "config",
    cls=GroupedCommand,
    short_help="List or describe the available configuration options",
)
@click.argument("key", required=False)
@_format_option
def config(key: str | None, output_format: str, **_: object) -> int:
    """List the settings of [tool.dtypelint], or describe KEY (`select`, `verify.device`)."""
    from dtypelint import config_docs
    from dtypelint.config import _did_you_mean

    if key is None:
        if output_format == "json":
            _echo_json({k: s.to_json() for k, s in sorted(config_docs.SETTINGS.items())})
        else:
            click.echo("\n".join(config_docs.top_level_keys()))
        return EXIT_CLEAN
    if key in config_docs.TABLES:
        entries = config_docs.sub_keys(key)
        if output_format == "json":
            _echo_json({k: s.to_json() for k, s in entries.items()})
        else:
            click.echo("\n".join(entries))
        return EXIT_CLEAN
    setting = config_docs.SETTINGS.get(key)
    if setting is None:
        suggestion = _did_you_mean(key, config_docs.all_keys())
        raise click.UsageError(f"unknown configuration key `{key}`{suggestion}")
    if output_format == "json":
        _echo_json(setting.to_json())
    else:
        click.echo(setting.text())
    return EXIT_CLEAN


# --- version ---------------------------------------------------------------------------------


@click.command("version", cls=GroupedCommand, short_help="Display dtypelint's version")
@_format_option
def version(output_format: str, **_: object) -> int:
    """Display dtypelint's version."""
    if output_format == "json":
        _echo_json({"version": __version__, "commit_info": None})
    else:
        click.echo(f"dtypelint {__version__}")
    return EXIT_CLEAN


# --- help ------------------------------------------------------------------------------------


@click.command(
    "help", short_help="Print this message or the help of the given command", add_help_option=False
)
@click.argument("command", required=False)
@click.pass_context
def help_command(ctx: click.Context, command: str | None) -> int:
    """Print the help of COMMAND, or of dtypelint."""
    root = ctx.find_root()
    group = root.command
    if command is None:
        click.echo(group.get_help(root))
        return EXIT_CLEAN
    assert isinstance(group, click.Group)
    found = group.get_command(root, command)
    if found is None:
        from dtypelint.config import _did_you_mean

        commands = group.list_commands(root)
        raise click.UsageError(f"unknown command `{command}`{_did_you_mean(command, commands)}")
    sub = click.Context(found, info_name=command, parent=root)
    click.echo(found.get_help(sub))
    return EXIT_CLEAN


for _command in (rule, config, version):
    apply(LOG_OPTIONS, _command)  # accepted everywhere, as ruff's log levels are
