"""The model-free candidates of a repair, guided by the failure and ranked by its evidence: a name the failure calls
undefined → the names in the file nearest in spelling; a missing attribute → the file's attributes nearest in
spelling; a `None` result → the missing `return`; then the one-token slips of mutants.py on the suspicious lines,
an attribute's twin that the file reads elsewhere, a part the function slices elsewhere, a call whose value a
variable already holds, a result stored in the wrong place (misplaced.py), a `while True` loop that should run while
a name holds, the lines a loop may be missing (loop_additions.py), and a guard for a piece handed on empty
(empty_pieces.py).

No variant touches a comment, a docstring or a string literal, unless the failure quotes that string: on a real
project's bug, swapping words inside a docstring cost minutes and could never fix anything.
"""

from __future__ import annotations

import ast
import difflib
import functools
import io
import re
import textwrap
import tokenize
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

from pedro.repair.broken_arrows import arrow_parameters, broken_arrows
from pedro.repair.character_sets import character_sets
from pedro.repair.clues import Clues
from pedro.repair.compared_values import compared_values
from pedro.repair.counts import divided_by_count
from pedro.repair.digit_steps import digit_steps
from pedro.repair.divided_literals import divided_literals
from pedro.repair.divisor_loops import divisor_loops, small_numbers, stuck_divisor_loops
from pedro.repair.documented_cases import documented_cases
from pedro.repair.dropped_calls import dropped_calls, dropped_checks
from pedro.repair.empty_pieces import empty_piece_guards
from pedro.repair.fallbacks import fallbacks
from pedro.repair.fixed_conditions import conditions_fixed_apart, fixed_conditions
from pedro.repair.half_swaps import half_swaps
from pedro.repair.handler_types import handler_types
from pedro.repair.idle_counters import idle_counters, idle_items
from pedro.repair.index_guards import index_guards
from pedro.repair.joined_halves import joined_halves
from pedro.repair.letter_ranges import letter_ranges
from pedro.repair.locate import RowChange, Unit, indent_of
from pedro.repair.loop_additions import loop_additions
from pedro.repair.loop_remainders import loop_remainders
from pedro.repair.mirror_pairs import mirror_pairs
from pedro.repair.misplaced import misplaced_stores
from pedro.repair.mutants import Mutant, line_mutants, replaced_calls, replaced_names, unit_names, without_comment
from pedro.repair.none_checks import none_checks
from pedro.repair.normal_forms import (
    FORMS,
    handles_case,
    ignored,
    normalised_js_parameters,
    normalised_parameters,
    stripped_pieces,
)
from pedro.repair.overwritten_stores import overwritten_stores
from pedro.repair.own_class import own_class_rows
from pedro.repair.padding import zero_padded
from pedro.repair.parted_twins import parted_twins
from pedro.repair.raise_guards import raise_guards, throw_guards
from pedro.repair.recursion_slips import recursion_slips
from pedro.repair.reshaped_results import reshaped_results
from pedro.repair.reversed_prefixes import reversed_prefixes
from pedro.repair.rune_literals import rune_literals
from pedro.repair.running_values import running_values
from pedro.repair.set_orders import set_orders
from pedro.repair.statement_slips import (
    doubled_steps_lines,
    doubled_steps_python,
    dropped_javascript,
    dropped_python,
    dropped_results,
    excess_steps_lines,
    excess_steps_python,
    inverted_flags,
    returned_in_place_javascript,
    returned_in_place_python,
    returns_in_loops,
    shared_defaults,
    unformatted_javascript,
    unformatted_python,
)
from pedro.repair.still_values import still_counts, unfilled
from pedro.repair.stuck_loops import stepped_counters_python, stuck_loops_javascript, stuck_loops_python
from pedro.repair.swapped_literals import swapped_literals
from pedro.repair.swapped_reads import crossed_attributes, reordered_reads, swapped_reads, swapped_throughout
from pedro.repair.swapped_returns import swapped_returns
from pedro.repair.term_slips import moved_counters
from pedro.repair.ternary_reach import ternary_reach
from pedro.repair.text_slips import (
    joined_apart,
    recased,
    requoted,
    spelled_out,
    widened_blanks,
    widened_letters,
)
from pedro.repair.tie_breaks import tie_breaks
from pedro.repair.trailing_separators import trailing_separators
from pedro.repair.trimmed_results import trimmed_results
from pedro.repair.unread import unread_names
from pedro.repair.wrap_lengths import wrap_lengths, wrapped_codes

_IDENTIFIER = re.compile(r"[A-Za-z_$][\w$]*")
_LOOKUP = re.compile(r"\.get\((?P<key>[^(),\n]+)\)")
"""A dict lookup with no default (`stock.get(name)`): None for a missing key."""
_NEAREST = 3
_CUTOFF = 0.6
_SPELLING_CUTOFF = 0.8
"""How alike a literal and a test's word must be to be one misspelt: `Jupyter` and `Jupiter` are 0.86 alike."""
_BRACKET_SIDES = ("([{<", ")]}>")
_LETTER_SET_LEAST = 3
"""The fewest letters a literal written as a set of them has (`"aeiou"`); two may be a word."""
_BRACKET_LITERAL = re.compile(r"""(?P<q>['"`])(?P<bracket>[()\[\]{}<>])(?P=q)""")
"""A bracket alone in quotes (`'('`, `"]"`): what code that walks brackets compares each character with."""
# Twin attributes share a part and differ in the rest (`incoming` and `outgoing`, `left` and `right` less so).
_ATTRIBUTE_CUTOFF = 0.5
_GUIDED_SCORE = 8.0
_THROUGHOUT = 0.5
"""What a literal's change made to every literal like it is worth above the change of that one literal."""
_TIER_SCORE = {1: 3.0, 2: 2.0, 3: 1.0, 4: 0.5}
_DEEPEST_LINE = 2.0
OWN_CLASS_SCORE = _GUIDED_SCORE + _DEEPEST_LINE + 1.5
"""A class named in code a subclass the failing test makes inherits (own_class.py): above every other change."""
_CLUE_NAME = 1.0
_RANK_STEP = 0.4
_KIND_FIT = 1.5
# A base case's condition when a recursion never ended: as strong as the most suspicious line's rank, since every
# line of an endless recursion ran in every failing test.
_BASE_CASE = 3.0
# A change that reads a variable the unit stores and never reads (`h*60 + h` → `h*60 + m`, with `m` scanned).
_UNREAD_FIT = 2.5
# `target = value` where the value is a name, an attribute or a call's result, as a line of Python or JavaScript.
_CASE_TARGET = re.compile(
    r"^(?P<head>\s*(?:(?:const|let|var)\s+)?[\w$.\[\]'\"]+\s*=\s*)(?P<value>[A-Za-z_$][\w$.]*(?:\(.*\))?)(?P<end>;?\s*)$"
)
_CASE_FAMILY = {"python": "python", "javascript": "javascript", "typescript": "javascript", "tsx": "javascript"}
_CASE_CALLS = (".lower()", ".upper()", ".casefold()", ".toLowerCase()", ".toUpperCase()")
_ENDLESS = re.compile(r"^\s*while\s*\(?\s*(?P<constant>True|true)\s*\)?\s*[:{]")
_ASSIGNED = re.compile(r"^\s*(?:(?:const|let|var)\s+)?(?P<name>[A-Za-z_$][\w$]*)\s*(?::=|=(?!=))")
# A comparison's bound moved by one: an index past the end is as often the loop's `<=` as the index's `+ 1`.
_BOUNDS = {f"`{a}` → `{b}`" for a, b in (("<=", "<"), ("<", "<="), (">=", ">"), (">", ">="))}
_LOOP = re.compile(r"^\s*(?:while|for)\b")
_LOOP_TARGETS = re.compile(r"\bfor\s*\(?\s*(?:const\s+|let\s+|var\s+)?([\w$\s,()\[\]]+?)\s+(?:in|of)\b")
_CONDITION = re.compile(r"^\s*(?:\}\s*else\s+)?(?:if|elif)\b")
_RETURN = re.compile(r"(?<![\w$])return\b")
_STRING = re.compile(r"""(?P<q>["'`])(?P<body>(?:\\.|(?!(?P=q)).)*)(?P=q)""")
# A name sliced with one colon (`arr[:k]`, `a[1:]`), and a name standing alone as a value: not called, indexed,
# an attribute's owner or part, nor a keyword argument or an assignment's target.
_SLICE = re.compile(r"(?<![\w.])(?P<name>[A-Za-z_]\w*)\[(?P<slice>[^\[\]:]*:[^\[\]:]*)\]")
_WALKED = {
    "python": re.compile(r"\bfor\b.+?\bin\s+(?P<name>[A-Za-z_]\w*)\s*(?:$|:|\bif\b|[)\]])"),
    "go": re.compile(r"\bfor\b.+?\brange\s+(?P<name>[A-Za-z_]\w*)\s*\{"),
}
"""The sequence a `for` walks, in a statement or a comprehension (`for x in xs:`, `(e for e in arr if …)`), or
over Go's `range`; both languages slice as `xs[:k]`."""
_BARE_NAME = re.compile(r"(?<![\w.\[])(?P<name>[A-Za-z_]\w*)(?![\w\[(.]|\s*(?:=(?!=)|[-+*/]=))")
_DEFINITION = re.compile(r"^\s*(?:async\s+def|def|class|lambda|func)\b")


