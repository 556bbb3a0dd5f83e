"""Korean particles: "{seat}이(가)" in a catalog string becomes the one form that
fits the name before it, never the double fallback "김민준이(가)"."""

from __future__ import annotations

import pytest

from bot.i18n import final_consonant, korean_particles, register_catalog, t


@pytest.mark.parametrize(
    ("name", "subject", "object_", "topic", "with_", "towards"),
    [
        ("김민준", "김민준이", "김민준을", "김민준은", "김민준과", "김민준으로"),  # final ㄴ
        ("이서아", "이서아가", "이서아를", "이서아는", "이서아와", "이서아로"),  # no final
        ("박철", "박철이", "박철을", "박철은", "박철과", "박철로"),  # final ㄹ: 로
        ("Bob", "Bob이", "Bob을", "Bob은", "Bob과", "Bob으로"),  # 밥
        ("Alice", "Alice가", "Alice를", "Alice는", "Alice와", "Alice로"),  # 앨리스
        ("Paul", "Paul이", "Paul을", "Paul은", "Paul과", "Paul로"),  # 폴: ㄹ
        ("F5", "F5가", "F5를", "F5는", "F5와", "F5로"),  # 오
        ("C3", "C3이", "C3을", "C3은", "C3과", "C3으로"),  # 삼
        ("B7", "B7이", "B7을", "B7은", "B7과", "B7로"),  # 칠: ㄹ
    ],
)
def test_each_particle_fits_the_word_before_it(
    name: str, subject: str, object_: str, topic: str, with_: str, towards: str
) -> None:
    assert korean_particles(f"{name}이(가)") == subject
    assert korean_particles(f"{name}을(를)") == object_
    assert korean_particles(f"{name}은(는)") == topic
    assert korean_particles(f"{name}와(과)") == with_
    assert korean_particles(f"{name}(으)로") == towards


def test_catalog_strings_in_korean_choose_the_particle() -> None:
    text = t("ko", "tigris.event.leader_placed", seat="김민준", leader="왕", square="F5")
    assert text == "김민준이 왕을 F5에 놓았습니다."
    assert "(가)" not in text and "(를)" not in text
    moved = t(
        "ko", "tigris.event.leader_moved", seat="Ann", leader="왕", from_square="A1", square="C3"
    )
    assert moved.startswith("Ann이 왕을 A1에서 C3으로")
    # behind a closing quote, the quoted word decides
    register_catalog("ko", {"test.quoted": "“{text}”을(를) 모릅니다."})
    assert t("ko", "test.quoted", text="나무") == "“나무”를 모릅니다."
    # other languages are untouched
    assert t("en", "tigris.event.leader_placed", seat="Ann", leader="king", square="F5")


def test_an_unreadable_ending_keeps_the_double_form() -> None:
    """A Hanzi or an emoji says nothing safe about the reading: the double form stays."""
    assert final_consonant("王大偉") is None
    assert korean_particles("王大偉이(가)") == "王大偉이(가)"
    assert final_consonant("") is None
