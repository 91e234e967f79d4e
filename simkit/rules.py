"""Rule data: the packaged defaults, overlaid by a user's TOML file and by ``--set key=value``.

Overlays may only name keys the defaults have, so a typo is an error rather than a silent no-op.
Each game then validates types, ranges and deck arithmetic and compiles the rules into arrays for
its kernel. Errors name the file and the dotted key.
"""
from __future__ import annotations

import copy
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import SimkitError
from .limits import MAX_DEPTH, MAX_TEXT_FILE_BYTES, check_depth
from .storage import read_bounded

EVERY_GAME = "every game"                   # a rule_counters entry: the value acts in every game played
PLAYER_COUNTS_ONLY = "player counts only"   # a rule_counters entry: it bounds the player counts, never plays


def read_toml(path: str | Path, what: str = "rules file") -> dict:
    """Parse a TOML file, turning I/O and syntax errors into one-line SimkitErrors; the file is read up to
    MAX_TEXT_FILE_BYTES (``/dev/zero`` is refused, not read for ever) and nested at most MAX_DEPTH deep."""
    data = read_bounded(path, MAX_TEXT_FILE_BYTES, what)
    try:
        return parse_toml(data.decode("utf-8"), f"{what} {path}")
    except UnicodeDecodeError:
        raise SimkitError(f"{what} {path} is not UTF-8 text") from None


def parse_toml(text: str, what: str) -> dict:
    """TOML text, refused in one line when it is invalid or nested more than MAX_DEPTH deep."""
    try:
        value = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SimkitError(f"{what} is not valid TOML: {exc}") from None
    except RecursionError:
        raise SimkitError(f"{what} is nested more than {MAX_DEPTH} levels deep") from None
    check_depth(value, what)
    return value


def parse_assignment(text: str) -> tuple[list[str], Any]:
    """Split ``a.b.c=value``; the value is read as TOML (numbers, booleans, quoted strings, arrays)
    and falls back to a bare string, so ``--set options.rounds=players`` works unquoted."""
    key, sep, raw = text.partition("=")
    key = key.strip()
    if not sep or not key:
        raise SimkitError(f"--set {text!r}: expected KEY=VALUE with a dotted key, e.g. scoring.false_stop=-10")
    if len(text) > MAX_TEXT_FILE_BYTES:
        raise SimkitError(f"--set {text[:40]}...: longer than the limit of {MAX_TEXT_FILE_BYTES:,} characters")
    try:
        value = tomllib.loads(f"v = {raw.strip()}")["v"]
    except tomllib.TOMLDecodeError:
        value = raw.strip()
    except RecursionError:
        raise SimkitError(f"--set {key}: the value is nested more than {MAX_DEPTH} levels deep") from None
    check_depth(value, f"--set {key}")
    return key.split("."), value


def _shape(value: Any) -> str:
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "a table"
    return "a single value"


def check_shape(default: Any, value: Any, path: str, source: str) -> None:
    """A value must have the shape of the default it replaces: a single value (number, flag or string: the
    game checks which, and its range) for a single value, an array for an array, and within an array entries
    shaped like the default's, at any depth. So ``wins=[[1]]`` for an array of numbers is refused here in
    one line and never reaches a game's checks or an engine as a TypeError."""
    want, got = _shape(default), _shape(value)
    if want != got:
        raise SimkitError(f"{source}: {path} must be {want} like its default {default!r}, not {value!r}")
    if isinstance(default, list) and default and not isinstance(default[0], dict):
        templates = {_shape(item): item for item in default}
        for index, item in enumerate(value):
            template = templates.get(_shape(item))
            if template is None:
                raise SimkitError(f"{source}: {path}[{index}] must be {' or '.join(templates)} like the default's "
                                  f"entries, not {item!r}")
            check_shape(template, item, f"{path}[{index}]", source)


def _describe(node: Any) -> str:
    if isinstance(node, list) and node and isinstance(node[0], dict):
        return f"an index 0..{len(node) - 1}"
    if isinstance(node, dict):
        return "one of: " + ", ".join(sorted(node)) if node else "no keys"
    if isinstance(node, list):
        return f"an index 0..{len(node) - 1}"
    return "nothing below a value"