@dataclass(frozen=True)
class Variant:
    """A change of one line of a unit: the file line, its new text (a line, or two where a line is added), what
    changed, and how strongly the failure's evidence points at it."""

    unit: Unit
    line: int
    text: str
    change: str
    score: float
    also: tuple[tuple[int, str], ...] = ()
    """Other file lines the same change rewrites, (line, new text)."""


def unit_variants(unit: Unit, suspicious: Sequence[int], clues: Clues, file_text: str) -> list[Variant]:
    """Every variant of the unit's lines, best supported first: the lines coverage or the traceback rank most
    suspicious first, then the rest of the body; none on lines of prose (comments, docstrings)."""
    lines = unit.text.splitlines()
    body = range(unit.start_line + 1, unit.end_line + 1)
    prose = _prose_lines(unit)
    # The signature last: its default values (`sep="_"`) are the slip a signature holds.
    order = list(dict.fromkeys([*(line for line in suspicious if line in body), *body, unit.start_line]))
    scope = _scope_names(file_text, unit.language)
    attributes = _attribute_names(file_text)
    # Names from code only: the words of a docstring's lines are not names in scope.
    code_only = [text if unit.start_line + k not in prose else "" for k, text in enumerate(unit.text.splitlines())]
    clues = _case_wanted(unit, prose, code_only, clues)
    names = unit_names("\n".join(code_only), unit.language)
    heads = _loop_heads(unit, clues)
    cases = _base_cases(unit, clues)
    unread = unread_names(unit)
    bound = _loop_bound(code_only)
    stored_last = _stored_last(unread, code_only, unit.start_line)
    # Read nowhere, so not among the names read: the one a slip left out, tried before the names each line
    # reads (only the first few names are tried in place of each).
    names = [*sorted(unread - set(names)), *names]
    held = _held_names(unit, code_only)
    found: dict[tuple[int, str, tuple[tuple[int, str], ...]], Variant] = {}
    for rank, line in enumerate(order):
        text = lines[line - unit.start_line]
        if line in prose or not text.strip():
            continue
        evidence = _line_evidence(unit, line, text, clues, heads) + max(0.0, 3.0 - _RANK_STEP * rank)
        evidence += _BASE_CASE if line in cases else 0.0
        for change, new, guided in _changes(text, unit, clues, scope, (names, held), attributes):
            score = (_GUIDED_SCORE if guided else _TIER_SCORE.get(change.tier, 1.0)) + evidence
            score += _kind_fit(change, clues) + _unread_fit(text, new, stored_last, bound, line)
            _keep(found, Variant(unit, line, new, change.change, score))
    for variant in _whole_unit_variants(unit, order, prose, clues):
        _keep(found, variant)
    return sorted(found.values(), key=lambda v: (-v.score, order.index(v.line) if v.line in order else 0))


def _keep(found: dict[tuple[int, str, tuple[tuple[int, str], ...]], Variant], variant: Variant) -> None:
    """Keep `variant` unless the same change was reached by a stronger reason, which keeps its rank and its words."""
    key = (variant.line, variant.text, variant.also)
    if key not in found or found[key].score < variant.score:
        found[key] = variant


def _whole_unit_variants(unit: Unit, order: list[int], prose: set[int], clues: Clues) -> list[Variant]:
    """The variants read from the whole unit rather than one line: a missing `return`, a result computed and never
    used, a loop that never ends, a line a loop is missing, a counter moved on the wrong name."""
    found = [*_missing_return(unit, clues), *_returns_after_calls(unit, order, prose, clues), *_unused_results(unit)]
    found += _rebased_arguments(unit, order, clues)
    found += _misplaced(unit, order, clues)
    found += _empty_guards(unit, clues)
    found += _empty_pieces(unit, order, clues)
    found += _normalised_parameters(unit, order, prose, clues)
    found += _statement_slips(unit, order, prose, clues)
    found += [*_spelled_out(unit, order, prose, clues), *_requoted(unit, order, prose, clues)]
    found += _excess_steps(unit, order, prose)
    found += [*_loop_ends(unit), *_stuck_loops(unit, order, prose)]
    found += _divided_by_count(unit, order, prose)
    found += _divisor_loops(unit, order, prose, clues)
    found += _idle_counters(unit, order, prose)
    found += _still_values(unit, order, prose)
    lines = unit.text.splitlines()
    docstring = [lines[row] for line in sorted(prose) if 0 <= (row := line - unit.start_line) < len(lines)]
    documentation = "\n".join([unit.doc, *docstring])
    guided = [*idle_items(lines, unit.language), *digit_steps(lines, unit.language), *mirror_pairs(lines)]
    guided += [*documented_cases(lines, unit.name, documentation), *small_numbers(lines, unit.language)]
    guided += [*running_values(lines, unit.language), *wrap_lengths(lines), *wrapped_codes(lines)]
    guided += [*letter_ranges(lines), *divided_literals(lines, unit.language), *broken_arrows(lines, unit.language)]
    guided += [
        *trimmed_results(lines, unit.language, clues.extra),
        *reshaped_results(lines, unit.language, clues.shapes),
    ]
    guided += [*conditions_fixed_apart(lines, unit.language), *reordered_reads(lines, unit.language)]
    guided += crossed_attributes(lines, unit.language)
    guided += [*joined_halves(lines, unit.language), *tie_breaks(lines, unit.language)]
    guided += set_orders(lines, unit.language)
    guided += [*rune_literals(lines, unit.language), *reversed_prefixes(lines), *half_swaps(lines)]
    if unit.language == "python":
        found += _python_rows(unit, lines, order, prose, clues)
    found += _guided_rows(unit, order, prose, guided)
    found += _compared_values(unit, order, prose)
    found += _fixed_conditions(unit, order, prose)
    found += _recursions(unit, order, prose, clues)
    found += _swapped_pairs(unit, order, prose)
    found += _parted_twins(unit, order, prose)
    found += [*_dropped_calls(unit, prose, clues), *_fallbacks(unit, clues), *_handler_types(unit, clues)]
    found += [*_raise_guards(unit, clues), *_index_guards(unit, clues)]
    found += [
        Variant(unit, unit.start_line + row, text, change, _TIER_SCORE[3])
        for row, text, change in moved_counters(lines)
        if unit.start_line + row not in prose
    ]
    additions = [*loop_additions(unit), *loop_remainders(unit)]
    found += [Variant(unit, line, text, added, _TIER_SCORE[2]) for line, text, added in additions]
    # A separator added after every item, the last one's included: the code itself shows it (trailing_separators.py).
    found += [
        Variant(unit, line, text, trimmed, _GUIDED_SCORE + _rank_bonus(line, order))
        for line, text, trimmed in trailing_separators(unit)
        if line not in prose
    ]
    return found


def _changes(
    text: str, unit: Unit, clues: Clues, scope: set[str], names: tuple[list[str], list[str]], attributes: set[str]
) -> Iterator[tuple[Mutant, str, bool]]:
    """(the change, the new line, whether the failure named what it changes) for one line: `names` are those the
    unit reads and those it assigns; `attributes` are those the file reads elsewhere, one of which a slip
    (`node.outgoing` for `node.incoming`) may have meant."""
    read, held = names
    yield from _guided_changes(text, unit, clues, scope)
    yield from _instance_changes(text, unit, clues, read)
    yield from _attribute_changes(text, clues, attributes)
    yield from _slice_changes(text, unit, read)
    mutants = [*line_mutants(text, unit.language), *replaced_names(text, unit.language, read)]
    for mutant in [*mutants, *replaced_calls(text, unit.language, held)]:
        # A format's width or precision is worth a try when the failure compares text; other changes inside a
        # string only when the failure quotes that string.
        if mutant.formats and not clues.quoted:
            continue
        if not (mutant.formats or mutant.letters) and _touches_string(text, mutant.line) and not _quoted(text, clues):
            continue
        yield mutant, mutant.line, False


