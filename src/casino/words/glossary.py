"""The glossary: the words a player meets, what each means, and where the rule is stated.

The entries live here, as data, so that every front end says the same thing:
docs/glossary.md is :func:`markdown` (``python -m casino.words.glossary``;
tests/test_glossary.py checks the file is in sync), ``casino glossary [WORD]``
prints :func:`text_lines`, the web game serves ``/glossary`` with an anchor per
entry, and the terminal game's F1 screen lists the words of the preset played.
The same anchors link the first use of each word on the web rules and guide pages
and in docs/how-to-play.md (:func:`link_spans`).

Each entry names the presets that use the word, with the preset's own word where
it has one (Finnish Kasino says *mökki*, Tablić *tabla*), and the sections of
docs/rules.md that state the rule. tests/test_glossary.py checks every section
against the headings of docs/rules.md and every preset list against the rules the
engine plays, where the rules data can say it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from casino.engine.presets import (
    CASINO,
    CLASSIC,
    FACES_ALL,
    KASINO,
    KRYPKASINO,
    MULLE,
    ROYAL,
    SPADE,
    TABLIC,
    Preset,
)
from casino.engine.rules import PRESET_NAMES, preset
from casino.i18n import LANGUAGES, _, pgettext, pN_, using
from casino.words.links import link_all as link_all
from casino.words.links import link_markdown as link_markdown
from casino.words.links import link_spans as link_spans

#: The presets, in the engine's order.
ALL: tuple[str, ...] = tuple(PRESET_NAMES)
def _all_but(*left_out: Preset) -> tuple[str, ...]:
    """The presets but ``left_out``, in the engine's order: a term's presets, named by
    the table's constants rather than written out."""
    return tuple(n for n in ALL if n not in {p.name for p in left_out})


#: The presets with building.
BUILDING: tuple[str, ...] = tuple(n for n in ALL if preset(n).building)

#: The headings of docs/rules.md that entries cite, by section number. A link needs the
#: heading's words (its anchor is made from them); tests/test_glossary.py checks each
#: against the document, so a renamed heading fails a test instead of a link.
SECTIONS: dict[str, str] = {
    "1": "1. Cards",
    "2.2": "2.2 Deal",
    "2.3": "2.3 The table",
    "2.4": "2.4 A turn",
    "2.5": "2.5 Owning builds",
    "2.6": "2.6 Sweeps and the end of a round",
    "2.7": "2.7 Scoring a round, in counting order",
    "2.8": "2.8 Winning",
    "3.1": "3.1 Deck, deal and match",
    "3.2": "3.2 Play",
    "3.3": "3.3 Picture cards",
    "3.4": "3.4 Penalties and sweeps",
    "4.1": "4.1 Values and pairing",
    "4.4": "4.4 The *mökki* (sweep)",
    "4.5": "4.5 Scoring a round",
    "4.7": "4.7 Options from seed 002",
    "5.1": "5.1 Values and captures",
    "5.3": "5.3 Winning",
    "5.4": "5.4 Three and four players",
    "6.2": "6.2 Spade Casino `spade`",
    "6.4": "6.4 Mulle `mulle`",
    "6.5": "6.5 Tablić `tablic`",
    "7.2": "7.2 The fields",
    "8.3": "8.3 Building",
    "8.4": "8.4 Adding to and raising builds",
    "8.9": "8.9 Krypkasino",
    "9.19": "9.19 Counting orders of the variants",
}


@dataclass(frozen=True)
class Term:
    """One glossary entry.

    ``presets`` are the presets in which the word means something (an option that a
    preset can switch on counts for that preset); ``names`` gives a preset's own word
    where it differs; ``rules`` are docs/rules.md sections, the first being where the
    rule is stated; ``forms`` are the other spellings that link to the entry in
    running text (as do the word itself unless ``link`` is false, too common a word to
    link alone, and each form's plural with a final ``s``).
    """

    word: str
    definition: str
    presets: tuple[str, ...]
    rules: tuple[str, ...]
    names: tuple[tuple[str, str], ...] = ()
    forms: tuple[str, ...] = ()
    link: bool = True  #: whether the word alone links in running text (not "add", "game")

    @property
    def anchor(self) -> str:
        """The entry's anchor, on the web page and in docs/glossary.md (GitHub's slug of
        its heading)."""
        return slug(self.word)

    def own_name(self, preset: str) -> str:
        """What ``preset`` calls it."""
        return dict(self.names).get(preset, self.word)