def _merge(base: Any, overlay: Any, path: str, source: str) -> Any:
    if isinstance(base, dict):
        if not isinstance(overlay, dict):
            raise SimkitError(f"{source}: {path} must be a table, not {overlay!r}")
        merged = dict(base)
        for key, value in overlay.items():
            key = str(key)
            sub = f"{path}.{key}" if path else key
            if key not in base:
                raise SimkitError(f"{source}: unknown key {sub!r}; allowed here: {_describe(base)}")
            merged[key] = _merge(base[key], value, sub, source)
        return merged
    if isinstance(base, list) and base and isinstance(base[0], dict):
        # An array of tables (e.g. [[company]]) is replaced whole; its entries may use any key that some
        # default entry uses (entries of one array can differ, like [[card]]); the game checks the rest.
        if not isinstance(overlay, list) or not all(isinstance(item, dict) for item in overlay):
            raise SimkitError(f"{source}: {path} must be an array of tables like the default")
        template = {}
        for entry in base:
            template.update(entry)
        return [_merge({k: v for k, v in template.items() if k in item}, item, f"{path}[{i}]", source)
                if set(item) <= set(template) else _unknown_entry_key(template, item, f"{path}[{i}]", source)
                for i, item in enumerate(overlay)]
    if isinstance(overlay, dict):
        raise SimkitError(f"{source}: {path} is a value, not a table")
    check_shape(base, overlay, path, source)
    return overlay


def _unknown_entry_key(template: dict, item: dict, path: str, source: str):
    extra = sorted(set(item) - set(template))[0]
    raise SimkitError(f"{source}: unknown key {path}.{extra}; allowed here: {_describe(template)}")


def numbered_by(node: list) -> str | None:
    """The field an array of tables is numbered by, as its rulebook counts (the UK's [[level]] entries by
    their ``level``: ``level.2.target_wealth`` is level 2's, never the third entry), or None for an array
    addressed by position."""
    if node and all(isinstance(entry, dict) and isinstance(entry.get("level"), int) for entry in node):
        return "level"
    return None


def _list_index(node: list, key: str) -> int | None:
    """An array entry by position, by the number its rulebook gives it (numbered_by), or by its name/id/kind
    (``commodity.Copper.total_return``)."""
    field = numbered_by(node)
    if field is not None:
        numbers = [entry[field] for entry in node]
        return numbers.index(int(key)) if key.isdigit() and int(key) in numbers else None
    if key.isdigit():
        return int(key) if int(key) < len(node) else None
    for i, entry in enumerate(node):
        if isinstance(entry, dict) and key in (entry.get("name"), entry.get("id"), entry.get("kind")):
            return i
    return None


def _parent(tree: dict, keys: list[str], text: str) -> tuple[dict, str]:
    """The table holding the last key of a dotted path (array entries by index or by name), and that key;
    errors name the path and what is allowed there."""
    node: Any = tree
    for depth, key in enumerate(keys):
        here = ".".join(keys[: depth + 1])
        last = depth == len(keys) - 1
        if isinstance(node, list):
            index = _list_index(node, key)
            field = numbered_by(node)
            if index is None and field is not None:
                numbers = [entry[field] for entry in node]
                old = f"; {here} is the old spelling, counted from 0: write {'.'.join(keys[:depth])}." \
                      f"{int(key) + 1}{'.' + '.'.join(keys[depth + 1:]) if keys[depth + 1:] else ''}" \
                    if key.isdigit() and int(key) + 1 in numbers else ""
                raise SimkitError(f"{text}: {here!r}: {keys[depth - 1] if depth else field} entries are numbered as the "
                                  f"rulebook counts them, {', '.join(map(str, numbers))}{old}")
            if index is None:
                raise SimkitError(f"{text}: {here!r} needs {_describe(node)} or an entry's name")
            if last:
                raise SimkitError(f"{text}: {here!r} is a table; set one of its keys")
            node = node[index]
            continue
        if not isinstance(node, dict) or key not in node:
            parent = node if isinstance(node, (dict, list)) else None
            raise SimkitError(f"{text}: unknown key {here!r}; allowed: {_describe(parent)}")
        if last:
            return node, key
        node = node[key]
    raise SimkitError(f"{text}: expected a dotted key")


def _set_path(tree: dict, keys: list[str], value: Any, text: str) -> None:
    node, key = _parent(tree, keys, f"--set {text}")
    here = ".".join(keys)
    if isinstance(node[key], dict) and not isinstance(value, dict):
        raise SimkitError(f"--set {text}: {here!r} is a table; set one of its keys")
    if isinstance(node[key], list) and not isinstance(value, list):
        raise SimkitError(f"--set {text}: {here!r} is an array; give one in brackets, e.g. {here}=[1, 2]")
    if isinstance(node[key], list) and node[key] and isinstance(node[key][0], dict):
        node[key] = _merge(node[key], value, here, f"--set {text}")
        return
    check_shape(node[key], value, here, f"--set {text}")
    node[key] = value