def _guided_changes(text: str, unit: Unit, clues: Clues, scope: set[str]) -> Iterator[tuple[Mutant, str, bool]]:
    """The changes the failure asks for: an undefined name → the name in scope nearest in spelling, a missing
    attribute → the object's nearest, and the value in the form wanted (_form_changes)."""
    for name in clues.undefined - arrow_parameters(text, unit.language):
        for match in re.finditer(rf"(?<![\w.$]){re.escape(name)}(?![\w$])", text):
            for other in difflib.get_close_matches(name, sorted(scope - {name}), n=_NEAREST, cutoff=_CUTOFF):
                new = text[: match.start()] + other + text[match.end() :]
                yield Mutant(new, f"`{name}` → `{other}`, the name in scope nearest in spelling", 0), new, True
    for key in clues.keys:
        for match in re.finditer(rf"""(?P<quote>['"]){re.escape(key)}(?P=quote)""", text):
            known = sorted(clues.quoted - {key})
            for other in difflib.get_close_matches(key, known, n=_NEAREST, cutoff=_CUTOFF):
                new = f"{text[: match.start() + 1]}{other}{text[match.end() - 1 :]}"
                yield Mutant(new, f"`{key}` → `{other}`, the key the failure shows nearest in spelling", 0), new, True
    yield from _misspelt_literals(text, clues)
    yield from _other_brackets(text, clues)
    yield from _letter_sets_in_both_cases(text, clues)
    owned = dict(clues.owned)
    for name in clues.attributes:
        # The attributes the object has, where the failure says which object; else the names the file uses.
        pool, whose = (owned[name], "the object's attribute") if name in owned else (scope - {name}, "the attribute")
        for match in re.finditer(rf"\.{re.escape(name)}(?![\w$])", text):
            for other in difflib.get_close_matches(name, sorted(pool), n=_NEAREST, cutoff=_CUTOFF):
                new = text[: match.start() + 1] + other + text[match.end() :]
                yield Mutant(new, f"`.{name}` → `.{other}`, {whose} nearest in spelling", 0), new, True
    yield from _form_changes(text, unit, clues)


def _misspelt_literals(text: str, clues: Clues) -> Iterator[tuple[Mutant, str, bool]]:
    """A word in a literal a letter or two from one the failing tests spell and spelt as they spell it (`"Jupyter"` →
    `"Jupiter"`, as a test calls `Bf("Jupiter", "Neptune")`): a table of names with a typo fails on that name."""
    if not clues.spelled:
        return
    known = sorted(clues.spelled)
    for match in _STRING.finditer(text):
        word = match.group("body")
        if word in clues.spelled or not word.isalpha():
            continue
        for other in difflib.get_close_matches(word, known, n=_NEAREST, cutoff=_SPELLING_CUTOFF):
            if abs(len(other) - len(word)) <= 1:
                new = f"{text[: match.start('body')]}{other}{text[match.end('body') :]}"
                yield Mutant(new, f"`{word}` → `{other}`, as the failing test spells it", 0), new, True


def _other_brackets(text: str, clues: Clues) -> Iterator[tuple[Mutant, str, bool]]:
    """A bracket the code looks for that no string of the failing tests holds → each of its side they do hold
    (`s[i] == '('` where the tests pass `"[[]]"`)."""
    for match in _BRACKET_LITERAL.finditer(text):
        bracket = match.group("bracket")
        if bracket in clues.characters:
            continue
        side = next(kinds for kinds in _BRACKET_SIDES if bracket in kinds)
        for other in (kind for kind in side if kind in clues.characters):
            new = f"{text[: match.start('bracket')]}{other}{text[match.end('bracket') :]}"
            yield Mutant(new, f"`{bracket}` → `{other}`, the bracket the failing tests' strings hold", 0), new, True


def _letter_sets_in_both_cases(text: str, clues: Clues) -> Iterator[tuple[Mutant, str, bool]]:
    """A set of letters written in one case (`"aeiou"`: distinct letters in order) where the failing tests' strings
    hold those letters in the other (`Encode("TEST")`) → the set in both cases, `"aeiouAEIOU"`."""
    for match in _STRING.finditer(text):
        body = match.group("body")
        if len(body) < _LETTER_SET_LEAST or not body.isascii() or not body.isalpha():
            continue
        if not (body.islower() or body.isupper()) or list(body) != sorted(set(body)):
            continue
        other = body.swapcase()
        if any(letter in clues.characters for letter in other):
            new = f"{text[: match.end('body')]}{other}{text[match.end('body') :]}"
            change = f"`{body}` → `{body}{other}`: the failing tests' strings hold its letters in the other case"
            yield Mutant(new, change, 0), new, True


def _form_changes(text: str, unit: Unit, clues: Clues) -> Iterator[tuple[Mutant, str, bool]]:
    """The changes that put a value in the form the failure or the unit wants: text compared in the wrong case → the
    value cased, spaces to be ignored → a split's pieces stripped, a number wanted with leading zeros → padded, a
    lookup that gave None where a value was used → a default for a missing key."""
    for case in sorted(clues.cases):
        for new in _case_folded(text, case, unit.language):
            change = f"the value made {case} case, as the failure's strings differ by case alone"
            yield Mutant(new, change, 0), new, True
    if "space" in clues.ignored:
        for new, change in stripped_pieces(text, unit.language):
            yield Mutant(new, change, 0), new, True
    for width in sorted(clues.widths):
        for new, change in zero_padded(text, width, unit.language):
            yield Mutant(new, change, 0), new, True
    if "none" in clues.kinds and unit.language == "python":
        for match in _LOOKUP.finditer(text):
            for default in ("0", '""', "[]"):
                new = f"{text[: match.end('key')]}, {default}{text[match.end('key') :]}"
                yield (
                    Mutant(new, f"`.get({match['key']})` → `.get({match['key']}, {default})`, as None came back", 0),
                    new,
                    True,
                )


def _instance_changes(text: str, unit: Unit, clues: Clues, names: list[str]) -> Iterator[tuple[Mutant, str, bool]]:
    """A method called on its class where the failure says an instance was meant: the class → each variable of the
    unit, those the unit's lines name beside the class first (`isinstance(period, timedelta)`), then an instance."""
    for owner in sorted(clues.unbound):
        receiver = re.compile(rf"(?<![\w.$]){re.escape(owner)}(?=\s*\.)")
        matches = list(receiver.finditer(text))
        if not matches:
            continue
        beside = {name for line in unit.text.splitlines() if receiver.search(line) or owner in line
                  for name in _IDENTIFIER.findall(line)}  # fmt: skip
        ranked = sorted((name for name in names if name != owner), key=lambda name: name not in beside)
        for match in matches:
            for other in ranked[:_NEAREST]:
                new = text[: match.start()] + other + text[match.end() :]
                yield Mutant(new, f"`{owner}` → `{other}`, an instance for the class", 0), new, True
            new = f"{text[: match.end()]}(){text[match.end() :]}"
            yield Mutant(new, f"`{owner}` → `{owner}()`, an instance for the class", 0), new, True


def _attribute_changes(text: str, clues: Clues, attributes: set[str]) -> Iterator[tuple[Mutant, str, bool]]:
    """An attribute in place of its twin the file reads elsewhere (`node.outgoing` for `node.incoming`), unasked."""
    for match in re.finditer(r"\.(?P<name>[A-Za-z_$][\w$]*)", text):
        name = match.group("name")
        if name in clues.attributes:
            continue  # offered by the guided changes
        kin = difflib.get_close_matches(name, sorted(attributes - {name}), n=_NEAREST, cutoff=_ATTRIBUTE_CUTOFF)
        for other in kin:
            new = text[: match.start("name")] + other + text[match.end("name") :]
            if _touches_string(text, new):
                break  # the name stands inside a string: text, not an attribute
            yield Mutant(new, f"`.{name}` → `.{other}`, an attribute the file uses", 3), new, False
    yield from _twice_read(text, attributes)
    yield from _unpaired_attributes(text)


_READ_ATTRIBUTE = re.compile(r"(?<![\w.$])(?P<owner>[A-Za-z_$][\w$]*)\.(?P<name>[A-Za-z_$][\w$]*)\b(?!\s*\()")


def _twice_read(text: str, attributes: set[str]) -> Iterator[tuple[Mutant, str, bool]]:
    """One of two reads of the same attribute in a line as another attribute the file uses, however unlike their
    names: `self.w * self.w` → `self.w * self.h`, as `w * w` → `w * h` among plain names (mutants.replaced_names)."""
    reads = list(_READ_ATTRIBUTE.finditer(text))
    counts = Counter((match.group("owner"), match.group("name")) for match in reads)
    nearest: dict[str, list[str]] = {}
    for match in reads:
        name = match.group("name")
        if counts[(match.group("owner"), name)] < 2:
            continue
        if name not in nearest:
            ranked = sorted(attributes - {name}, key=lambda other: -difflib.SequenceMatcher(None, name, other).ratio())
            nearest[name] = ranked[:_NEAREST]
        for other in nearest[name]:
            new = text[: match.start("name")] + other + text[match.end("name") :]
            if _touches_string(text, new):
                break  # text, not an attribute
            yield Mutant(new, f"`.{name}` → `.{other}`, for one of its two reads", 3), new, False


_PAIRED = re.compile(
    r"(?<![\w.$])(?P<owner>[A-Za-z_$][\w$]*)\.(?P<name>[A-Za-z_$][\w$]*)\s*(?:===?|!==?|<=?|>=?)\s*"
    r"(?P<other_owner>[A-Za-z_$][\w$]*)\.(?P<other>[A-Za-z_$][\w$]*)\b(?!\s*\()"
)


