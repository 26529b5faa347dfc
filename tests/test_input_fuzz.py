"""Fuzzing the input loaders the CLI calls: mutated card files, raw bytes, score states.

Whatever the input, the loader either accepts it or raises the project's input error,
which ``talesim`` prints as one ``error:`` line (``cli.errors.USER_ERRORS``):

* card files (``tables.load_cardset``): ``CardDataError``. A card set that loads must then
  compile for every variant (``compile_tables``), list (``card_catalog``) and pass or fail
  ``engine.prepare`` with ``GameError`` only (the deck may be too small).
* score states (``engine.score_state``, which ``talesim score`` calls and whose
  ``ValueError`` it reports): a ``ValueError`` raised by ``state_io.parse_state`` itself,
  never one leaking from deeper code. A legal end state is always scored.

Never any other exception, and never a hang: each example runs under a hypothesis deadline
and a hard SIGALRM limit. Card files are mutated as data (``tomllib`` -> dict -> mutate ->
the tiny TOML writer below), so every example is a well-formed TOML file whose content is
wrong in one to three places. Crashes found here are pinned as plain regression tests.
"""

from __future__ import annotations

import copy
import json
import re
import signal
import tomllib
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from talesim.simcore.cards import CardDataError
from talesim.simcore.games.fairy_tale import engine, state_io
from talesim.simcore.games.fairy_tale.tables import (
    CATEGORIES,
    DEFAULT_CARDS,
    EFFECT_KEYS,
    FACTIONS,
    STATUSES,
    TIERS,
    VALUE_KEYS,
    compile_tables,
    load_cardset,
)
from talesim.simcore.registry import GameError

