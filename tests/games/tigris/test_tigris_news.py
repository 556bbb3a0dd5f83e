"""A seat's private news in words (:mod:`bot.games.tigris.news`), from its private views.

Also: a conflict's support cannot be taken back (the defender's decides the conflict
before everyone, so its result is told in the channel at once)."""

from __future__ import annotations

import random
from collections import Counter

from bot.games.tigris import TigrisEngine
from bot.i18n import Text, t

ENGINE = TigrisEngine()


def view(hand: list[str], points: dict[str, int] | None = None, **rest: int) -> dict[str, object]:
    return {
        "hand": hand,
        "points": {"red": 0, "blue": 0, "green": 0, "black": 0, **(points or {})},
        "treasures": rest.get("treasures", 0),
        "catastrophes": rest.get("catastrophes", 2),
    }


def words(news: list[tuple[str, object]]) -> list[str]:
    return [Text(key, dict(params)).render("en") for key, params in news]  # type: ignore[call-overload]


def test_a_view_in_words_when_the_picker_opens() -> None:
    said = words(ENGINE.private_news(None, view(["red", "black", "red"], {"blue": 2})))
    assert said == [
        "Your hand (3): 2 red, 1 black.",
        "Your points: red 0, blue 2, green 0, black 0.",
        "Treasures: 0.",
        "Catastrophe tiles left: 2.",
    ]


def test_tiles_drawn_and_spent_and_points_scored_are_said_with_the_hand_now() -> None:
    before = view(["red", "red", "blue"])
    after = view(["red", "blue", "black", "green"], {"red": 1}, treasures=1)
    assert words(ENGINE.private_news(before, after)) == [
        "New in your hand: 1 green, 1 black.",
        "Gone from your hand: 1 red.",
        "Your hand (4): 1 red, 1 blue, 1 green, 1 black.",
        "You scored +1 red.",
        "Your points: red 1, blue 0, green 0, black 0.",
        "Treasures: 1.",
    ]


def test_nothing_changed_nothing_said() -> None:
    same = view(["red", "blue"], {"green": 3})
    assert ENGINE.private_news(same, dict(same)) == []


def _counter_news(before: dict[str, object] | None, after: dict[str, object]) -> list[str]:
    """The hand's lines as multisets say them (:class:`collections.Counter`), in English."""
    held = Counter(after["hand"])  # type: ignore[arg-type]
    if before is None:
        return [f"Your hand ({sum(held.values())}): {_listed(held)}."]
    had = Counter(before["hand"])  # type: ignore[arg-type]
    if had == held:
        return []
    lines = [f"New in your hand: {_listed(held - had)}."] if held - had else []
    lines += [f"Gone from your hand: {_listed(had - held)}."] if had - held else []
    return [*lines, f"Your hand ({sum(held.values())}): {_listed(held)}."]


def _listed(counts: Counter[str]) -> str:
    held = [f"{counts[c]} {c}" for c in ("red", "blue", "green", "black") if counts[c]]
    return ", ".join(held) if held else t("en", "list.none")


def test_a_hands_news_is_what_multisets_of_its_tiles_say() -> None:
    rng = random.Random(30)
    colours = ["red", "blue", "green", "black"]
    for _ in range(2000):
        after = view(rng.choices(colours, k=rng.randint(0, 6)))
        before = None if rng.random() < 0.1 else view(rng.choices(colours, k=rng.randint(0, 6)))
        if before is not None and rng.random() < 0.2:
            before = view(rng.sample(after["hand"], len(after["hand"])))  # type: ignore[arg-type]
        said = words(ENGINE.private_news(before, after))
        assert [line for line in said if "hand" in line] == _counter_news(before, after)


def test_every_line_reads_in_every_language() -> None:
    news = ENGINE.private_news(view(["red"]), view(["blue"], {"black": 1}, treasures=1))
    for lang in ("en", "zh", "zh-TW", "ko"):
        for key, params in news:
            said = t(lang, key, **dict(params))
            assert said and "{" not in said, (lang, key, said)


def test_a_conflicts_support_cannot_be_taken_back() -> None:
    """Every support committed in random games is a checkpoint, and so is each step that
    decides a conflict."""
    supports = 0
    for seed in range(3):
        rng = random.Random(seed)
        state = ENGINE.new_game(2, {}, seed)
        for _ in range(300):
            if ENGINE.result(state) is not None:
                break
            seat = rng.choice(sorted(ENGINE.waiting_for(state)))
            action = rng.choice(ENGINE.legal_actions(state, seat))
            events = ENGINE.apply(state, seat, action)
            decided = any(e.key.endswith(("war_won", "revolt_won")) for e in events)
            if str(action).startswith("support") or decided:
                supports += 1
                assert ENGINE.is_checkpoint(state, seat, action, events), action
    assert supports