def _unpaired_attributes(text: str) -> Iterator[tuple[Mutant, str, bool]]:
    """Two objects compared field by field (`self.x == other.x and self.y == other.x`), one comparison pairing two
    unlike fields where the others pair like ones: that one paired like them, on either side. A likely slip: the
    line itself shows what it meant."""
    pairs = list(_PAIRED.finditer(text))
    owners = [(m["owner"], m["other_owner"]) for m in pairs if m["name"] == m["other"]]
    alike = {(one, other) for one, other in owners if one != other}
    for match in pairs:
        if match["name"] == match["other"] or (match["owner"], match["other_owner"]) not in alike:
            continue
        for side, to in (("other", match["name"]), ("name", match["other"])):
            new = text[: match.start(side)] + to + text[match.end(side) :]
            said = f"`.{match[side]}` → `.{to}`, as the line's other comparisons pair its fields"
            yield Mutant(new, said, 1), new, False


def _slice_changes(text: str, unit: Unit, names: list[str]) -> Iterator[tuple[Mutant, str, bool]]:
    """A sequence walked or passed whole where a part of it was meant, a part the unit slices elsewhere: `for x in
    arr:` → `for x in arr[k:]` beside `heap = arr[:k]`; `f(a[1:], b)` → `f(a[1:], b[1:])`."""
    walks = _WALKED.get(unit.language)
    if walks is None or _DEFINITION.match(text):
        return
    slices, sliced = _unit_slices(unit.text)
    code = without_comment(text, unit.language)
    beside = bool(_SLICE.search(code))
    # A sequence walked whole beside a name the unit never reads: up to it, or from it (`arr` → `arr[:k]`).
    unread = [part for name in sorted(unread_names(unit)) for part in (f":{name}", f"{name}:")]
    walked = set(walks.findall(code)) if unread else set()
    for match in _BARE_NAME.finditer(code):
        name = match.group("name")
        sliced_parts = slices if name in sliced or beside else ()
        unread_parts = unread if name in walked else []
        if name not in names:
            continue
        for part in dict.fromkeys([*sliced_parts, *unread_parts]):
            new = f"{text[: match.end()]}[{part}]{text[match.end() :]}"
            why = "a part the function slices" if part in sliced_parts else "the name the function never reads"
            if not _touches_string(text, new):
                yield Mutant(new, f"`{name}` → `{name}[{part}]`, {why}", 3), new, False


@functools.lru_cache(maxsize=64)
def _unit_slices(text: str) -> tuple[tuple[str, ...], frozenset[str]]:
    """The slices the unit takes (`1:`, `:k`), each with its other half (`k:` for `:k`), and the names it slices;
    read once per unit, not once per line."""
    matches = list(_SLICE.finditer(text))
    found = dict.fromkeys(re.sub(r"\s+", "", match.group("slice")) for match in matches)
    for part in list(found):
        head, _, tail = part.partition(":")
        if bool(head) != bool(tail):
            found.setdefault(f"{tail}:{head}")
    return tuple(found), frozenset(match.group("name") for match in matches)


def _case_folded(text: str, case: str, language: str) -> Iterator[str]:
    """An assignment of a name, an attribute or a call's result (`word = raw.strip(p)`) with the value's case set."""
    match, family = _CASE_TARGET.match(text), _CASE_FAMILY.get(language)
    # Go cases text with a function (`strings.ToLower(s)`), not a method: no variant of this shape there.
    if match is None or family is None or match.group("value").endswith(_CASE_CALLS):
        return
    call = f".{case}()" if family == "python" else f".to{case.title()}Case()"
    yield f"{match.group('head')}{match.group('value')}{call}{match.group('end')}"


def _line_evidence(unit: Unit, line: int, text: str, clues: Clues, heads: set[int]) -> float:
    score = _DEEPEST_LINE if clues.deepest == (unit.path, line) or line in heads else 0.0
    if any(frame == (unit.path, line) for frame in clues.frames[1:]):
        score += _DEEPEST_LINE / 2
    words = set(_IDENTIFIER.findall(text))
    return score + (_CLUE_NAME if words & (clues.names | clues.undefined | clues.attributes) else 0.0)


def _base_cases(unit: Unit, clues: Clues) -> set[int]:
    """The conditions of a recursive unit's base cases, when the failure is a recursion that never ended: an `if`
    whose branch returns without calling the unit again (`if len(arr) == 0: return arr`) stops too late more often
    than the recursive call is wrong."""
    lines = unit.text.splitlines()
    call = re.compile(rf"(?<![\w.$]){re.escape(unit.name)}\s*\(")
    if "recursion" not in clues.kinds or not any(call.search(text) for text in lines[1:]):
        return set()
    cases: set[int] = set()
    for row, text in enumerate(lines[1:], start=1):
        if not _CONDITION.match(text):
            continue
        branch = next((later for later in lines[row + 1 :] if later.strip()), "")
        returned = text if _RETURN.search(text) else branch if _indent(branch) > _indent(text) else ""
        if _RETURN.search(returned) and not call.search(returned):
            cases.add(unit.start_line + row)
    return cases


def _loop_heads(unit: Unit, clues: Clues) -> set[int]:
    """The headers of the loops around the failure's frames in the unit, where an index ran out of range or a test
    hung: a loop's bound (`while lo <= hi:`) starts such a failure more often than the line it stopped on."""
    if not clues.kinds & {"index", "hang"}:
        return set()
    lines = unit.text.splitlines()
    heads: set[int] = set()
    for path, line in clues.frames:
        if path != unit.path or not unit.start_line < line <= unit.end_line:
            continue
        row = line - unit.start_line
        indent = _indent(lines[row])
        for up in range(row, 0, -1):
            text = lines[up]
            if not text.strip() or (up < row and _indent(text) >= indent):
                continue
            if _LOOP.match(text):
                heads.add(unit.start_line + up)
                break
            indent = _indent(text)
    return heads


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip())


def _kind_fit(change: Mutant, clues: Clues) -> float:
    """A bonus for a change of the kind the error suggests: a bound off by one for an index error, an operator for
    a division by zero."""
    if "index" in clues.kinds and ("1" in change.change or "dropped" in change.change or change.change in _BOUNDS):
        return _KIND_FIT
    if "zero" in clues.kinds and change.tier == 1:
        return _KIND_FIT
    return 0.0


def _unread_fit(old: str, new: str, stored_last: dict[str, int], bound: set[str], line: int) -> float:
    """A bonus for a change that brings a variable the unit stores and never reads into a line after the last one
    that stores it (before it, its value is not yet made), in place of a name other than one a loop binds: the item
    a loop hands out is seldom where a whole value computed beside the loop was meant."""
    before = set(_IDENTIFIER.findall(old))
    if not stored_last or before & stored_last.keys():
        return 0.0
    after = set(_IDENTIFIER.findall(new))
    replaced = before - after
    if replaced and replaced <= bound:
        return 0.0
    return _UNREAD_FIT if any(line > stored_last[name] for name in after & stored_last.keys()) else 0.0


def _stored_last(unread: frozenset[str], lines: Sequence[str], start_line: int) -> dict[str, int]:
    """For each variable the unit never reads, the last file line that names it: every place it stands stores it."""
    last: dict[str, int] = {}
    for row, text in enumerate(lines):
        for name in unread & set(_IDENTIFIER.findall(text)):
            last[name] = start_line + row
    return last


def _loop_bound(lines: Sequence[str]) -> set[str]:
    """The names the unit's loops bind (`for i, count in`, `for (const x of`)."""
    return {name for line in lines for match in _LOOP_TARGETS.finditer(line) for name in _IDENTIFIER.findall(match[1])}


def _python_rows(unit: Unit, lines: list[str], order: list[int], prose: set[int], clues: Clues) -> list[Variant]:
    """The row changes read from Python's own syntax: a conditional expression narrowed, a test against None turned,
    and the lines that name a class a failing test subclasses."""
    found: list[Variant] = []
    # A conditional expression narrowed by parentheses (ternary_reach.py): as likely as a one-token slip.
    found += [Variant(unit, line, change.text, change.change, _TIER_SCORE[1] + _rank_bonus(line, order))
              for change in ternary_reach(lines)
              if (line := unit.start_line + change.row) not in prose]  # fmt: skip
    # A test against None turned to one of truth (none_checks.py), as likely as a one-token slip; the other way
    # round a little less: a name tested for truth is most often meant so.
    found += [Variant(unit, line, change.text, change.change, _TIER_SCORE[tier] + _rank_bonus(line, order))
              for tier, to_none in ((1, False), (2, True)) for change in none_checks(lines, to_none=to_none)
              if (line := unit.start_line + change.row) not in prose]  # fmt: skip
    # The failing test made a subclass: each line that names its base is as likely as the rest, and likelier than
    # every other change, wherever the failure points.
    found += [Variant(unit, unit.start_line + change.row, change.text, change.change, OWN_CLASS_SCORE)
              for change in own_class_rows(lines, clues.subclassed)
              if unit.start_line + change.row not in prose]  # fmt: skip
    return found