def slug(heading: str) -> str:
    """The anchor GitHub gives a Markdown heading: lower case, punctuation dropped,
    spaces to hyphens (tests/test_docs.py makes anchors the same way)."""
    text = re.sub(r"[`*_~]|\[([^\]]*)\]\([^)]*\)", r"\1", heading).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


TERMS: tuple[Term, ...] = (
    Term(pN_("glossary term", "fishing game"),
         pN_("glossary",
             "A card game in which you play a card from your hand to take matching cards from "
             "a table of face-up cards. Every game here is one."),
         ALL, ("2.4",)),
    Term(pN_("glossary term", "capture"),
         pN_("glossary",
             "Playing a card to take table cards with it: lone cards it pairs with, groups that "
             "add up to its value and builds of its value, any of them at once. The card and "
             "what it takes go to your pile."),
         ALL, ("2.4", "3.2", "5.1"), forms=("captures", "captured", "capturing", "capturer")),
    Term(pN_("glossary term", "pair"),
         pN_("glossary",
             "To take a lone table card that matches the card you play: of the same rank in "
             "most games, of the same value in Krypkasino and Finnish Kasino (a played 10♣ "
             "takes a table 10♦ there, a played Ace no lone Ace)."),
         ALL, ("1", "4.1"), forms=("pairs", "pairing", "paired")),
    Term(pN_("glossary term", "sum"),
         pN_("glossary",
             "Two or more loose table cards whose values add up to the value of the card you "
             "play; you capture them together as one group. Also called a group."),
         ALL, ("2.4",), forms=("sums", "summing", "adding up", "add up", "adds up")),
    Term(pN_("glossary term", "trail"),
         pN_("glossary",
             "Laying the card you play on the table without taking anything. You may trail "
             "whenever you like, except while you own a build, or in Krypkasino with a card "
             "that can capture."),
         ALL, ("2.4", "3.2"), forms=("trails", "trailed", "trailing")),
    Term(pN_("glossary term", "loose card"),
         pN_("glossary",
             "A single card lying on the table, not part of a build."),
         ALL, ("2.3",), forms=("loose cards", "lone card", "lone cards", "table card",
                               "table cards")),
    Term(pN_("glossary term", "played value"),
         pN_("glossary",
             "What a card counts as the card you play; its sum value is what it counts on the "
             "table, inside a sum or a build. They differ for the Ace where it is played as 14 "
             "(or 1 or 14) but counts 1 in a sum, and, in Finnish Kasino, for the 2♠ (15) and "
             "the 10♦ (16), which are worth more in the hand."),
         ALL, ("1", "4.1"),
         names=((KASINO.name, pN_("glossary term", "hand value")),),
         forms=("sum value", "hand value", "table value")),
    Term(pN_("glossary term", "face card"),
         pN_("glossary",
             "A Jack, Queen or King. In most games they count 11, 12 and 13 (12 to 14 in "
             "Tablić); in Classic, Spade and Faces-all Casino they have no number and only "
             "pair with their own rank."),
         ALL, ("1", "5.1"), names=((KRYPKASINO.name, pN_("glossary term", "picture card")),),
         forms=("face cards", "picture card", "picture cards", "pictures")),
    Term(pN_("glossary term", "build"),
         pN_("glossary",
             "Playing a card onto loose table cards and announcing a value, to capture them "
             "all together on a later turn with a card of that value, which you must keep. "
             "The build is yours until someone adds to it, raises it or captures it."),
         BUILDING, ("2.4", "2.3", "8.3"), forms=("builds", "building", "built")),
    Term(pN_("glossary term", "multiple build"),
         pN_("glossary",
             "A build of two or more groups that each add up to its value (an 8 played on a "
             "table 8, announcing 8); a single build has one group. A multiple build can be "
             "added to but never raised."),
         BUILDING, ("2.3", "8.3"), forms=("multiple builds", "single build",
                                          "single builds", "grouped build")),
    Term(pN_("glossary term", "announce"),
         pN_("glossary",
             "To say the value of the build you make: the same cards can make different "
             "builds (two 5s make a 5 or a 10), so the value is part of the move."),
         BUILDING, ("2.4", "8.3"), forms=("announces", "announced", "announcing")),
    Term(pN_("glossary term", "add"),
         pN_("glossary",
             "Putting your card, alone or with loose cards, onto a build as another group of "
             "the build's value, which makes it a multiple build. Anyone may add to any build, "
             "and then owns it; you must still hold a card of that value."),
         BUILDING, ("2.4", "8.4"), forms=("adds to", "add to", "added to", "adding to"),
         link=False),
    Term(pN_("glossary term", "raise"),
         pN_("glossary",
             "Putting your card onto a single build so that its value grows by the card's "
             "value (a 3 on a 5-build makes an 8-build), up to the highest value a card has. "
             "You must hold a card of the new value, and you own the build."),
         BUILDING, ("2.4", "8.4"), forms=("raises", "raised", "raising")),
    Term(pN_("glossary term", "owner"),
         pN_("glossary",
             "Whoever made a build or last added to it or raised it. While you own a build "
             "you may not trail, and you must always keep a card of its value: that is the "
             "ownership rule."),
         BUILDING, ("2.5",), forms=("owners", "owns", "own a build", "owning",
                                    "ownership rule")),
    Term(pN_("glossary term", "sweep"),
         pN_("glossary",
             "A capture that leaves the table empty. It scores a point (in Krypkasino it costs "
             "5 penalty points); the leftovers at the end of a round are never a sweep."),
         ALL, ("2.6", "3.4", "4.4", "6.5"),
         names=((KASINO.name, pN_("glossary term", "mökki")), (TABLIC.name, TABLIC.sweep_word)),
         forms=("sweeps", "swept", "sweeping", "clears the table", "take the whole table",
                "takes the whole table")),
    Term(pN_("glossary term", "mökki"),
         pN_("glossary",
             "Finnish Kasino's word for a sweep. It scores 1, but not during the round's last "
             "deal, nor in a round that began with any player above 10 points."),
         (KASINO.name,), ("4.4",), forms=("mökkis",)),
    Term(pN_("glossary term", "tabla"),
         pN_("glossary",
             "Tablić's word for a sweep: taking every card on the table, worth 1 point."),
         (TABLIC.name,), ("6.5",), forms=("tablas",)),
    Term(pN_("glossary term", "double sweep"),
         pN_("glossary",
             "In Krypkasino, sweeping a lone table card with its identical twin from the other "
             "deck: it counts as two sweeps, 10 penalty points to the sweeper and 10 off the "
             "other player."),
         (KRYPKASINO.name,), ("3.4", "8.9"), forms=("double sweeps",)),
    Term(pN_("glossary term", "twin"),
         pN_("glossary",
             "With two decks every card has an identical twin: the same rank and the same "
             "suit. Taking a loose card alone with its twin is a mulle in Mulle, and in "
             "Krypkasino, when it is the only card on the table, a double sweep."),
         (KRYPKASINO.name, MULLE.name), ("3.4", "6.4"), forms=("twins", "identical twin")),
    Term(pN_("glossary term", "mulle"),
         pN_("glossary",
             "In Mulle, a capture that takes exactly one loose card, the played card's "
             "identical twin, and nothing else: 5 points."),
         (MULLE.name,), ("6.4",), forms=("mulles",)),
    Term(pN_("glossary term", "compulsory capture"),
         pN_("glossary",
             "Krypkasino's rule that a card which can capture must capture, and as much as it "
             "can: nothing it could still take may be left. Only a card that can capture "
             "nothing may be trailed, but which card to play is your choice."),
         (KRYPKASINO.name,), ("3.2", "8.9"),
         forms=("compulsory", "maximal capture", "maximal captures", "must capture")),
    Term(pN_("glossary term", "cardinality"),
         pN_("glossary",
             "An option for Krypkasino's compulsory capture (maximal_capture=\"cardinality\"): "
             "a capture must take the most cards possible, not merely leave nothing the card "
             "could still take."),
         (KRYPKASINO.name,), ("8.9", "7.2")),
    Term(pN_("glossary term", "forced sweep"),
         pN_("glossary",
             "Krypkasino's rule that if a card in your hand can take the whole table, you must "
             "play such a card and take it all."),
         (KRYPKASINO.name,), ("3.2", "8.9"), forms=("forced sweeps",)),
    Term(pN_("glossary term", "creeping"),
         pN_("glossary",
             "What krypa, the name of Krypkasino, means: play without builds, every turn a "
             "capture or a trail."),
         (KRYPKASINO.name,), ("3.2", "8.9"), forms=("krypa",)),
    Term(pN_("glossary term", "set aside"),
         pN_("glossary",
             "In Krypkasino, the J, Q and K lying on the table after the first deal and "
             "before each later deal are put aside; at the end of the game they go to the "
             "player who made the last capture, with their penalties."),
         (KRYPKASINO.name,), ("3.3", "8.9"), forms=("set-aside",)),
    Term(pN_("glossary term", "last capture"),
         pN_("glossary",
             "At the end of a round, the cards left on the table (the leftovers) go to the "
             "player who captured last. In Mulle, and in Finnish Kasino as an option, the "
             "last capture also scores a point."),
         ALL, ("2.6", "6.4", "4.7"), forms=("leftovers", "captured last", "last capturer")),
    Term(pN_("glossary term", "pile"),
         pN_("glossary",
             "The cards a player has captured, kept in front of them and counted at the end of "
             "the round. Every captured card was shown when it was taken, so what a pile holds "
             "is public."),
         ALL, ("2.4", "2.7"), forms=("piles",)),
    Term(pN_("glossary term", "most cards"),
         pN_("glossary",
             "A scoring item: points to the player (or side) who captured more cards than any "
             "other in the round. A tie scores nothing, or in Finnish Kasino carries over."),
         _all_but(KRYPKASINO, MULLE),
         ("2.7", "4.5")),
    Term(pN_("glossary term", "most spades"),
         pN_("glossary",
             "A scoring item: points to the player who captured the most spades in the round. "
             "In Spade Casino every spade scores instead, and Krypkasino and Tablić have no "
             "such item."),
         _all_but(KRYPKASINO, SPADE, TABLIC), ("2.7", "4.5")),
    Term(pN_("glossary term", "point cards"),
         pN_("glossary",
             "The cards that score by themselves when captured, named in each game's scoring: "
             "the Aces, the 10♦ and the 2♠ in most games; every spade in Spade Casino; the "
             "A, K, Q, J and 10s and the 2♣ in Tablić."),
         ALL, ("2.7", "9.19"), names=((KRYPKASINO.name, pN_("glossary term", "penalty cards")),),
         forms=("point card",)),
    Term(pN_("glossary term", "big casino"),
         pN_("glossary",
             "The 10♦, a card that scores by itself: 2 points in most games, 3 penalty points "
             "in Krypkasino."),
         ALL, ("2.7", "3.4"), forms=("10♦", "Td")),
    Term(pN_("glossary term", "little casino"),
         pN_("glossary",
             "The 2♠, a card that scores by itself: 1 point, 2 penalty points in Krypkasino. "
             "(Tablić scores the 2♣ instead.)"),
         _all_but(TABLIC),
         ("2.7", "3.4"), forms=("2♠", "2s")),
    Term(pN_("glossary term", "penalty"),
         pN_("glossary",
             "In Krypkasino what you capture counts against you: each 10♦ 3, 2♠ 2, A♠ 2, other "
             "Ace 1, other spade 1, and a sweep 5 (taken off the other player too). The lower "
             "total wins."),
         (KRYPKASINO.name,), ("3.4",), forms=("penalties", "penalty points", "penalty cards")),
    Term(pN_("glossary term", "carry"),
         pN_("glossary",
             "In Finnish Kasino a tied majority (most cards; most spades when three players "
             "tie, or in a four-player game) scores nothing now and carries its points into "
             "the same item of the next round, which is worth that much more."),
         (KASINO.name,), ("4.5",), forms=("carries", "carry-over", "carries over")),
    Term(pN_("glossary term", "counting order"),
         pN_("glossary",
             "The fixed order in which a round's scoring items are counted. In Casino and "
             "Mulle it decides the winner: the first player whose total reaches the target "
             "while the items are added one by one wins."),
         (CASINO.name, MULLE.name), ("2.8", "2.7", "9.19"),
         forms=("counting in order", "items in order")),
    Term(pN_("glossary term", "target"),
         pN_("glossary",
             "The total that wins: 21 in most games, 16 in Finnish Kasino, 61 in Spade Casino, "
             "101 in Tablić. Where several players reach it in one round, the higher total "
             "wins (in Casino and Mulle, the first in counting order)."),
         _all_but(KRYPKASINO),
         ("2.8", "5.3")),
    Term(pN_("glossary term", "item"),
         pN_("glossary",
             "A table item is a loose card or a build: what a capture takes and a move names. "
             "A scored item is one line of a round's scoring: most cards, a point card, a "
             "sweep."),
         ALL, ("2.3", "2.7"), forms=("table item", "table items", "scored item",
                                     "scored items")),
    Term(pN_("glossary term", "spades above 7"),
         pN_("glossary",
             "A Finnish Kasino option for two players: instead of the points for most spades, "
             "each spade above 7 scores 1 point (played to 21)."),
         (KASINO.name,), ("4.7",)),
    Term(pN_("glossary term", "lead"),
         pN_("glossary",
             "To play the first card of a deal: the player after the dealer leads every deal, "
             "and then turns go round in play order."),
         ALL, ("2.2",), forms=("leads",)),
    Term(pN_("glossary term", "dealer"),
         pN_("glossary",
             "The player who deals the round; the deal passes on each round, and the player "
             "after the dealer leads every deal. The dealer takes the leftovers if nobody "
             "captured."),
         ALL, ("2.2", "2.6"), forms=("dealers",)),
    Term(pN_("glossary term", "deal"),
         pN_("glossary",
             "Handing out cards from the stock: the first deal also puts cards on the table, "
             "later deals only refill the empty hands."),
         ALL, ("2.2",), forms=("deals", "dealt"), link=False),
    Term(pN_("glossary term", "stock"),
         pN_("glossary",
             "The cards not yet dealt, face down; the round ends when it is used up and the "
             "hands are empty."),
         ALL, ("2.2",)),
    Term(pN_("glossary term", "round"),
         pN_("glossary",
             "The play of the whole deck, deal after deal, after which the piles are scored. "
             "Krypkasino calls it a game."),
         ALL, ("2.2", "3.1"), names=((KRYPKASINO.name, KRYPKASINO.round_word),), forms=("rounds",)),
    Term(pN_("glossary term", "game"),
         pN_("glossary",
             "Play until someone wins, round after round. In Krypkasino a game is what the "
             "others call a round (12 deals), and two games make a match."),
         ALL, ("2.8", "3.1"), names=((KRYPKASINO.name, pN_("glossary term", "match")),),
         forms=("match",), link=False),
    Term(pN_("glossary term", "partnership"),
         pN_("glossary",
             "With four players (in Classic, Royal, Spade and Faces-all Casino and Tablić) the "
             "partners sit opposite each other and their piles are scored together."),
         (CLASSIC.name, ROYAL.name, SPADE.name, FACES_ALL.name, TABLIC.name), ("5.4",),
         forms=("partnerships", "partners", "partner")),
)