def rule_value(rules: dict, key: str, where: str = "rules") -> Any:
    """The value at a dotted key as ``--set`` names it (array entries by index or by their name/id/kind,
    e.g. ``commodity.Gold.total_return``); an unknown key is a SimkitError, prefixed by ``where``, saying
    what is allowed there."""
    node, last = _parent(rules, str(key).split("."), where)
    return node[last]


def with_values(rules: dict, values: dict) -> dict:
    """A copy of ``rules`` with every dotted key of ``values`` (as ``--set`` names it) set to its value."""
    rules = copy.deepcopy(rules)
    for key, value in values.items():
        _set_path(rules, str(key).split("."), value, f"{key}={value!r}")
    return rules


def overlay_of(defaults: Any, rules: Any) -> Any:
    """The smallest rules file that turns ``defaults`` into ``rules``: only the tables and keys that differ;
    an array of tables that differs anywhere is written whole (a rules file replaces such an array whole)."""
    if isinstance(defaults, dict) and isinstance(rules, dict):
        out = {}
        for key, value in rules.items():
            if key not in defaults:
                out[key] = value
                continue
            differs = overlay_of(defaults[key], value)
            if differs is not None:
                out[key] = differs
        return out or None
    return None if defaults == rules and type(defaults) is type(rules) else rules


def overlay_rules(defaults: dict, rules_file: str | Path | None = None,
                  sets: list[str] | tuple[str, ...] = (), overrides: dict | None = None) -> dict:
    """Return the defaults with a TOML file, a dict of overrides and ``--set`` strings applied, in that order."""
    rules = copy.deepcopy(defaults)
    if rules_file is not None:
        rules = _merge(rules, read_toml(rules_file), "", str(rules_file))
    if overrides:
        rules = _merge(rules, overrides, "", "rules")
    for text in sets:
        keys, value = parse_assignment(text)
        _set_path(rules, keys, value, text)
    return rules


def changed_values(defaults: Any, rules: Any, path: str = "") -> list[tuple[str, Any, Any]]:
    """(dotted key, default, value) for every value of ``rules`` that differs from ``defaults``: what a
    report lists as the rules tested, instead of the whole rule data. Entries of an array of tables are
    keyed by index (``company.0.cards``), as ``--set`` writes them; an array whose length changed is
    one difference."""
    if isinstance(defaults, dict) and isinstance(rules, dict):
        changes = []
        for key in dict.fromkeys([*defaults, *rules]):
            changes += changed_values(defaults.get(key), rules.get(key), f"{path}.{key}" if path else key)
        return changes
    if isinstance(defaults, list) and isinstance(rules, list) and len(defaults) == len(rules) \
            and all(isinstance(item, dict) for item in defaults + rules):
        changes = []
        field = numbered_by(defaults)
        for index, (default, value) in enumerate(zip(defaults, rules)):
            changes += changed_values(default, value, f"{path}.{default[field] if field else index}")
        return changes
    return [] if defaults == rules and type(defaults) is type(rules) else [(path, defaults, rules)]


def lookup(rules: dict, key: str) -> Any:
    """The value at a dotted key (array entries by index); a missing key is a SimkitError naming it."""
    node: Any = rules
    try:
        for part in key.split("."):
            node = node[int(part)] if isinstance(node, list) else node[part]
    except (KeyError, IndexError, ValueError, TypeError):
        raise SimkitError(f"rules: {key} is missing") from None
    return node