def _returns_after_calls(unit: Unit, order: list[int], prose: set[int], clues: Clues) -> Iterator[Variant]:
    """A `return` added after each call that ends a branch, ranked as the line's other variants are."""
    lines = unit.text.splitlines()
    for line in _calls_that_end_a_branch(unit):
        if line in prose:
            continue
        text = lines[line - unit.start_line]
        indent = indent_of(text)
        rank = order.index(line) if line in order else len(order)
        score = _TIER_SCORE[2] + _line_evidence(unit, line, text, clues, set()) + max(0.0, 3.0 - _RANK_STEP * rank)
        yield Variant(unit, line, f"{text}\n{indent}return", "`return` added after the call", score)


def _loop_ends(unit: Unit) -> list[Variant]:
    """`while True:` where the loop was meant to run while something is left (`while queue:`): each name the unit
    assigned before the loop, the nearest first."""
    lines = unit.text.splitlines()
    found: list[Variant] = []
    for row, text in enumerate(lines):
        loop = _ENDLESS.match(text)
        if loop is None:
            continue
        assigned = [match.group("name") for line in lines[:row] if (match := _ASSIGNED.match(line))]
        for name in list(dict.fromkeys(reversed(assigned)))[:_NEAREST]:
            new = text[: loop.start("constant")] + name + text[loop.end("constant") :]
            found.append(Variant(unit, unit.start_line + row, new, f"`{loop['constant']}` → `{name}`", 1.0))
    return found


def _stuck_loops(unit: Unit, order: list[int], prose: set[int]) -> list[Variant]:
    """A `while` loop's condition that reads nothing the loop changes, with one of its names made one the loop
    assigns, or, where the condition is a count alone, that count stepped at the end of the body (stuck_loops.py):
    the code itself shows that slip, as a failure's clue does, so these come first, the step before the rest."""
    if unit.language == "python":
        scored = [(change, _GUIDED_SCORE) for change in stuck_loops_python(unit.text)]
        scored += [(change, _GUIDED_SCORE + _THROUGHOUT) for change in stepped_counters_python(unit.text)]
    elif unit.language in {"javascript", "typescript"}:
        scored = [(change, _GUIDED_SCORE) for change in stuck_loops_javascript(unit.text.splitlines())]
    else:
        return []
    return [
        Variant(unit, line, change.text, change.change, score + _rank_bonus(line, order))
        for change, score in scored
        if (line := unit.start_line + change.row) not in prose
    ]


def _idle_counters(unit: Unit, order: list[int], prose: set[int]) -> list[Variant]:
    """A name in the body of a counted loop that never reads its counter, made the counter (idle_counters.py)."""
    # A counter stored and never read is the unread-variable evidence in the loop's own header; where the name
    # replaced bounds the loop too, the code shows the slip, and it ranks with the likeliest one-token slips. Any
    # other name read is a whole-statement guess.
    return [
        Variant(unit, line, read.change.text, read.change.change, _idle_score(read.bounds) + _rank_bonus(line, order))
        for read in idle_counters(unit.text.splitlines(), unit.language)
        if (line := unit.start_line + read.change.row) not in prose
    ]


def _guided_rows(unit: Unit, order: list[int], prose: set[int], changes: list[RowChange]) -> list[Variant]:
    """Row changes where the code itself shows the slip, so they come first: the body of an inner loop that never
    reads its item run only where it equals the outer loop's (idle_counters.py: Go refuses the unread item), a number
    whose digits the unit takes stepped by a subtraction (digit_steps.py), a plain name compared with an item's
    mirror (mirror_pairs.py), base cases that answer otherwise than documented (documented_cases.py), a search for
    divisors that gives no verdict on numbers below 2 (divisor_loops.py), a running value taken of the whole
    collection its loop walks (running_values.py), an index into a text wrapped by another number than its length
    (wrap_lengths.py) or a letter's code past `z` stepped back by another number than 26, a condition that could
    never change with its comparisons apart (fixed_conditions.py), a sequence's places read out of order where
    swapping two puts them in order (swapped_reads.py), a sequence cut in
    two and joined back unchanged where a rotation was meant (joined_halves.py), a comparator that answers only ties
    (tie_breaks.py), a Go rune literal of several characters (rune_literals.py), a string's start compared with a
    word written back to front (reversed_prefixes.py), a swap through a temporary missing its middle step
    (half_swaps.py), a range of character codes with one end off its letter case's edge (letter_ranges.py), a
    number divided by a number beside a name where the division was meant for more (divided_literals.py), a
    JavaScript callback whose arrow lost a character (broken_arrows.py), a result the failure shows with one item
    too many at one end (trimmed_results.py) or with its repeats or its order wrong (reshaped_results.py), two
    collections of distinct items compared in the order their items came (set_orders.py)."""
    found = []
    for change in changes:
        line = unit.start_line + change.row
        also = tuple((unit.start_line + row, text) for row, text in change.also)
        if line not in prose:
            found.append(
                Variant(unit, line, change.text, change.change, _GUIDED_SCORE + _rank_bonus(line, order), also)
            )
    return found


def _still_values(unit: Unit, order: list[int], prose: set[int]) -> list[Variant]:
    """A count or a collection read and never changed, given the change a sibling got (still_values.py): a count
    stepped in the `else` of the `if` that steps its sibling, a collection filled where another is. The code itself
    shows the slip, so these come first."""
    lines = unit.text.splitlines()
    return [
        Variant(unit, line, change.text, change.change, _GUIDED_SCORE + _rank_bonus(line, order))
        for change in [*still_counts(lines, unit.language), *unfilled(lines, unit.language)]
        if (line := unit.start_line + change.row) not in prose
    ]


def _idle_score(bounds: bool) -> float:
    return _TIER_SCORE[1] + _UNREAD_FIT if bounds else _TIER_SCORE[2]


def _dropped_calls(unit: Unit, prose: set[int], clues: Clues) -> list[Variant]:
    """A call of a package the Go file imports and uses nowhere, or of a check it declares and never uses, put back
    (dropped_calls.py): until one is, no candidate builds, so these come first, in the order given."""
    if unit.language != "go" or not (clues.unused or clues.unused_locals):
        return []
    lines = unit.text.splitlines()
    changes = [*dropped_calls(lines, clues.unused), *dropped_checks(lines, clues.unused_locals)]
    return [
        Variant(unit, line, change.text, change.change, _GUIDED_SCORE + _TIER_SCORE[1] - k * 0.01)
        for k, change in enumerate(changes)
        if (line := unit.start_line + change.row) not in prose
    ]


def _fallbacks(unit: Unit, clues: Clues) -> list[Variant]:
    """The `return` at the failure's deepest frame, where it raised what the test did not expect, wrapped to answer
    each of the function's other results instead (fallbacks.py): a statement added, ranked as a third-tier change of
    the deepest line, so the one-token changes of that line come first."""
    row = _raised_at(unit, clues)
    if row is None:
        return []
    changes = fallbacks(unit.text.splitlines(), row, clues.raised)
    score = _TIER_SCORE[3] + _DEEPEST_LINE
    line = unit.start_line + row
    return [Variant(unit, line, change.text, change.change, score - k * 0.01) for k, change in enumerate(changes)]


def _raised_at(unit: Unit, clues: Clues) -> int | None:
    """The row of a Python unit (past its first line) at the failure's deepest frame, where it raised; None if the
    failure raised nothing there."""
    if unit.language != "python" or not clues.raised or clues.deepest is None:
        return None
    path, line = clues.deepest
    return line - unit.start_line if path == unit.path and unit.start_line < line <= unit.end_line else None


def _handler_types(unit: Unit, clues: Clues) -> list[Variant]:
    """The `except` of the `try` around the failure's deepest frame, where it raised what no handler there catches,
    made to catch it (handler_types.py): the error names the line and what it raised, so these come before every
    one-token change, and before the `try` wrapped around the line anew."""
    row = _raised_at(unit, clues)
    if row is None:
        return []
    changes = handler_types(unit.text.splitlines(), row, clues.raised)
    score = _GUIDED_SCORE + _DEEPEST_LINE
    return [
        Variant(unit, unit.start_line + change.row, change.text, change.change, score - k * 0.01)
        for k, change in enumerate(changes)
    ]


def _index_guards(unit: Unit, clues: Clues) -> list[Variant]:
    """The condition at the failure's deepest frame, where it raised an IndexError, with the sequence it reads at an
    end guarded by its truth first (index_guards.py): the error names the line and what went wrong there, so these
    come before every one-token change."""
    if unit.language != "python" or "IndexError" not in clues.raised or clues.deepest is None:
        return []
    path, line = clues.deepest
    if path != unit.path or not unit.start_line <= line <= unit.end_line:
        return []
    changes = index_guards(unit.text.splitlines(), line - unit.start_line)
    score = _GUIDED_SCORE + _DEEPEST_LINE
    return [Variant(unit, line, change.text, change.change, score - k * 0.01) for k, change in enumerate(changes)]


def _raise_guards(unit: Unit, clues: Clues) -> list[Variant]:
    """A check added where the body starts, raising what the failing test expected of a call that returned instead
    (raise_guards.py): the failure says the function lacks it, so these come before every one-token change."""
    if not clues.raising or unit.language == "go":
        return []
    if unit.language == "python":
        changes = raise_guards(unit.text.splitlines(), unit.name, clues.raising)
    else:
        changes = throw_guards(unit.text, unit.name, clues.raising)
    score = _GUIDED_SCORE + _DEEPEST_LINE
    return [
        Variant(unit, unit.start_line + change.row, change.text, change.change, score - k * 0.01)
        for k, change in enumerate(changes)
    ]