#: The entries by word.
BY_WORD: dict[str, Term] = {t.word: t for t in TERMS}


def shown_word(term: Term) -> str:
    """The entry's word in the language in force."""
    return pgettext("glossary term", term.word)


def shown_definition(term: Term) -> str:
    """The entry's definition in the language in force."""
    return pgettext("glossary", term.definition)


def shown_own_name(term: Term, preset: str) -> str:
    """What ``preset`` calls it, in the language in force."""
    return pgettext("glossary term", term.own_name(preset))


def in_languages(term: Term) -> tuple[tuple[str, str], ...]:
    """The entry's word in each language, by code: ``(("en", "sweep"), ("fi", "mökki"),
    ("sv", "tabbe"))``."""
    out = []
    for lang in LANGUAGES:
        with using(lang):
            out.append((lang, shown_word(term)))
    return tuple(out)


def languages_line(term: Term) -> str:
    """The entry's word in the three languages, each with the language's own name:
    ``sweep (English) — mökki (suomi) — tabbe (svenska)``."""
    return " — ".join(f"{word} ({LANGUAGES[lang].lower() if lang != 'en' else 'English'})"
                      for lang, word in in_languages(term))


def _folded(text: str) -> str:
    """``text`` lowered and without its accents (*mökki* -> *mokki*, *Tablić* -> *tablic*),
    for a word typed on a keyboard without them."""
    decomposed = unicodedata.normalize("NFKD", text.strip().lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _spellings(term: Term) -> tuple[tuple[str, ...], ...]:
    """The spellings that name ``term``, in the order they are tried: its word, anchor
    and forms; its names in the presets; its words in Finnish and Swedish."""
    return ((term.word, term.anchor, *(f.lower() for f in term.forms)),
            tuple(name for _p, name in term.names),
            tuple(w.lower() for _lang, w in in_languages(term)))


def find(word: str) -> Term:
    """The entry for ``word`` (case-insensitive; any of its forms or preset names will
    do, or its word in Finnish or Swedish, with or without its accents: *mokki*); KeyError
    naming every entry otherwise."""
    for spelled in (str.lower, _folded):
        key = spelled(word.strip())
        for kind in range(3):
            for term in TERMS:
                if key in (spelled(s) for s in _spellings(term)[kind]):
                    return term
    raise KeyError(_("no glossary entry for %(word)r; the words are %(words)s")
                   % {"word": word, "words": ", ".join(shown_word(t) for t in TERMS)})


def for_preset(preset: str) -> tuple[Term, ...]:
    """The entries a preset uses, in glossary order."""
    return tuple(t for t in TERMS if preset in t.presets)


def section_title(section: str) -> str:
    """A cited heading's words for a reader, without its number, code or emphasis:
    ``Sweeps and the end of a round``, ``Tablić``."""
    words = SECTIONS[section].split(" ", 1)[1]
    return re.sub(r"\s*`[^`]*`", "", words).replace("*", "").strip()


def rules_link(section: str, base: str = "rules.md") -> str:
    """The Markdown link to a section of docs/rules.md: ``[rules.md §2.6](rules.md#26-...)``."""
    return f"[rules.md §{section}]({base}#{slug(SECTIONS[section])})"


def presets_text(term: Term) -> str:
    """Which presets use it, with their own words: ``all presets (kasino: mökki, ...)``,
    in the language in force."""
    own = [f"{p}: {shown_own_name(term, p)}" for p, _n in term.names]
    used = _("all presets") if term.presets == ALL else ", ".join(term.presets)
    return used + (f" ({'; '.join(own)})" if own else "")


def text_lines(word: str | None = None, width: int = 78) -> list[str]:
    """``casino glossary [WORD]``: one entry, or all of them, as wrapped plain text, in
    the language in force, each under its word in the three languages."""
    import textwrap

    terms = TERMS if word is None else (find(word),)
    lines: list[str] = []
    for term in terms:
        lines.append(shown_word(term))
        lines += textwrap.wrap(languages_line(term), width, initial_indent="  ",
                               subsequent_indent="  ")
        lines += textwrap.wrap(shown_definition(term), width, initial_indent="  ",
                               subsequent_indent="  ")
        lines += textwrap.wrap(_("Used in: %(presets)s") % {"presets": presets_text(term)},
                               width, initial_indent="  ", subsequent_indent="    ")
        lines.append("  " + _("Rules: %(sections)s") % {
            "sections": ", ".join(f"docs/rules.md §{s}" for s in term.rules)})
        lines.append("")
    return lines[:-1]


def preset_lines(preset: str) -> list[str]:
    """The words of one preset, for the terminal game's F1 screen: ``word: definition``,
    under the preset's own word, in the language in force."""
    return [f"{shown_own_name(t, preset)}: {shown_definition(t)}" for t in for_preset(preset)]


@dataclass(frozen=True)
class ShownTerm:
    """An entry as the web glossary page shows it, in the page's language: the
    attributes the page reads of a :class:`Term`, translated when the page is made."""

    anchor: str
    word: str
    definition: str
    presets: tuple[str, ...]
    rules: tuple[str, ...]
    #: The word in the three languages (:func:`languages_line`).
    languages: str
    names: dict[str, str]

    def own_name(self, preset: str) -> str:
        """What ``preset`` calls it, in the page's language."""
        return self.names.get(preset, self.word)


def shown_terms() -> list[ShownTerm]:
    """Every entry in the language in force, for the web glossary page."""
    return [ShownTerm(t.anchor, shown_word(t), shown_definition(t), t.presets, t.rules,
                      languages_line(t), {p: shown_own_name(t, p) for p, _n in t.names})
            for t in TERMS]


def markdown() -> str:
    """docs/glossary.md: every entry, generated from this module, each under its word
    in the three languages."""
    out = ["# Glossary", "",
           "<!-- Generated from src/casino/words/glossary.py by "
           "`python -m casino.words.glossary`: edit that file, not this one "
           "(tests/test_glossary.py checks they agree). -->", "",
           "The words players meet in the games here, in plain words. Each entry says "
           "which rulesets use the word, and under what name, and links to the section of "
           "[rules.md](rules.md) that states the rule; under each word are its Finnish and "
           "Swedish names. `casino glossary WORD` prints an "
           "entry (`--lang fi` or `sv`: in Finnish or Swedish), the web game serves this "
           "list at `/glossary`, and the terminal game "
           "shows the words of the ruleset being played on its help screen (F1).", "",
           "Words: " + " · ".join(f"[{t.word}](#{t.anchor})" for t in TERMS), ""]
    with using("en"):
        for term in TERMS:
            out += [f"## {term.word}", "", f"*{languages_line(term)}*", "",
                    term.definition, "",
                    f"Used in: {presets_text(term)}.", "",
                    "Rules: " + ", ".join(rules_link(s) for s in term.rules) + ".", ""]
    return "\n".join(out).rstrip("\n") + "\n"


def kinds(preset: str) -> dict[str, str]:
    """The definitions of the words the web game shows as labels, for their titles, in
    the preset's own words: the move kinds (``capture``, ``build``...) and the scored
    items as casino.words.narrate.item_words names them (``most cards``, ``sweep``,
    ``10♦``...)."""
    words = {"capture": "capture", "trail": "trail", "build": "build", "add": "add",
             "raise": "raise", "sweep": "sweep", "mulle": "mulle",
             "last capture": "last capture", "most cards": "most cards",
             "spades": "most spades", "10♦": "big casino", "2♠": "little casino"}
    out = {}
    for key, word in words.items():
        term = BY_WORD[word]
        if preset in term.presets:
            out[key] = f"{shown_own_name(term, preset)}: {shown_definition(term)}"
    return out


def all_words() -> Sequence[str]:
    """The entries' words, in glossary order."""
    return [t.word for t in TERMS]


if __name__ == "__main__":  # regenerate docs/glossary.md
    import sys

    sys.stdout.write(markdown())
