"""How to play each ruleset: a player's short guide with a worked example deal.

The text lives here, as data, so that every front end shows the same words:
``casino rules NAME --guide`` prints it, the terminal app's rules screen (F1)
shows it under the rules, the web game serves it at ``/guide/NAME`` (linked from
its rules page), and docs/how-to-play.md is :func:`markdown` of all of them
(tests/test_guide.py checks that the file is in sync).

Each example is a real deal (``Match(NAME, seed=SEED)``) and moves in the
project's notation (docs/notation.md). The tables shown after each move are
not written here: :func:`example_lines` plays the moves through the engine and
prints what it gives, and tests/test_guide.py checks that every move is legal
and written canonically, so an example cannot rot.

What scores is not written here either. Each guide's points paragraph
(:func:`points_paragraph`) is worded from the ruleset's scoring scheme
(:func:`casino.engine.scheme.scheme`, which the scorer reads) by the phrases the
``casino rules`` summary uses (:func:`casino.engine.rules.scoring_phrases` and its
neighbours), and a worked step that names points says ``{points}`` (what the cards the
move takes score) or ``{sweep}`` (what a sweep scores) for :func:`example_lines` to
fill in; so a change to a preset's scoring changes its guide.

Every word is shown in the language in force (:mod:`casino.i18n`): the texts here are
English, marked ``pN_("guide", ...)``, and translated where they are shown
(:func:`shown`); the worked deals are the same in every language. docs/how-to-play.md
is English, docs/how-to-play.fi.md and docs/how-to-play.sv.md are ``markdown("fi")`` and
``markdown("sv")`` (``python -m casino.words.guide --lang fi``).
"""

from __future__ import annotations

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
)
from casino.engine.rules import (
    Rules,
    majority_ties_text,
    penalty_total,
    preset,
    scoring_phrases,
    sweep_limits,
    sweep_text,
    winning_text,
)
from casino.engine.scheme import Sweeps, scheme
from casino.engine.wording import listing
from casino.i18n import LANGUAGES, _, ngettext, pgettext, pN_, using

#: How every game of the family goes, before each ruleset's own differences.
BASICS = (
    pN_("guide", "Every game here is a fishing game: the table has cards face up, each player "
                 "has a hand, and on your turn you play one card from your hand. With it you "
                 "capture table cards it matches (same rank, or cards adding up to its value), "
                 "or, where the rules allow it, build: put it with table cards to announce a "
                 "value you will capture on a later turn. If you can do neither you trail: lay "
                 "the card on the table. Taking every card on the table is a sweep. When the "
                 "hands are empty new cards are dealt; when the stock is empty the round ends, "
                 "the cards left on the table go to whoever captured last, and the captured "
                 "cards are counted."),
    pN_("guide", "Moves are typed in the notation of docs/notation.md: `7h` trails the 7♥, "
                 "`7h x 7c` captures the 7♣ with it, `7h x 4d+3s` captures a 4 and a 3 that "
                 "make 7, `Ah+4d =5` builds a 5 with the A♥ and the 4♦, and `5h x [4d+Ah]` "
                 "captures that build."),
)


@dataclass(frozen=True)
class Step:
    """One move of a worked example and what it shows."""

    move: str  #: canonical notation (tests/test_guide.py checks it is)
    #: What the move shows; ``{points}`` and ``{sweep}`` are filled in from the scoring
    #: scheme (:func:`example_lines`), so the example states no number of its own.
    words: str


@dataclass(frozen=True)
class Guide:
    """A ruleset's guide: what to know, and a worked example deal."""

    name: str
    title: str
    #: How to play, in paragraphs; the points paragraph follows them, made from the
    #: scoring scheme (:func:`paragraphs`).
    how: tuple[str, ...]
    seed: int
    steps: tuple[Step, ...]
    after: str  #: what the example showed, in a sentence


_BUILD_EXAMPLE = (
    Step("Ah+4d =5", pN_("guide", "seat 1 puts the A♥ (1 in sums) with the 4♦ and announces a "
                                  "5: it holds the 5♥ to capture it later, and owns the build")),
    Step("2c", pN_("guide", "seat 0 trails the 2♣ (it could have stolen the build with its 5♦: "
                            "a build goes to whoever captures it)")),
    Step("5h x [4d+Ah]", pN_("guide", "seat 1 captures its build with the 5♥")),
)