def _divisor_loops(unit: Unit, order: list[int], prose: set[int], clues: Clues) -> list[Variant]:
    """A loop whose counter divides starting at 0 or 1, made to start at 2 (divisor_loops.py): a second-tier slip,
    and the likeliest change of all for a counter from 0 where the failure shows a division by zero (the division
    is where the error was raised, its cause the counter's start), or for one set before a `while` loop where the
    test hangs (dividing by 1 changes nothing the loop waits on)."""
    lines = unit.text.splitlines()
    shown = divisor_loops(lines, unit.language, from_zero=True) if "zero" in clues.kinds else []
    shown += stuck_divisor_loops(lines, unit.language) if "hang" in clues.kinds else []
    at_zero = _GUIDED_SCORE + _DEEPEST_LINE + _KIND_FIT
    return [
        Variant(unit, line, change.text, change.change, at_zero if change in shown else score)
        for change in divisor_loops(lines, unit.language)
        if (line := unit.start_line + change.row) not in prose and (score := _TIER_SCORE[2] + _rank_bonus(line, order))
    ]


def _divided_by_count(unit: Unit, order: list[int], prose: set[int]) -> list[Variant]:
    """A division by a name where the count of a sequence the unit walks was meant (counts.py): as likely as a
    one-token slip of the second tier."""
    language = "javascript" if unit.language == "typescript" else unit.language
    return [
        Variant(unit, line, change.text, change.change, _TIER_SCORE[2] + _rank_bonus(line, order))
        for change in divided_by_count(unit.text.splitlines(), language)
        if (line := unit.start_line + change.row) not in prose
    ]


def _compared_values(unit: Unit, order: list[int], prose: set[int]) -> list[Variant]:
    """An `if` that compares a value with its target and assigns the target another (compared_values.py): the code
    itself shows the slip, so as likely as the likeliest one-token slip; the same slip in every such `if` of the
    target a little likelier (copied code copies its slips)."""
    return [
        Variant(unit, line, change.text, change.change,
                _TIER_SCORE[1] + _rank_bonus(line, order) + (_THROUGHOUT if change.also else 0.0),
                tuple((unit.start_line + row, text) for row, text in change.also))
        for change in compared_values(unit.text.splitlines(), unit.language)
        if (line := unit.start_line + change.row) not in prose
    ]  # fmt: skip


def _fixed_conditions(unit: Unit, order: list[int], prose: set[int]) -> list[Variant]:
    """A condition that could never change (`c != 'a' || c != 'e'`), its joining words turned (fixed_conditions.py):
    the code itself shows that slip, as a failure's clue does, so these come first."""
    return [
        Variant(unit, line, change.text, change.change, _GUIDED_SCORE + _rank_bonus(line, order),
                tuple((unit.start_line + row, text) for row, text in change.also))
        for change in fixed_conditions(unit.text.splitlines(), unit.language)
        if (line := unit.start_line + change.row) not in prose
    ]  # fmt: skip


def _unused_results(unit: Unit) -> list[Variant]:
    """A name assigned a call's result and never read, in place of a later call of the same function: `p =
    Parser(format, case_sensitive=case_sensitive)`, then `return Parser(format).findall(text)` where `p.findall` was
    meant (a real project's bug). A result computed and dropped is strong evidence, so these come first."""
    tree = _python_tree(unit)
    if tree is None:
        return []
    source = textwrap.dedent(unit.text)
    read = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)}
    found: list[Variant] = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Call) and node.targets[0].id not in read
        ):  # fmt: skip
            found.extend(_in_place_of_calls(unit, tree, source, node.targets[0].id, node.value))
    return found


def _in_place_of_calls(unit: Unit, tree: ast.Module, source: str, name: str, value: ast.Call) -> list[Variant]:
    """`name` in place of each one-line call, after `value` (the call whose result it was given), of the same
    function."""
    callee = ast.dump(value.func)
    originals, dedented = unit.text.splitlines(), source.splitlines()
    found: list[Variant] = []
    for call in ast.walk(tree):
        if not isinstance(call, ast.Call) or call.lineno <= (value.end_lineno or value.lineno):
            continue
        if ast.dump(call.func) != callee or call.end_lineno != call.lineno or call.end_col_offset is None:
            continue
        row = call.lineno - 1
        shift = len(originals[row].encode()) - len(dedented[row].encode())  # the indentation dedent took off
        raw = originals[row].encode()
        new = (raw[: call.col_offset + shift] + name.encode() + raw[call.end_col_offset + shift :]).decode()
        change = f"`{ast.unparse(call.func)}(…)` → `{name}`, the result computed above and never used"
        found.append(Variant(unit, unit.start_line + row, new, change, _GUIDED_SCORE))
    return found


def _rebased_arguments(unit: Unit, order: list[int], clues: Clues) -> list[Variant]:
    """A recursive call that hands a smaller part on (`kth(above, k)`) with a position passed through unchanged,
    where the position was meant to count within that part: `k` → `k - num_lessoreq`, for each count the function
    computes with `len()` (a quickselect's or a search's classic slip), ranked as the line's other variants are."""
    tree = _python_tree(unit)
    function = tree.body[0] if tree is not None and tree.body else None
    if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
        return []
    parameters = [argument.arg for argument in function.args.args]
    counts = sorted(_lengths_assigned(function))
    lines = unit.text.splitlines()
    found: list[Variant] = []
    for call in [node for node in ast.walk(function) if isinstance(node, ast.Call)]:
        same = _passed_through(call, function.name, parameters)
        if not same:
            continue
        line = unit.start_line + call.lineno - 1
        rank = order.index(line) if line in order else len(order)
        text = lines[call.lineno - 1]
        score = _TIER_SCORE[2] + _line_evidence(unit, line, text, clues, set()) + max(0.0, 3.0 - _RANK_STEP * rank)
        for arg in same:
            for count in counts:
                found.extend(_rebased(unit, text, call.lineno, arg, count, score))
    return found


def _misplaced(unit: Unit, order: list[int], clues: Clues) -> list[Variant]:
    """An assignment's result stored in a like target its value reads (misplaced.py), ranked as the line's other
    variants are."""
    tree = _python_tree(unit)
    if tree is None:
        return []
    found: list[Variant] = []
    lines = unit.text.splitlines()
    for store in misplaced_stores(unit.text, tree):
        line = unit.start_line + store.row
        rank = order.index(line) if line in order else len(order)
        evidence = _line_evidence(unit, line, lines[store.row], clues, set()) + max(0.0, 3.0 - _RANK_STEP * rank)
        found.append(Variant(unit, line, store.text, store.change, _TIER_SCORE[3] + evidence))
    return found


def _case_wanted(unit: Unit, prose: set[int], code: list[str], clues: Clues) -> Clues:
    """The clues with what the unit's own docstring or comments say it ignores added, and lower case wanted where
    they say it ignores case, no comparison of strings showed the case wanted and the unit's code does not deal with
    case already. A failing test's name alone (`test_ignore_case`) is no sign for every unit it reaches to set case
    on a value's own line (_normalised_parameters weighs it)."""
    said = _said_ignored(unit, prose)
    clues = replace(clues, ignored=clues.ignored | said) if said - clues.ignored else clues
    if clues.cases or "case" not in said or handles_case("\n".join(code), unit.language):
        return clues
    return replace(clues, cases=frozenset({"lower"}))


def _said_ignored(unit: Unit, prose: set[int]) -> frozenset[str]:
    """What the unit's docstring or comments, or the comment above it, say it ignores: case, space, order,
    duplicates."""
    return ignored("\n".join([unit.doc, *(unit.text.splitlines()[line - unit.start_line] for line in prose)]))


def _normalised_parameters(unit: Unit, order: list[int], prose: set[int], clues: Clues) -> list[Variant]:
    """The unit's parameters put in the form it is to work on where it starts (normal_forms.py: one case, stripped,
    sorted), when the failure or the unit says case, surrounding spaces or order are to be ignored: all of them at
    once before each alone. Guided where the unit itself says so; where only the failure does, at a plain variant's
    rank, so that a value's case set on its own line (_case_folded) goes first, the narrower change."""
    if unit.language not in {"python", "javascript", "typescript"}:
        return []
    said = _said_ignored(unit, prose)
    wanted = clues.ignored | said | ({"case"} if clues.cases else set())
    tree = _python_tree(unit) if unit.language == "python" else None
    found: list[Variant] = []
    for name in _form_names(wanted, clues):
        form = FORMS[name]
        if unit.language == "python":
            changes = normalised_parameters(unit.text, tree, form) if tree is not None else []
        else:
            changes = normalised_js_parameters(unit.text, form)
        base = _GUIDED_SCORE if form.ignores in said else _TIER_SCORE[2]
        for k, normalised in enumerate(changes):
            line = unit.start_line + normalised.row
            rank = order.index(line) if line in order else len(order)
            score = base + max(0.0, 3.0 - _RANK_STEP * rank) - (0.5 if k else 0.0)
            found.append(Variant(unit, line, normalised.text, normalised.change, score))
    return found


