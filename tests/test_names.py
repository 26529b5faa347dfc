"""``simcore.names``: the nearest valid names, and what a ``--resume`` asked differently."""

from __future__ import annotations

from talesim.simcore.names import did_you_mean, differences


def test_did_you_mean_names_the_nearest() -> None:
    assert did_you_mean("grredy", ["greedy", "random"]) == "; did you mean greedy?"
    assert did_you_mean("zzz", ["greedy"]) == ""
    assert did_you_mean(3, ["greedy"]) == ""


def test_differences_name_each_argument_with_both_values() -> None:
    stored = {"game": "fairy-tale", "n_games": 400, "seed": 1, "band": [0.9, 1.1]}
    asked = {"game": "fairy-tale", "n_games": 800, "seed": 1, "band": [0.8, 1.2]}
    assert differences(stored, asked) == (
        "n_games 400 there, 800 now; band [0.9, 1.1] there, [0.8, 1.2] now"
    )


def test_differences_show_absent_keys_strings_and_a_limit() -> None:
    assert differences({"a": "x"}, {"b": None}) == (
        'b (absent) there, null now; a "x" there, (absent) now'
    )
    many = differences({f"k{i}": i for i in range(6)}, {f"k{i}": -i for i in range(1, 7)})
    assert many.count(" now") == 4
    assert many.endswith("; and 3 more")  # k1-k5 changed, k6 added, k0 dropped
    assert differences({"a": 1}, {"a": 1}) == ""