GUIDES: dict[str, Guide] = {g.name: g for g in (
    Guide(
        CASINO.name, CASINO.guide_title,
        (pN_("guide", "Two players, one deck, 4 cards each and 4 on the table, then 4 more each "
                      "when the hands are empty: 6 deals a round."),
         pN_("guide", "Number cards count their value, J 11, Q 12, K 13. An Ace you play counts "
                      "14 (it captures a 14: say a K and an A), but inside a sum on the table it "
                      "counts 1."),
         pN_("guide", "A card captures the table cards of its rank, and any groups of table "
                      "cards that add up to its value. You may build up to 14. While you own a "
                      "build you may not trail, and you must keep a card that captures it.")),
        1, _BUILD_EXAMPLE,
        pN_("guide", "A build lets you gather cards now and take them on a later turn, as long "
                     "as you keep the card that captures it.")),
    Guide(
        KRYPKASINO.name, KRYPKASINO.guide_title,
        (pN_("guide", "Two players, two decks, 6 cards each and 4 on the table. The cards that "
                      "count are penalties, and so are sweeps: the lower total wins."),
         pN_("guide", "There are no builds. Captures are compulsory and maximal: if your card "
                      "can capture, it must capture as much as it can, and only a card that "
                      "captures nothing may be trailed. A card that can take the whole table "
                      "must do so."),
         pN_("guide", "J, Q and K dealt to the table are set aside; they go to the last "
                      "capturer at the end.")),
        1,
        (Step("Qd x Ts+2s", pN_("guide", "seat 1 must capture, and as much as it can: the Q♦ "
                                         "(12) takes the 10♠ and the 2♠: {points} of "
                                         "penalty")),
         Step("3h x 3c", pN_("guide", "seat 0 has to take the last card, the 3♣, with its 3♥: a "
                                      "sweep, which costs it {sweep}"))),
        pN_("guide", "In Krypkasino you avoid captures when you can, and plan your trails so "
                     "the other player is forced to sweep.")),
    Guide(
        KASINO.name, KASINO.guide_title,
        (pN_("guide", "Two players, one deck, 4 cards each and 4 on the table, 6 deals a round."),
         pN_("guide", "No builds: a card captures the table cards whose value equals its own, "
                      "alone or in groups that add up to it. J 11, Q 12, K 13, a played Ace 14. "
                      "Two cards are worth more in the hand than on the table: the 2♠ counts 15 "
                      "and the 10♦ 16 when you play them.")),
        1,
        (Step("Kc x 6h+5d+2c", pN_("guide", "seat 1's K♣ (13) takes the 6♥, the 5♦ and the 2♣: "
                                            "6 + 5 + 2 = 13")),
         Step("3d x 3c", pN_("guide", "seat 0 takes the last card with its 3♦: a sweep"))),
        pN_("guide", "One card can take several groups at once: look for every way to make its "
                     "value.")),
    Guide(
        CLASSIC.name, CLASSIC.guide_title,
        (pN_("guide", "Two players, one deck, 4 cards each and 4 on the table, 6 deals a round."),
         pN_("guide", "Number cards count their value and an Ace counts 1. J, Q and K have no "
                      "number: each captures one card of its own rank. Builds go up to 10; "
                      "while you own a build you may not trail, and you must keep a card that "
                      "captures it.")),
        1, _BUILD_EXAMPLE,
        pN_("guide", "A build lets you gather cards now and take them on a later turn.")),
    Guide(
        ROYAL.name, ROYAL.guide_title,
        (pN_("guide", "Two players, one deck, 4 cards each and 4 on the table, 6 deals a round."),
         pN_("guide", "J 11, Q 12, K 13, and an Ace you play counts 1 or 14, as you choose (1 "
                      "in sums on the table). Builds go up to 14; while you own a build you may "
                      "not trail, and you must keep a card that captures it.")),
        1, _BUILD_EXAMPLE,
        pN_("guide", "With face cards counting 11 to 13, big builds and captures of several "
                     "groups are common.")),
    Guide(
        SPADE.name, SPADE.guide_title,
        (pN_("guide", "Classic Casino in its play (Ace 1, J Q K only pair, builds up to 10), "
                      "but every spade scores."),),
        1, _BUILD_EXAMPLE,
        pN_("guide", "Count the spades: each one scores here.")),
    Guide(
        FACES_ALL.name, FACES_ALL.guide_title,
        (pN_("guide", "Classic Casino (Ace 1, builds up to 10), with one change: a J, Q or K "
                      "may capture all the table cards of its rank at once, not just one."),),
        1, _BUILD_EXAMPLE,
        pN_("guide", "A face card left on the table is bait: its twin takes all of them.")),
    Guide(
        MULLE.name, MULLE.guide_title,
        (pN_("guide", "Two players, two decks, 5 cards each and 5 on the table, 10 deals a "
                      "round."),
         pN_("guide", "J 11, Q 12, K 13; an Ace you play counts 1 or 14 (1 in sums). Builds go "
                      "up to 14; while you own a build you may not trail. With two decks a "
                      "card can have an identical twin: taking a card alone with its twin is a "
                      "mulle.")),
        1,
        (Step("As+3c+2s =6", pN_("guide", "seat 1 builds a 6 with the A♠, the 3♣ and the 2♠ "
                                          "(1 + 3 + 2), holding a 6 to take it")),
         Step("3h", pN_("guide", "seat 0 trails the 3♥")),
         Step("6s x [3c+2s+As]", pN_("guide", "seat 1 captures its build with the 6♠: three "
                                              "spades and an Ace"))),
        pN_("guide", "A build keeps the 2♠ and the A♠ for you while the other player watches.")),
    Guide(
        TABLIC.name, TABLIC.guide_title,
        (pN_("guide", "Two players, one deck, 6 cards each and 4 on the table, then 6 more each: "
                      "4 deals a round, and play goes anticlockwise."),
         pN_("guide", "No builds. J 12, Q 13, K 14, and an Ace is 1 or 11, in the hand and in "
                      "sums. A card captures the cards of its rank and any groups adding up to "
                      "its value.")),
        1,
        (Step("Ah x 7c+4d", pN_("guide", "seat 1 plays its A♥ as 11 and takes the 7♣ and the "
                                         "4♦ (7 + 4 = 11)")),
         Step("3c x 3d", pN_("guide", "seat 0 takes the 3♦ with its 3♣"))),
        pN_("guide", "The Ace's two values make it the most useful card in the hand.")),
)}