def _form_names(wanted: frozenset[str] | set[str], clues: Clues) -> list[str]:
    """The forms to try for what is to be ignored: the case the failure showed wanted (else lower), then the others."""
    cases = sorted(clues.cases or {"lower"}) if "case" in wanted else []
    return [*cases, *(name for name in ("space", "order", "duplicates") if name in wanted)]


def _statement_slips(unit: Unit, order: list[int], prose: set[int], clues: Clues) -> list[Variant]:
    """Whole statements that slipped (statement_slips.py): a string meant to format values and not formatting them,
    a value computed and dropped (a new value's method called as if it changed its object), a `return` left inside a
    loop, a default every call shares, an in-place method's result returned, a flag set the wrong way throughout. A
    string the failure quotes with a placeholder in it, and a value dropped (or an in-place method's None returned)
    where the failure shows nothing came back, are what the failure asks for."""
    lines = unit.text.splitlines()
    tree = _python_tree(unit)
    if tree is not None:
        source = textwrap.dedent(unit.text)
        formats = unformatted_python(source, tree, lines)
        dropped = [*dropped_python(tree, lines), *returns_in_loops(tree, lines), *shared_defaults(source, tree, lines),
                   *returned_in_place_python(source, tree, lines)]  # fmt: skip
    elif unit.language in {"javascript", "typescript"}:
        formats = unformatted_javascript(lines)
        dropped = [*dropped_javascript(lines), *returned_in_place_javascript(lines)]
    elif unit.language == "go":
        formats, dropped = [], []  # a flag set the wrong way throughout, a result dropped
    else:
        return []
    guided = {
        id(change)
        for change in [*(formats if any("{" in quote for quote in clues.quoted) else []),
                       *(dropped if "none" in clues.kinds else [])]
    }  # fmt: skip
    flags = inverted_flags(lines, unit.language)
    guided |= {id(change) for change in flags if "flipped" in clues.kinds}
    found: list[Variant] = []
    for change in [*formats, *dropped, *flags, *dropped_results(lines, unit.language)]:
        line = unit.start_line + change.row
        if line in prose:
            continue
        base = _GUIDED_SCORE if id(change) in guided else _TIER_SCORE[2]
        also = tuple((unit.start_line + row, text) for row, text in change.also)
        found.append(Variant(unit, line, change.text, change.change, base + _rank_bonus(line, order), also))
    return found


def _recursions(unit: Unit, order: list[int], prose: set[int], clues: Clues) -> list[Variant]:
    """A function that calls itself (recursion_slips.py): the head its recursion dropped, a constant where the
    parameter it counts down was meant, a call handed its own arguments unchanged; the last what the failure asks
    for when the recursion never ended."""
    joined, endless = recursion_slips(unit.text.splitlines(), unit.name, unit.language)
    never_ended = bool({"recursion", "hang"} & clues.kinds)
    found: list[Variant] = []
    for k, change in enumerate([*joined, *endless]):
        line = unit.start_line + change.row
        if line in prose:
            continue
        base = _GUIDED_SCORE if never_ended and change in endless else _TIER_SCORE[2]
        # In the order given: the likeliest of a call's changes first (a division the function's remainder names).
        found.append(Variant(unit, line, change.text, change.change, base + _rank_bonus(line, order) - 0.01 * k))
    return found


def _swapped_pairs(unit: Unit, order: list[int], prose: set[int]) -> list[Variant]:
    """Lines changed together: two places of one sequence read swapped, on two lines or wherever the unit reads them
    (swapped_reads.py), two boolean answers swapped (swapped_returns.py), a first try's literal and its fallback's
    (swapped_literals.py); as likely as a whole statement's slip, ranked by the likeliest of the lines."""
    lines = unit.text.splitlines()
    # Two answers swapped rank above either flipped alone, which leaves the function one answer on both paths.
    scored = [(change, _TIER_SCORE[2]) for change in swapped_reads(lines, unit.language)]
    scored += [(change, _TIER_SCORE[2]) for change in swapped_throughout(lines, unit.language)]
    scored += [(change, _TIER_SCORE[1] + _THROUGHOUT) for change in swapped_returns(lines)]
    scored += [(change, _TIER_SCORE[1]) for change in swapped_literals(lines)]
    found: list[Variant] = []
    for change, score in scored:
        rows = [unit.start_line + change.row, *(unit.start_line + row for row, _ in change.also)]
        if any(line in prose for line in rows):
            continue
        also = tuple((unit.start_line + row, text) for row, text in change.also)
        bonus = max(_rank_bonus(line, order) for line in rows)
        found.append(Variant(unit, rows[0], change.text, change.change, score + bonus, also))
    return found


def _parted_twins(unit: Unit, order: list[int], prose: set[int]) -> list[Variant]:
    """A line of copied code that parts from its twin, made like it (parted_twins.py): the copies kept in step
    everywhere else are the evidence, as strong as for the likeliest one-token slip."""
    found = []
    for change, like in parted_twins(unit.text.splitlines(), unit.language):
        line = unit.start_line + change.row
        # Either line of the pair may hold the slip: the likelier of the two ranks both.
        bonus = max(_rank_bonus(line, order), _rank_bonus(unit.start_line + like, order))
        if line not in prose:
            found.append(Variant(unit, line, change.text, change.change, _TIER_SCORE[1] + _THROUGHOUT + bonus))
    return found


def _rank_bonus(line: int, order: list[int]) -> float:
    """What a whole-statement change is worth for where its line ranks among the suspicious ones."""
    rank = order.index(line) if line in order else len(order)
    return max(0.0, 3.0 - _RANK_STEP * rank)


def _excess_steps(unit: Unit, order: list[int], prose: set[int]) -> list[Variant]:
    """A one-line update of a value taken out (`i *= n`): a step too many, as likely as a term too many; and a step
    done twice (an item added just after another, an assignment written again) or one that overwrites a value never
    read (overwritten_stores.py), as likely as the likeliest one-token slip, since code that does so is wrong or
    needless."""
    lines = unit.text.splitlines()
    tree = _python_tree(unit)
    if tree is not None:
        overwriting = overwritten_stores(tree, lines)
        tiers = [(3, excess_steps_python(tree, lines)), (1, doubled_steps_python(tree, lines)), (1, overwriting)]
    elif unit.language in {"javascript", "typescript", "go"}:
        tiers = [(3, excess_steps_lines(lines, unit.language)), (1, doubled_steps_lines(lines, unit.language))]
    else:
        return []
    return [
        Variant(unit, line, change.text, change.change, _TIER_SCORE[tier] + _rank_bonus(line, order), also)
        for tier, changes in tiers
        for change in changes
        if (line := unit.start_line + change.row) not in prose
        for also in [tuple((unit.start_line + row, text) for row, text in change.also)]
    ]


def _spelled_out(unit: Unit, order: list[int], prose: set[int], clues: Clues) -> list[Variant]:
    """A literal rewritten as the text the failure expects, where it covers all that differs, or a pattern's ASCII
    letters widened where the failure's text holds others, or its spaces where the tests' text holds a tab
    (text_slips). The same casing throughout first: where only one literal was wrong it fails at once, and where all
    were, the failure of the first shows only that one, so no variant would reach the next."""
    if not clues.texts and not clues.tabbed:
        return []
    lines = unit.text.splitlines()
    rows = [line - unit.start_line for line in order if line not in prose and line - unit.start_line < len(lines)]
    found = []
    fixes = [
        *spelled_out(lines, rows, clues.texts, unit.language),
        *widened_letters(lines, rows, clues.texts, unit.language),
        *widened_blanks(lines, rows, clues.tabbed, unit.language),
        *joined_apart(lines, rows, clues.texts, unit.language),
        *recased(lines, rows, clues.texts, unit.language),
        *character_sets(lines, rows, clues.texts, unit.language),
    ]
    for row, text, change, also in fixes:
        score = _GUIDED_SCORE + (_THROUGHOUT if also else 0.0)
        others = tuple((unit.start_line + other, new) for other, new in also)
        found.append(Variant(unit, unit.start_line + row, text, change, score, others))
    return found


def _requoted(unit: Unit, order: list[int], prose: set[int], clues: Clues) -> list[Variant]:
    """A Python literal's own quotes around a repr's hole dropped, where the failure quotes the literal's text
    (text_slips.requoted): the value was quoted twice."""
    if unit.language != "python" or not clues.quoted:
        return []
    lines = unit.text.splitlines()
    rows = [line - unit.start_line for line in order if line not in prose and line - unit.start_line < len(lines)]
    return [
        Variant(unit, unit.start_line + row, text, change, _GUIDED_SCORE)
        for row, text, change, _ in requoted(lines, rows, clues.quoted)
    ]