def require_int(rules: dict, key: str, low: int | None = None, high: int | None = None) -> int:
    """The integer at a dotted key, with a range check; errors name the key and the allowed range."""
    value = lookup(rules, key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise SimkitError(f"rules: {key} must be an integer, not {value!r}")
    if (low is not None and value < low) or (high is not None and value > high):
        span = f"{low if low is not None else '-inf'}..{high if high is not None else 'inf'}"
        raise SimkitError(f"rules: {key} = {value} is out of range; allowed {span}")
    return value


def require_number(rules: dict, key: str, low: float, high: float) -> int | float:
    """The number (whole or not) at a dotted key, in low..high; errors name the key and the allowed range."""
    value = lookup(rules, key)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise SimkitError(f"rules: {key} must be a number, not {value!r}")
    if not low <= value <= high:
        raise SimkitError(f"rules: {key} = {value} is out of range; allowed {low}..{high}")
    return value


def require_bool(rules: dict, key: str) -> bool:
    value = lookup(rules, key)
    if not isinstance(value, bool):
        raise SimkitError(f"rules: {key} must be true or false, not {value!r}")
    return value


def require_str(rules: dict, key: str) -> str:
    value = lookup(rules, key)
    if not isinstance(value, str) or not value.strip():
        raise SimkitError(f"rules: {key} must be a non-empty string, not {value!r}")
    return value


@dataclass(frozen=True)
class RuleOption:
    """One switchable value of a game's rule data, as documented in its rules.toml."""

    key: str        # dotted key for --set (for an array of tables: its name, set by entry, e.g. company.0.cards)
    default: str    # the default as written in the TOML file
    source: str     # where the value comes from: a decision id (W8, U16...), "rulebook", "assumed"...
    meaning: str    # the comment that documents it

    def as_row(self) -> dict:
        return {"key": self.key, "default": self.default, "source": self.source, "meaning": self.meaning}


_HEADER = re.compile(r"^\s*(\[\[?)\s*([A-Za-z0-9_.-]+)\s*\]\]?\s*(?:#\s*(.*))?$")
_ASSIGNMENT = re.compile(r"^\s*([A-Za-z0-9_-]+)\s*=\s*(.*)$")
_TAG = re.compile(r"^\s*\[([^\[\]]+)\]")


def _split_comment(text: str) -> tuple[str, str]:
    """A TOML value and its trailing comment (a # inside a quoted string is part of the value)."""
    quote = None
    for i, char in enumerate(text):
        if quote:
            quote = None if char == quote else quote
        elif char in "\"'":
            quote = char
        elif char == "#":
            return text[:i].strip(), text[i + 1:].strip()
    return text.strip(), ""


def _source_and_meaning(comment: str, inherited: str) -> tuple[str, str]:
    """``[TAG] text`` -> (TAG, text); a comment without a leading tag takes its table's."""
    match = _TAG.match(comment)
    if not match:
        return inherited, " ".join(comment.split())
    return match.group(1).strip(), " ".join(comment[match.end():].lstrip(" :;,").split())


def rule_options(rules_path: str | Path) -> list[RuleOption]:
    """Every value of a game's default rule data with its documentation, read from the comments of its
    rules.toml: a key's trailing comment (or the comment lines just above it), whose first ``[TAG]`` says
    where the value comes from (a decision id such as W8, or rulebook / assumed; a key without one takes
    its table's). An array of tables (``[[company]]``) is one entry: its entries are set by index or name."""
    options: list[RuleOption] = []
    arrays: dict[str, int] = {}
    section, section_source, in_array, block = "", "", False, []
    for line in Path(rules_path).read_text(encoding="utf-8").splitlines():
        stripped = line.strip()
        if not stripped:
            block = []
            continue
        if stripped.startswith("#"):
            block.append(stripped.lstrip("#").strip())
            continue
        header = _HEADER.match(line)
        if header:
            section, in_array = header.group(2), header.group(1) == "[["
            comment = header.group(3) or " ".join(block)
            section_source, meaning = _source_and_meaning(comment, "")
            if in_array:
                if section not in arrays:
                    options.append(RuleOption(section, "", section_source, meaning))
                arrays[section] = arrays.get(section, 0) + 1
            elif comment:
                options.append(RuleOption(section, "", section_source, meaning))
            block = []
            continue
        assignment = _ASSIGNMENT.match(line)
        if assignment and not in_array:
            value, comment = _split_comment(assignment.group(2))
            source, meaning = _source_and_meaning(comment or " ".join(block), section_source)
            key = f"{section}.{assignment.group(1)}" if section else assignment.group(1)
            options.append(RuleOption(key, value, source, meaning))
        block = []
    # an array of tables: say how many entries, their keys and how to reach one
    defaults = read_toml(rules_path)
    described = []
    for option in options:
        if option.key in arrays and not option.default:
            keys = list(dict.fromkeys(k for entry in defaults[option.key] for k in entry))
            option = RuleOption(option.key, f"{arrays[option.key]} entries", option.source,
                                (option.meaning + " " if option.meaning else "")
                                + f"(keys {', '.join(keys)}; set one as {option.key}."
                                + ("N.KEY, N as the rulebook counts: "
                                   + ", ".join(str(e["level"]) for e in defaults[option.key]) + ")"
                                   if numbered_by(defaults[option.key]) else "INDEX.KEY"
                                   + (" or by its name/id/kind)" if {"name", "id", "kind"} & set(keys) else ")")))
        described.append(option)
    return [o for o in described if o.default]


def options_markdown(games) -> str:
    """The rule options of ``games`` as Markdown tables, one per game (docs/rules/options.md)."""
    lines = ["# Rule options of every game", "",
             "Generated by `simkit rules --options --markdown` from the comments of each game's rules.toml; "
             "a test keeps this page and the data in step. Change any value with `--set KEY=VALUE` or a TOML "
             "file (`--rules FILE`); `simkit rules GAME` prints the defaults ready to edit. How each game is "
             "played, and what the decision ids (W8, D9, U16, K7...) mean: `docs/rules/GAME.md`.", "",
             "The counter column is the result column that counts, per game and seat, how often the option "
             "came into play (\"every game\": a value every game uses); analyses that change a rule report "
             "from it whether the change came into play.", ""]
    for game in games:
        lines += [f"## {game.title} (`{game.name}`)", "", "| key | default | source | counter | meaning |",
                  "| --- | --- | --- | --- | --- |"]
        for option in rule_options(game.rules_path):
            counter = game.rule_counter(option.key) or ""
            cells = [f"`{option.key}`", f"`{option.default}`", option.source,
                     f"`{counter}`" if counter in game_columns(game) else counter, option.meaning]
            lines.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
        lines.append("")
    return "\n".join(lines)


def game_columns(game) -> set:
    """Names a game's rule counters may take that are result columns (not EVERY_GAME and the like)."""
    return set(game.rule_counters.values()) - {EVERY_GAME, PLAYER_COUNTS_ONLY}


def options_text(games) -> str:
    """The rule options of ``games`` for a terminal: key = default [source], then the meaning indented."""
    import textwrap

    lines = []
    for game in games:
        lines.append(f"{game.title} ({game.name}): rule options (change with --set KEY=VALUE)")
        for option in rule_options(game.rules_path):
            source = f"  [{option.source}]" if option.source else ""
            counter = game.rule_counter(option.key)
            counted = f"  (counter: {counter})" if counter else ""
            lines.append(f"  {option.key} = {option.default}{source}{counted}")
            lines += textwrap.wrap(option.meaning, 96, initial_indent="      ", subsequent_indent="      ")
        lines.append("")
    return "\n".join(lines)


# ---- allowed values, written once: in the rule data's comments ---------------------------------------------

_NUMBER = r"-?[0-9][0-9_]*(?:\^[0-9]+|\.[0-9]+)?"          # 100, 1_000, 10^9, 0.5
_BOUND = rf"{_NUMBER}|[a-z][a-z0-9_]*"                     # or another key of the same table
_ALTERNATIVE = re.compile(rf'^(?:"(?P<word>[^"]*)"|(?P<flag>true|false)|(?P<low>{_BOUND})\.\.(?P<high>{_BOUND})'
                          rf'|(?P<only>{_NUMBER}))$')


def _number(text: str) -> int | float:
    """A bound as written: ``10^9`` is 1000000000, ``0.5`` a real number, ``1_000`` 1000."""
    if "^" in text:
        base, _, power = text.partition("^")
        return int(base) ** int(power)
    return float(text) if "." in text else int(text)


# A number that need not be whole is coded for a kernel in ten-thousandths (basis points): the UK game's
# fractions of face value.
REAL_SCALE = 10_000


@dataclass(frozen=True)
class Allowed:
    """A rule value's allowed values as its rules.toml comment opens: ``1..1000:``, ``0..10^9:``, ``2:`` (that one
    number), ``0.0..10.0:`` (any number, whole or not, in that range), ``true | false:``, ``"none" | "scored":``,
    ``"players" | 1..60:``, a bound possibly another key of the same table (``0..die_faces:``). Validation
    (``value``), the rule vector (``RuleLayout``) and the generated options page all read this one declaration."""

    key: str
    words: tuple = ()           # the quoted strings and true/false allowed, as written
    low: int | float | str | None = None    # a range's bounds (None: no number allowed); a str names a key
    high: int | float | str | None = None

    @classmethod
    def parse(cls, key: str, meaning: str) -> "Allowed | None":
        """The allowed values that open ``meaning`` (``ALLOWED: meaning``), or None when it opens otherwise."""
        head, colon, _ = meaning.partition(":")
        if not colon:
            return None
        words, low, high = [], None, None
        for part in head.split("|"):
            match = _ALTERNATIVE.match(part.strip())
            if match is None or ((match["low"] or match["only"]) is not None and low is not None):
                return None
            if match["word"] is not None:
                words.append(match["word"])
            elif match["flag"] is not None:
                words.append(match["flag"] == "true")
            elif match["only"] is not None:
                low = high = _number(match["only"])
            else:
                low, high = (_number(b) if b[0] in "-0123456789" else b for b in (match["low"], match["high"]))
        return cls(key, tuple(words), low, high)

    @property
    def real(self) -> bool:
        """A range of numbers that need not be whole (a bound written with a decimal point)."""
        return isinstance(self.low, float) or isinstance(self.high, float)

    def _bound(self, rules: dict, bound: int | str | None) -> int | None:
        if isinstance(bound, str):
            return require_int(rules, f"{self.key.rpartition('.')[0]}.{bound}")
        return bound

    def value(self, rules: dict):
        """The value at ``key`` in ``rules`` if it is allowed, else a SimkitError naming the key and what is."""
        value = lookup(rules, self.key)
        if self.words and self.low is None and all(isinstance(word, bool) for word in self.words):
            return require_bool(rules, self.key)
        if isinstance(value, str) and value in self.words:
            return value
        if self.real:
            return require_number(rules, self.key, self.low, self.high)
        if self.low is not None and not (self.words and isinstance(value, str)):
            return require_int(rules, self.key, self._bound(rules, self.low), self._bound(rules, self.high))
        allowed = " or ".join(f'"{w}"' for w in self.words)
        if self.low is not None:
            allowed += f" or a number {self.low}..{self.high}"
        raise SimkitError(f"rules: {self.key} must be {allowed}, not {value!r}")

    def code(self, rules: dict) -> int:
        """The value as the kernel reads it: a whole number itself, a flag 0 or 1, a word its position, a number
        that need not be whole in ten-thousandths (``REAL_SCALE``; 0.1 is 1000), rounded to the nearest."""
        value = self.value(rules)
        if self.real:
            return int(round(value * REAL_SCALE))
        return int(value) if isinstance(value, (bool, int)) else self.words.index(value)


class RuleLayout:
    """A game's rule vector derived from its rule data: one slot per value whose comment declares its allowed
    values (Allowed), in the file's order. The engine names its slots (``R_TARGET = RULES.slot("game.target")``)
    and ``vector`` validates and compiles them, so a new rule option is a line of rule data and the engine
    code that reads it."""

    def __init__(self, rules_path: str | Path):
        self.allowed = {}
        self.each = {}      # an inline table's key -> what each of its entries allows (no slot: its game reads it)
        defaults = read_toml(rules_path)
        for option in rule_options(rules_path):
            allowed = Allowed.parse(option.key, option.meaning)
            if allowed is None:
                continue
            if isinstance(rule_value(defaults, option.key, str(rules_path)), dict):
                self.each[option.key] = allowed
            else:
                self.allowed[option.key] = allowed
        self.keys = tuple(self.allowed)
        self.size = len(self.keys)

    def slot(self, key: str) -> int:
        """The vector position of ``key``; a KeyError for a key whose allowed values the rule data does not declare."""
        if key not in self.allowed:
            raise KeyError(f"{key}: the rule data declares no allowed values for it")
        return self.keys.index(key)

    def value(self, rules: dict, key: str):
        """One value of ``rules``, checked against what its rule data allows."""
        return self.allowed[key].value(rules)

    def entry(self, rules: dict, key: str, name) -> int | float | str | bool:
        """Entry ``name`` of the inline table at ``key`` (``start_hand = { red = 4 }``: ``entry(rules,
        "game.start_hand", "red")``), checked against the allowed values its comment declares for every entry."""
        each = self.each[key]
        return Allowed(f"{key}.{name}", each.words, each.low, each.high).value(rules)

    def vector(self, rules: dict):
        """Every declared value of ``rules``, validated (errors name the key and what is allowed) and coded, as
        an int64 array."""
        import numpy as np  # not at the top: `simkit rules --help` answers without numpy

        return np.array([self.allowed[key].code(rules) for key in self.keys], np.int64)