def guide(name: str) -> Guide:
    """The guide of a preset; KeyError naming the presets otherwise."""
    try:
        return GUIDES[name]
    except KeyError:
        raise KeyError(f"no guide for {name!r}; the guides are "
                       f"{', '.join(GUIDES)}") from None


def shown(text: str) -> str:
    """One of the guide's texts (a paragraph, a step's words, a title) in the language
    in force."""
    return pgettext("guide", text)


def title(g: Guide) -> str:
    """The guide's title in the language in force."""
    return pgettext("guide title", g.title)


def _sentence(text: str) -> str:
    """``reach 21; ...`` as the start of a sentence: ``Reach 21; ...``."""
    return text[:1].upper() + text[1:]


def points_paragraph(rules: Rules) -> str:
    """What scores under ``rules``, for a new player: the scheme's items in counting
    order (``Points: most cards 3, most spades 1, the 10♦ 2, ...``; Krypkasino's
    ``Penalties: ...`` and its sweeps), how a tie is settled, when a sweep does not
    count, and how the game is won. Worded from the scoring scheme by the functions the
    ``casino rules`` summary uses, so both say what the scorer counts."""
    phrases = scoring_phrases(rules, prose=True)
    ties = [majority_ties_text(rules)]
    if scheme(rules).penalty:
        # The sweeps are a sentence of their own: +5 to one player, -5 to another.
        cards = [text for item, text in phrases if not isinstance(item, Sweeps)]
        out = [_("Penalties: %(cards)s (%(total)s in a game).")
               % {"cards": ", ".join(cards), "total": penalty_total(rules)},
               *ties, _("Sweeps: %(text)s") % {"text": sweep_text(rules)}]
    else:
        out = [_("Points: %(items)s.") % {"items": ", ".join(text for _item, text in phrases)},
               *ties]
        limits = sweep_limits(rules)
        if limits:
            out.append(_("No sweep counts %(when)s.")
                       % {"when": listing(limits, last=pgettext("listing", "or"))})
        if rules.sweeps_cancel:
            out.append(_("A new sweep cancels one of another player's."))
    out.append(_sentence(winning_text(rules)))
    return " ".join(part for part in out if part)


def paragraphs(g: Guide, rules: Rules | None = None) -> tuple[str, ...]:
    """The guide's paragraphs: how to play, then what scores under ``rules`` (the
    preset's own by default; :func:`points_paragraph`)."""
    return (*(shown(p) for p in g.how), points_paragraph(rules or preset(g.name)))


def _points(n: int) -> str:
    """``1 point``, ``3 points`` in the language in force."""
    return ngettext("%(n)s point", "%(n)s points", n) % {"n": n}


