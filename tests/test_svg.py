"""The SVG card drawings: valid documents, one distinct drawing per card, readable corners."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from casino.engine.cards import (
    DECK,
    SUIT_NAMES,
    card_name,
    card_text,
    parse_card,
    rank_of,
    suit_of,
)
from casino.engine.errors import CardError
from casino.i18n import using
from casino.words.svg import FOUR_COLOURS, TWO_COLOURS, back_svg, card_svg

NS = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg"
    assert root.get("viewBox") == "0 0 100 140"
    return root


def texts(root: ET.Element) -> list[str]:
    return [(t.text or "") for t in root.iter(f"{NS}text")]


def fills(root: ET.Element) -> set[str]:
    return {el.get("fill", "") for el in root.iter()} - {"", "none", "#fffdf7"}


@pytest.mark.parametrize("card", DECK, ids=[card_text(c) for c in DECK])
def test_every_card_is_a_well_formed_svg_naming_its_rank_and_suit(card: int) -> None:
    root = parse(card_svg(card))
    title = root.find(f"{NS}title")
    assert title is not None and title.text == card_name(card)
    assert root.get("aria-label") == card_name(card)
    assert root.get("data-card") == card_text(card)
    assert root.get("data-suit") == SUIT_NAMES[suit_of(card)]
    rank = "10" if rank_of(card) == 9 else card_text(card)[0]
    # The rank is printed in both corners (and once more, large, on court cards).
    assert texts(root).count(rank) >= 2


def test_every_card_is_drawn_differently() -> None:
    drawings = {card_svg(c) for c in DECK}
    assert len(drawings) == 52
    # Not only the title differs: the drawing itself does.
    bodies = {svg.split("</title>", 1)[1] for svg in drawings}
    assert len(bodies) == 52


def test_red_and_black_suits_by_default_and_four_colours_on_request() -> None:
    for card in DECK:
        suit = suit_of(card)
        assert fills(parse(card_svg(card))) == {TWO_COLOURS[suit]}
        assert fills(parse(card_svg(card, four_colour=True))) == {FOUR_COLOURS[suit]}
    assert TWO_COLOURS[0] == TWO_COLOURS[1] != TWO_COLOURS[2] == TWO_COLOURS[3]
    assert len(set(FOUR_COLOURS)) == 4


def test_suits_have_distinct_shapes_so_colour_is_not_the_only_clue() -> None:
    # The 2 of each suit: the same layout, so the paths differ only by the suit's outline.
    paths = [
        {p.get("d") for p in parse(card_svg(c)).iter(f"{NS}path")}
        for c in (4, 5, 6, 7)  # 2s 2c 2h 2d
    ]
    for i in range(4):
        for j in range(i + 1, 4):
            assert paths[i].isdisjoint(paths[j])


def test_pips_match_the_rank() -> None:
    # Number cards show one pip per point plus the two corner suits.
    for rank in range(1, 10):
        root = parse(card_svg(rank * 4))
        assert len(list(root.iter(f"{NS}path"))) == rank + 1 + 2


def test_the_back_is_well_formed_and_reveals_no_card() -> None:
    svg = back_svg()
    root = parse(svg)
    assert texts(root) == []
    assert "data-card" not in svg
    assert svg not in {card_svg(c) for c in DECK}


@pytest.mark.parametrize(("lang", "label", "card"), [
    ("en", "back of a card", "10 of diamonds"),
    ("fi", "kortin selkäpuoli", "ruutukymppi"),
    ("sv", "kortets baksida", "ruter tia"),
])
def test_the_drawings_words_are_in_the_language(lang: str, label: str, card: str) -> None:
    """The back's title and ``aria-label``, and a card's name, in the language in force."""
    with using(lang):
        back, ten = parse(back_svg()), parse(card_svg(parse_card("Td")))
    assert back.get("aria-label") == label
    assert back.findtext(f"{NS}title") == label
    assert ten.get("aria-label") == card
    assert ten.findtext(f"{NS}title") == card


@pytest.mark.parametrize("bad", [-1, 52, True])
def test_a_bad_card_id_is_refused(bad: int) -> None:
    with pytest.raises(CardError):
        card_svg(bad)