def _empty_pieces(unit: Unit, order: list[int], clues: Clues) -> list[Variant]:
    """A `yield` or `append` of a value run only when the value is not empty (empty_pieces.py), when the failure's
    result holds one empty item more than wanted; the suspicious lines' first."""
    tree = _python_tree(unit) if "empty" in clues.kinds else None
    if tree is None:
        return []
    found: list[Variant] = []
    for guarded in empty_piece_guards(unit.text, tree):
        line = unit.start_line + guarded.row
        rank = order.index(line) if line in order else len(order)
        found.append(
            Variant(unit, line, guarded.text, guarded.change, _GUIDED_SCORE + max(0.0, 3.0 - _RANK_STEP * rank))
        )
    return found


def _passed_through(call: ast.Call, name: str, parameters: list[str]) -> list[ast.Name]:
    """The arguments of a one-line recursive call that pass a parameter on in its own place (`k` in `kth(above,
    k)`), when some other argument changed: [] for any other call."""
    if not (isinstance(call.func, ast.Name) and call.func.id == name) or call.lineno != call.end_lineno:
        return []
    same = [arg for k, arg in enumerate(call.args[: len(parameters)]) if isinstance(arg, ast.Name) and arg.id ==
            parameters[k]]  # fmt: skip
    return same if len(same) < len(call.args) else []


def _rebased(unit: Unit, text: str, row: int, arg: ast.Name, count: str, score: float) -> Iterator[Variant]:
    shift = len(text) - len(textwrap.dedent(unit.text).splitlines()[row - 1])
    start, end = arg.col_offset + shift, (arg.end_col_offset or arg.col_offset) + shift
    for sign in ("-", "+"):
        new = f"{text[:start]}{arg.id} {sign} {count}{text[end:]}"
        yield Variant(unit, unit.start_line + row - 1, new, f"`{arg.id}` → `{arg.id} {sign} {count}`", score)


def _lengths_assigned(function: ast.AST) -> set[str]:
    """The names the function assigns a count made with `len()` (`num_less = len(below)`)."""
    return {
        node.targets[0].id
        for node in ast.walk(function)
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
        and any(isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "len"
                for call in ast.walk(node.value))
    }  # fmt: skip


def _calls_that_end_a_branch(unit: Unit) -> list[int]:
    """The file lines of a call that ends an `except` or `if` branch without leaving it (`too_short()` where the
    generator should stop after it): the missing `return` is the slip such a line holds."""
    tree = _python_tree(unit)
    if tree is None:
        return []
    found: list[int] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ExceptHandler | ast.If) and node.body:
            last = node.body[-1]
            if isinstance(last, ast.Expr) and isinstance(last.value, ast.Call) and last.end_lineno == last.lineno:
                found.append(unit.start_line + last.lineno - 1)
    return found


def _missing_return(unit: Unit, clues: Clues) -> list[Variant]:
    """A `return` of the value the function builds, when the failure shows a `None` and the function returns none."""
    tree = _python_tree(unit) if "none" in clues.kinds else None
    function = tree.body[0] if tree is not None and tree.body else None
    if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
        return []
    if any(isinstance(node, ast.Return) and node.value is not None for node in ast.walk(function)):
        return []
    targets = [
        target.id
        for node in function.body
        if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign)
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(target, ast.Name)
    ]
    if not targets:
        return []
    lines = unit.text.splitlines()
    last = lines[-1]
    indent = re.match(r"[ \t]*", lines[1] if len(lines) > 1 else last).group(0)  # type: ignore[union-attr]
    name = targets[-1]
    return [Variant(unit, unit.end_line, f"{last}\n{indent}return {name}", f"`return {name}` added", _GUIDED_SCORE)]


def _empty_guards(unit: Unit, clues: Clues) -> list[Variant]:
    """`if total < 0:` → `if total < 0 or not coins:`, for a base case that returns before `first, *rest = coins`,
    when the failure says a sequence was unpacked empty: the recursion's end on an empty list, missing."""
    tree = _python_tree(unit) if "unpack" in clues.kinds else None
    if tree is None:
        return []
    lines = unit.text.splitlines()
    unpacked = _unpacked_with_rest(tree)
    found: list[Variant] = []
    for node in _one_line_returns(tree):
        text = lines[node.lineno - 1]
        head = indent_of(text) + "if "
        for line, name in unpacked:
            if node.lineno < line and text.rstrip().endswith(":"):
                new = f"{head}{ast.unparse(node.test)} or not {name}:"
                change = f"`or not {name}` added to the base case"
                found.append(Variant(unit, unit.start_line + node.lineno - 1, new, change, _GUIDED_SCORE))
    return found


def _unpacked_with_rest(tree: ast.Module) -> list[tuple[int, str]]:
    """(line, name) of each `first, *rest = name`."""
    return [
        (node.lineno, node.value.id)
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Name) and len(node.targets) == 1
        and isinstance(node.targets[0], ast.Tuple) and any(isinstance(e, ast.Starred) for e in node.targets[0].elts)
    ]  # fmt: skip


def _one_line_returns(tree: ast.Module) -> list[ast.If]:
    """Each `if` on one line whose whole body is a `return`: a base case."""
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and node.test.end_lineno == node.lineno and len(node.body) == 1
        and isinstance(node.body[0], ast.Return)
    ]  # fmt: skip


def _held_names(unit: Unit, code_lines: Sequence[str]) -> list[str]:
    """The variables the unit assigns (loop and unpacking targets too), in the order they are first assigned; its
    parameters are not among them."""
    tree = _python_tree(unit)
    if tree is None:
        found = (_ASSIGNED.match(line) for line in code_lines[1:])
        return list(dict.fromkeys(match["name"] for match in found if match is not None))
    stored = [node for node in ast.walk(tree) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)]
    stored.sort(key=lambda node: (node.lineno, node.col_offset))
    return list(dict.fromkeys(node.id for node in stored))


def _python_tree(unit: Unit) -> ast.Module | None:
    """The unit parsed, when it is Python that parses (dedented: a method parses alone)."""
    if unit.language != "python":
        return None
    try:
        return ast.parse(textwrap.dedent(unit.text))
    except SyntaxError:
        return None


def _prose_lines(unit: Unit) -> set[int]:
    """File lines of the unit that hold only prose: comments, and the lines of strings that span lines (docstrings,
    text blocks). A one-line string inside code is judged by each variant (_touches_string)."""
    prose: set[int] = set()
    lines = unit.text.splitlines()
    comment = "#" if unit.language == "python" else "//"
    for offset, text in enumerate(lines):
        stripped = text.strip()
        if stripped.startswith(comment) or (unit.language != "python" and stripped.startswith(("/*", "*"))):
            prose.add(unit.start_line + offset)
    if unit.language == "python":
        try:
            tokens = list(tokenize.generate_tokens(io.StringIO(unit.text).readline))
        except (tokenize.TokenError, IndentationError, SyntaxError):
            return prose
        for token in tokens:
            if token.type == tokenize.STRING and token.end[0] > token.start[0]:
                prose.update(unit.start_line + row - 1 for row in range(token.start[0], token.end[0] + 1))
            if token.type == tokenize.STRING and _alone(lines, token):
                prose.add(unit.start_line + token.start[0] - 1)
    return prose


def _alone(lines: list[str], token: tokenize.TokenInfo) -> bool:
    """Whether a string token is all its line holds (a one-line docstring)."""
    row = token.start[0] - 1
    return 0 <= row < len(lines) and lines[row].strip() == token.string.strip()


def _touches_string(old: str, new: str) -> bool:
    """Whether a variant changed text inside a string literal of the line."""
    spans = [match.span() for match in _STRING.finditer(old)]
    if not spans:
        return False
    first = next((i for i, (a, b) in enumerate(zip(old, new, strict=False)) if a != b), min(len(old), len(new)))
    return any(start <= first < end for start, end in spans)


def _quoted(text: str, clues: Clues) -> bool:
    """Whether a string literal of the line is one the failure quotes (or part of one)."""
    bodies = [match.group("body") for match in _STRING.finditer(text)]
    return any(body and any(body in quoted for quoted in clues.quoted) for body in bodies)


def _attribute_names(file_text: str) -> set[str]:
    """The attributes and methods the file's code reads (`.name` outside comments and strings)."""
    code = _STRING.sub(" ", re.sub(r"//[^\n]*|/\*.*?\*/|#[^\n]*", " ", file_text, flags=re.S))
    return set(re.findall(r"\.\s*([A-Za-z_$][\w$]*)", code))


def _scope_names(file_text: str, language: str) -> set[str]:
    """The identifiers the file's code uses (not its comments, docstrings or strings): the names a misspelt one most
    likely meant."""
    if language == "python":
        try:
            return {
                token.string
                for token in tokenize.generate_tokens(io.StringIO(file_text).readline)
                if token.type == tokenize.NAME
            }
        except (tokenize.TokenError, IndentationError, SyntaxError):
            pass
    code = _STRING.sub(" ", re.sub(r"//[^\n]*|/\*.*?\*/|#[^\n]*", " ", file_text, flags=re.S))
    return set(_IDENTIFIER.findall(code))