def example_lines(g: Guide) -> list[str]:
    """The worked example: the deal, then each move with the table after it, as the
    engine plays it (every move is checked: an illegal one raises IllegalMove)."""
    from casino.engine.match import Match

    pos = Match(g.name, seed=g.seed).position
    sch = scheme(pos.rules)
    sweep = next((i.points for i in sch.items if isinstance(i, Sweeps)), 0)
    lines = [_("The first deal of `casino demo --rules %(name)s --seed %(seed)s` (both "
               "hands shown):") % {"name": g.name, "seed": g.seed}, ""]
    lines += ["    " + line for line in str(pos).splitlines()[1:]]
    lines.append("")
    for k, step in enumerate(g.steps, start=1):
        seat = pos.to_move
        move = pos.parse_move(step.move)
        taken = (move.card, *move.loose, *(c for b in move.builds for c in b.cards))
        words = shown(step.words).format(
            points=_points(sum(sch.points_of(c) for c in taken) if move.is_capture else 0),
            sweep=_points(sweep))
        pos = pos.successor(move)
        table = next(ln for ln in str(pos).splitlines() if ln.startswith("table:"))
        lines.append(_("%(k)s. Seat %(seat)s: `%(move)s`: %(words)s.")
                     % {"k": k, "seat": seat, "move": step.move, "words": words})
        lines.append("   " + _("Afterwards the table: %(cards)s")
                     % {"cards": table.removeprefix("table:").strip()})
    lines += ["", shown(g.after)]
    return lines


def text_lines(name: str, width: int = 78, rules: Rules | None = None) -> list[str]:
    """A preset's guide as plain text (``casino rules NAME --guide``, the F1 screen),
    its paragraphs wrapped at ``width``; what scores is said for ``rules`` (a game's
    own options) when given, else for the preset."""
    import textwrap

    g = guide(name)
    lines = [_("How to play: %(title)s") % {"title": title(g)}, ""]
    for para in (*paragraphs(g, rules), shown(BASICS[1])):
        lines += [*textwrap.wrap(para, width), ""]
    lines += [_("Worked example"), ""]
    lines += [*example_lines(g)[:-1], *textwrap.wrap(shown(g.after), width)]
    return lines


def _code_spans(text: str, seen: set[str]) -> list[tuple[str, bool, str | None]]:
    """``a `b` c`` as ``[("a ", False, None), ("b", True, None), (" c", False, None)]``
    (for HTML), the text spans cut further where they first use a glossary word, which
    then carries its anchor (casino.words.glossary)."""
    from casino.words.glossary import link_spans

    out: list[tuple[str, bool, str | None]] = []
    for k, part in enumerate(text.split("`")):
        if not part:
            continue
        if k % 2:
            out.append((part, True, None))
        else:
            out += [(span, False, anchor) for span, anchor in link_spans(part, seen)]
    return out


def guide_html(name: str) -> dict[str, object]:
    """What the web page shows (templates/guide.html), in the language in force: the
    paragraphs as text and code spans, each glossary word linked at its first use, the
    worked example as preformatted text (the template escapes all of it)."""
    g = guide(name)
    example = example_lines(g)[:-2]
    seen: set[str] = set()
    return {"how": [_code_spans(p, seen) for p in (*paragraphs(g), shown(BASICS[1]))],
            "example": "\n".join(example).replace("`", ""), "after": shown(g.after),
            "title": title(g)}


def _intro(lang: str) -> list[str]:
    """The page's heading, the note that it is generated, and what it is."""
    suffix = "" if lang == "en" else f" --lang {lang}"
    return [_("# How to play"), "",
            "<!-- Generated from src/casino/words/guide.py by "
            f"`python -m casino.words.guide{suffix}`: edit that file, not this one "
            "(tests/test_guide.py checks they agree). -->",
            "",
            _("A player's guide to each ruleset, with a worked example deal. "
              "`casino rules NAME` gives a ruleset's summary and `casino rules NAME "
              "--guide` prints its guide; in the terminal game F1 shows it, and the "
              "web game links to it from its rules page. The game's words are explained "
              "in the [glossary](glossary.md)."), ""]


def markdown(lang: str = "en") -> str:
    """docs/how-to-play.md (``lang`` "en"), or its translation (docs/how-to-play.fi.md,
    .sv.md): every guide, generated from this module; the first use of each glossary
    word in the document links to its entry in docs/glossary.md."""
    from casino.words.glossary import link_markdown

    with using(lang):
        seen: set[str] = set()
        out = _intro(lang)
        for para in BASICS:
            out += [link_markdown(shown(para), seen), ""]
        for name, g in GUIDES.items():
            out += [f"## {title(g)}", "", f"`casino rules {name}` · `casino play --rules "
                    f"{name}`", ""]
            for para in paragraphs(g):
                out += [link_markdown(para, seen), ""]
            out += [_("### Worked example"), ""]
            out += example_lines(g)
            out.append("")
    return "\n".join(out).rstrip("\n") + "\n"


#: The how-to-play pages in docs/, by language.
DOCS_FILES: dict[str, str] = {lang: "how-to-play.md" if lang == "en" else
                              f"how-to-play.{lang}.md" for lang in LANGUAGES}


if __name__ == "__main__":  # regenerate docs/how-to-play.md (--lang fi: .fi.md)
    import sys

    args = sys.argv[1:]
    sys.stdout.write(markdown(args[1] if args[:1] == ["--lang"] and len(args) > 1
                              else "en"))