FUZZ = settings(
    max_examples=150,
    # ms per example: generous, as a first example also loads the compiled kernels while
    # the other test worker compiles (CI measured 2.7 s for an example that then took 0.3 s)
    deadline=10_000,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
HARD_LIMIT_S = 20  # SIGALRM: a real hang fails instead of blocking the suite

CARDS = load_cardset()
VALID_DOC: dict[str, Any] = tomllib.loads(DEFAULT_CARDS.read_text("utf-8"))
IDS = CARDS.ids()
VARIANTS = list(CARDS.rules.variants)
# Words the schema knows: mutations that use them get past the first checks.
TOKENS = sorted(
    {*IDS, *FACTIONS, *CATEGORIES, *TIERS, *STATUSES, *VALUE_KEYS, *EFFECT_KEYS, "any"}
    | {"you", "all", "others", *VARIANTS, "fairy-tale"}
)
FIELD_NAMES = sorted(
    {key for card in VALID_DOC["card"] for key in card}
    | {key for keys in (*VALUE_KEYS.values(), *EFFECT_KEYS.values()) for key in keys}
    | {"kind", "variant", "players", "face_up", "face_down"}
)


# --- helpers ----------------------------------------------------------------------------


class HangError(Exception):
    """An example ran past ``HARD_LIMIT_S``."""


@contextmanager
def hard_limit(seconds: float = HARD_LIMIT_S) -> Iterator[None]:
    """Raise ``HangError`` in the block after ``seconds`` (main thread, POSIX)."""

    def alarm(signum: int, frame: object) -> None:
        raise HangError(f"no result after {seconds} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def toml_string(text: str) -> str:
    """A TOML basic string: quotes, backslashes and control characters escaped."""
    out = []
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def toml_value(value: Any) -> str:
    """``value`` as an inline TOML value (tables inline, one line)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)  # inf / -inf are TOML too
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        pairs = (f"{toml_key(k)} = {toml_value(v)}" for k, v in value.items())
        return "{" + ", ".join(pairs) + "}"
    raise TypeError(f"no TOML for {value!r}")


def toml_key(key: str) -> str:
    return key if BARE_KEY.fullmatch(key) else toml_string(key)


def dump_toml(doc: dict[str, Any]) -> str:
    """A TOML document: one ``key = inline value`` line per top-level key."""
    return "".join(f"{toml_key(k)} = {toml_value(v)}\n" for k, v in doc.items())


def check_card_file(path: Path) -> str:
    """Load ``path`` as the CLI does; "accepted" or "rejected" (``CardDataError``), any other
    exception propagates. An accepted file must compile and list for every variant, and
    ``prepare`` may only refuse it with ``GameError``."""
    try:
        with hard_limit():
            cards = load_cardset(path)
    except CardDataError as exc:
        error = exc
    else:
        error = None
    if error is not None:
        assert str(error).startswith(str(path)), error  # the message names the file
        return "rejected"
    with hard_limit():
        for variant in cards.rules.variants:
            tables = compile_tables(cards, variant)
            assert tables.ct.shape[0] == len(cards.cards)
            engine.card_catalog(cards, variant)
            for players in (2, 5):
                with suppress(GameError):
                    engine.prepare(cards, variant, players, ["greedy"] * players, False)
    return "accepted"


def check_state(state: Any) -> str:
    """``score_state`` as ``talesim score`` calls it: "scored" or "rejected" (a ValueError
    raised by ``state_io.parse_state`` itself); anything else propagates."""
    try:
        with hard_limit():
            result = engine.score_state(state, CARDS)
    except ValueError as exc:
        error = exc
    else:
        error = None
    if error is not None:
        origin = traceback.extract_tb(error.__traceback__)[-1]
        assert (origin.filename, origin.name) == (state_io.__file__, "parse_state"), (
            f"{error!r} raised at {origin.filename}:{origin.lineno}"
        )
        return "rejected"
    assert len(result["players"]) == len(state["players"])
    return "scored"


# --- strategies -------------------------------------------------------------------------

SCALARS = st.one_of(
    st.integers(-3, 25),
    st.integers(),
    st.sampled_from([-(2**63), 2**63 - 1, 10**30, -(10**30)]),
    st.booleans(),
    st.floats(allow_nan=False),
    st.just(""),
    st.text(max_size=12),
    # non-ASCII text a UTF-8 card file can hold (no lone surrogate such as "\ud800")
    st.text(st.characters(min_codepoint=0x80, codec="utf-8"), min_size=1, max_size=6),
    st.sampled_from(TOKENS),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(FIELD_NAMES) | st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=8,
)

Key = str | int


def all_paths(obj: Any, prefix: tuple[Key, ...] = ()) -> list[tuple[Key, ...]]:
    """The path (keys and list indices) of every value nested in ``obj``."""
    if isinstance(obj, dict):
        items: Any = obj.items()
    elif isinstance(obj, list):
        items = enumerate(obj)
    else:
        return []
    out = []
    for key, value in items:
        out.append((*prefix, key))
        out.extend(all_paths(value, (*prefix, key)))
    return out


def at(obj: Any, path: tuple[Key, ...]) -> Any:
    for key in path:
        obj = obj[key]
    return obj


@st.composite
def mutated(draw: st.DrawFn, original: Any, max_mutations: int = 3) -> Any:
    """A deep copy of ``original`` changed in 1 to ``max_mutations`` places: a value
    deleted (a field, a list item, a whole card), replaced by a random value, replaced by a
    copy of another value of the document (another card's id: a duplicate id; another
    card: a duplicate card; a value table as an effect ...), or a new key added."""
    doc = copy.deepcopy(original)
    for _ in range(draw(st.integers(1, max_mutations))):
        paths = all_paths(doc)
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent, key = at(doc, path[:-1]), path[-1]
        op = draw(st.sampled_from(["delete", "replace", "copy", "add"]))
        if op == "delete":
            del parent[key]
        elif op == "replace":
            parent[key] = draw(VALUES)
        elif op == "copy":
            parent[key] = copy.deepcopy(at(doc, draw(st.sampled_from(paths))))
        elif isinstance(parent, dict):
            parent[draw(st.sampled_from(FIELD_NAMES) | st.text(max_size=6))] = draw(VALUES)
        else:
            parent.insert(key, draw(VALUES))
    return doc


@st.composite
def duplicated_card(draw: st.DrawFn) -> Any:
    """The valid document with card j's id given to card i, or card i appended again."""
    doc = copy.deepcopy(VALID_DOC)
    n = len(doc["card"])
    i = draw(st.integers(0, n - 1))
    if draw(st.booleans()):
        j = draw(st.integers(0, n - 2))
        doc["card"][i]["id"] = doc["card"][j + (j >= i)]["id"]  # j != i
    else:
        doc["card"].append(copy.deepcopy(doc["card"][i]))
    return doc


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text(max_size=8)
    | st.sampled_from([*IDS, *VARIANTS]),
    lambda inner: (
        st.lists(inner, max_size=6)
        | st.dictionaries(st.sampled_from(FIELD_NAMES) | st.text(max_size=6), inner, max_size=5)
    ),
    max_leaves=25,
)
README_STATE = {
    "variant": "expert",
    "players": [
        {"face_up": ["homesteaders", "homesteaders", "the-trickster"], "face_down": ["lich"]},
        {"face_up": ["bronze-dragon", "knight-of-the-round-table"]},
    ],
}


@st.composite
def legal_states(draw: st.DrawFn) -> dict[str, Any]:
    """An end state that could happen: 1-5 players, each up to 12 cards dealt from one
    shuffled deck of the variant, some of them face down."""
    variant = draw(st.sampled_from(VARIANTS))
    tiers = CARDS.rules.variants[variant].tiers
    deck = [c.id for c in CARDS.cards if c.tier in tiers for _ in range(c.copies)]
    deck = draw(st.permutations(deck))
    players = []
    for _ in range(draw(st.integers(1, 5))):
        k = draw(st.integers(0, 12))
        hand, deck = deck[:k], deck[k:]
        down = draw(st.integers(0, k))
        players.append({"face_up": hand[down:], "face_down": hand[:down]})
    return {"variant": variant, "players": players}


# --- the writer is faithful -------------------------------------------------------------


def test_toml_writer_round_trips_the_shipped_card_file(tmp_path: Path) -> None:
    path = tmp_path / "cards.toml"
    path.write_text(dump_toml(VALID_DOC), "utf-8")
    assert tomllib.loads(path.read_text("utf-8")) == VALID_DOC
    assert check_card_file(path) == "accepted"


@FUZZ
@given(doc=st.dictionaries(st.sampled_from(FIELD_NAMES) | st.text(max_size=6), VALUES))
def test_toml_writer_round_trips_random_documents(doc: dict[str, Any]) -> None:
    assert tomllib.loads(dump_toml(doc)) == doc


# --- card files -------------------------------------------------------------------------


@FUZZ
@given(doc=mutated(VALID_DOC))
def test_mutated_card_file_is_accepted_or_a_card_data_error(
    doc: dict[str, Any], tmp_path: Path
) -> None:
    path = tmp_path / "cards.toml"
    path.write_text(dump_toml(doc), "utf-8")
    check_card_file(path)


@FUZZ
@given(doc=duplicated_card())
def test_duplicate_card_id_is_a_card_data_error(doc: dict[str, Any], tmp_path: Path) -> None:
    path = tmp_path / "cards.toml"
    path.write_text(dump_toml(doc), "utf-8")
    with pytest.raises(CardDataError, match="duplicate card id"):
        load_cardset(path)


@FUZZ
@given(data=st.binary(max_size=2000))
def test_random_bytes_are_a_card_data_error(data: bytes, tmp_path: Path) -> None:
    path = tmp_path / "cards.toml"
    path.write_bytes(data)
    assert check_card_file(path) == "rejected"


VALID_BYTES = DEFAULT_CARDS.read_bytes()


@FUZZ
@given(cut=st.integers(0, len(VALID_BYTES) - 1))
def test_truncated_card_file_is_accepted_or_a_card_data_error(cut: int, tmp_path: Path) -> None:
    path = tmp_path / "cards.toml"
    path.write_bytes(VALID_BYTES[:cut])
    check_card_file(path)


@FUZZ
@given(at_byte=st.integers(0, len(VALID_BYTES) - 1), byte=st.integers(0, 255))
def test_card_file_with_one_byte_changed_is_accepted_or_a_card_data_error(
    at_byte: int, byte: int, tmp_path: Path
) -> None:
    path = tmp_path / "cards.toml"
    path.write_bytes(VALID_BYTES[:at_byte] + bytes([byte]) + VALID_BYTES[at_byte + 1 :])
    check_card_file(path)


def edit_card(card_id: str, key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def edit(doc: dict[str, Any]) -> None:
        (card,) = (c for c in doc["card"] if c["id"] == card_id)
        card[key] = value

    return edit


# Crashes the fuzzing found (each was a TypeError or a silently accepted value).
CARD_REGRESSIONS = {
    "friend_of-a-list": (edit_card("sky-dancer-dragon", "friend_of", ["dwarven-warrior"])),
    "friend_of-a-table": (edit_card("sky-dancer-dragon", "friend_of", {"id": "x"})),
    "name_ja-a-number": (edit_card("dragons-cave", "name_ja", 3)),
    "notes-a-list": (edit_card("unicorn", "notes", ["a", "b"])),
}


@pytest.mark.parametrize("edit", CARD_REGRESSIONS.values(), ids=CARD_REGRESSIONS.keys())
def test_card_field_of_the_wrong_type_is_a_card_data_error(
    edit: Callable[[dict[str, Any]], None], tmp_path: Path
) -> None:
    doc = copy.deepcopy(VALID_DOC)
    edit(doc)
    path = tmp_path / "cards.toml"
    path.write_text(dump_toml(doc), "utf-8")
    with pytest.raises(CardDataError, match="must be a non-empty string"):
        load_cardset(path)


def test_card_file_path_under_a_regular_file_is_a_card_data_error(tmp_path: Path) -> None:
    (tmp_path / "cards.toml").write_text("")
    with pytest.raises(CardDataError, match=r"cannot read \(Not a directory\)"):
        load_cardset(tmp_path / "cards.toml" / "x.toml")


# --- score states -----------------------------------------------------------------------


@FUZZ
@given(state=JSON_VALUES)
def test_random_json_state_is_scored_or_a_state_error(state: Any) -> None:
    check_state(state)


@FUZZ
@given(state=mutated(README_STATE))
def test_mutated_state_is_scored_or_a_state_error(state: Any) -> None:
    check_state(state)


@FUZZ
@given(state=legal_states())
def test_legal_end_state_is_always_scored(state: dict[str, Any]) -> None:
    assert check_state(state) == "scored"


STATE_REGRESSIONS = {
    "variant-a-list": {**README_STATE, "variant": ["expert"]},
    "variant-an-object": {**README_STATE, "variant": {"name": "expert"}},
    "variant-null": {**README_STATE, "variant": None},
    "unknown-top-level-key": {**README_STATE, "varient": "basic"},
}


@pytest.mark.parametrize("state", STATE_REGRESSIONS.values(), ids=STATE_REGRESSIONS.keys())
def test_state_with_a_bad_variant_or_key_is_a_state_error(state: dict[str, Any]) -> None:
    assert check_state(json.loads(json.dumps(state))) == "rejected"
