"""The bodies of the JSON API's requests and answers, as pydantic models.

Each request body is read once, by :func:`read`, into its model (after
:func:`~casino.web.limits.json_object` has read it within its size, as JSON): a field
missing, extra or of the wrong type, or a value out of range, is refused there with
:class:`BodyError`, whose words name the field (:func:`casino.web.messages.explain`),
and nothing changes. What needs the rules (a preset's player counts, a room's people,
a pad's rounds, the helper's cards) is checked where the rules are: by
:meth:`~casino.web.rooms.Rooms.create`, the score pad and the move helper. The answers
are modelled too; :data:`ROUTES` says which model each route takes and answers, and
docs/api.schema.json is their JSON Schema (``python -m casino.web.messages docs`` writes
it with the WebSocket's; a test keeps it equal to the models).
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
)
from pydantic.json_schema import models_json_schema

from casino.bots.levels import LEVELS
from casino.engine.errors import RulesError
from casino.engine.presets import DEFAULT
from casino.engine.rules import PRESET_NAMES, canonical_name
from casino.web.body import Body
from casino.web.messages import explain
from casino.web.timecontrol import ClockBody

#: A game's mode: against computers, a room for friends, or the lesson.
Mode = Literal["computer", "friends", "lesson"]
#: The most players any preset seats (the rules say which counts each takes).
MAX_PLAYERS = 4
#: What the fields are, in words: their descriptions in the schema, and the second half
#: of an error about them.
RULES = (f"\"rules\" is a preset's name (or an alias): choose the rules among "
         f"{', '.join(PRESET_NAMES)}")
PLAYERS = f"\"players\" is how many seats the table has: a whole number, 2 to {MAX_PLAYERS}"
LEVEL = f"\"level\" is the computer's: the levels are {', '.join(LEVELS)}"
PAD = "\"pad\" is the score pad: its JSON object (format casino-scorepad/1)"
#: The most moves a game's spectators may be kept behind it (``spectator_delay``): enough
#: that a spectator cannot tell a player what was just played, and not so many that the
#: game is no longer live.
MAX_SPECTATOR_DELAY = 20


def _preset(rules: str) -> str:
    """The preset's own name for ``rules``, a preset's name or one of its aliases."""
    try:
        return canonical_name(rules)
    except RulesError:
        raise ValueError(f"unknown ruleset {rules[:30]!r}") from None


def _preset_or_rules(rules: str | dict[str, Any]) -> str | dict[str, Any]:
    return _preset(rules) if isinstance(rules, str) else rules


def _level(level: str | None) -> str | None:
    if level is not None and level not in LEVELS:
        raise ValueError(f"unknown level {level[:30]!r}")
    return level


class NewGame(Body):
    """``POST /api/games``: a game against the computer, a lesson, or a room for friends.
    Whether the rules take ``players`` and a room ``people`` is the rules' to say
    (:meth:`~casino.web.rooms.Rooms.create`), and the name's length the server's limit."""

    WHAT: ClassVar[str] = "the new game request"
    mode: Mode = Field(
        "computer", description="\"mode\" is computer, friends or lesson")
    rules: str = Field(DEFAULT.name, description=RULES)
    players: int = Field(2, ge=2, le=MAX_PLAYERS, description=PLAYERS)
    level: str = Field("medium", description=LEVEL)
    name: str | None = Field(None, description="\"name\" is the player's name, as text")
    public: bool = Field(False, description="\"public\": whether the lobby lists the room "
                         "(true or false)")
    people: int | None = Field(None, ge=1, le=MAX_PLAYERS, description=(
        "\"people\" is how many of the seats are people's: a whole number, 2 to the "
        "players (a room of friends only)"))
    hints: bool | None = Field(None, description="\"hints\": whether hints are on (true or "
                               "false; leave it out for the default)")
    takebacks: bool | None = Field(None, description="\"takebacks\": whether take-backs "
                                   "are on (true or false; leave it out for the default)")
    rated: bool = Field(False, description="\"rated\": whether the game moves the players' "
                        "ratings (true or false; a room for friends, all of them signed in)")
    spectators: bool | None = Field(None, description=(
        "\"spectators\": whether anyone with the link may watch the game live (true or "
        "false; leave it out for the default: on in a rated game, else off; never in a "
        "lesson)"))
    spectator_delay: int = Field(0, ge=0, le=MAX_SPECTATOR_DELAY, description=(
        f"\"spectator_delay\" is how many moves behind the game spectators see it: a "
        f"whole number, 0 to {MAX_SPECTATOR_DELAY}"))
    chat: bool | None = Field(None, description=(
        "\"chat\": whether the players may chat (true or false; leave it out for the "
        "default: on in a room for friends; never against the computer or in a lesson)"))
    clock: ClockBody | None = Field(None, description=(
        "\"clock\" is the room's time control, an object: {\"kind\": \"bank\", \"bank\": "
        "300, \"increment\": 3} (leave it out for none; a room for friends only)"))

    _a_preset = field_validator("rules")(_preset)
    _a_level = field_validator("level")(_level)


class PairingRequest(Body):
    """``POST /api/pairing``: "Play someone now" in a pool (a preset at a player count,
    rated or casual); ``seek`` the player's own seek, when asking again while waiting
    (:mod:`casino.web.pairing`)."""

    WHAT: ClassVar[str] = "the pairing request"
    rules: str = Field(DEFAULT.name, description=RULES)
    players: int = Field(2, ge=2, le=MAX_PLAYERS, description=PLAYERS)
    rated: bool = Field(False, description="\"rated\": whether the game moves the players' "
                        "ratings (true or false; signed in only)")
    seek: str | None = Field(None, max_length=64, description=(
        "\"seek\" is the id of your own seek, as the last answer gave it (or null)"))
    clock: ClockBody | None = Field(None, description=(
        "\"clock\" is the time control of the game sought, an object (leave it out for "
        "none): only seeks of the same control are joined"))

    _a_preset = field_validator("rules")(_preset)


class ChallengeRequest(Body):
    """``POST /api/challenge``: a room for friends sent to the account named ``name``
    (:mod:`casino.web.challenges`)."""

    WHAT: ClassVar[str] = "the challenge"
    name: str = Field(min_length=1, max_length=64, description=(
        "\"name\" is the name of the player you challenge, as text"))
    rules: str = Field(DEFAULT.name, description=RULES)
    players: int = Field(2, ge=2, le=MAX_PLAYERS, description=PLAYERS)
    rated: bool = Field(False, description="\"rated\": whether the game moves the players' "
                        "ratings (true or false)")
    clock: ClockBody | None = Field(None, description=(
        "\"clock\" is the game's time control, an object (leave it out for none)"))

    _a_preset = field_validator("rules")(_preset)


class DailyStart(Body):
    """``POST /api/daily/{rules}``: play today's daily deal of a preset (or go back to
    the game started already); a guest gives the name this browser takes part under."""

    WHAT: ClassVar[str] = "the daily deal request"
    name: str | None = Field(None, max_length=200, description=(
        "\"name\" is the name you take part under, as text (needed without an account)"))


class NewPad(Body):
    """``POST /api/scorepad/new``: a blank score pad for ``names`` under ``rules``."""

    WHAT: ClassVar[str] = "the new score pad request"
    rules: str = Field(DEFAULT.name, description=RULES)
    names: list[str] = Field(min_length=2, max_length=MAX_PLAYERS, description=(
        "\"names\" are the players' names as a list of text, 2 to 4 of them"))

    _a_preset = field_validator("rules")(_preset)


class PadBody(Body):
    """``{"pad": PAD}``: a pad to check and view, or to keep on the server (the pad itself
    is checked whole by :meth:`casino.tools.scorepad.ScorePad.from_json`)."""

    WHAT: ClassVar[str] = "the score pad request"
    pad: dict[str, Any] = Field(description=PAD)


#: The actions on a pad.
PAD_OPS = ("add", "replace", "remove", "undo")


def _action(op: Any) -> Any:
    """An unknown action named as such (before the type's own check)."""
    if isinstance(op, str) and op not in PAD_OPS:
        raise ValueError(f"unknown action {op[:30]!r}")
    return op


class PadAction(Body):
    """What to do to a pad: ``add`` a round, ``replace`` the round ``index`` (from 0),
    ``remove`` it, or ``undo`` the last change (the round is the score pad's to check)."""

    op: Literal["add", "replace", "remove", "undo"] = Field(
        description="\"op\" is add, replace, remove or undo")
    index: int | None = Field(None, ge=0, description="\"index\" is a round's number from 0")
    round: dict[str, Any] | None = Field(None, description="\"round\" is a round's entry")

    _an_action = field_validator("op", mode="before")(_action)


class PadChange(Body):
    """``POST /api/scorepad/apply``: the pad, and the action to apply to it."""

    WHAT: ClassVar[str] = "the score pad request"
    pad: dict[str, Any] = Field(description=PAD)
    action: PadAction = Field(description="\"action\" is an object such as "
                              "{\"op\": \"add\", \"round\": {...}}")


class Build(Body):
    """A build on the helper's table: its groups of cards, owner and value."""

    groups: list[list[str]] = Field(min_length=1)
    owner: int = Field(ge=0)
    value: int | None = None


class HelperRequest(Body):
    """``POST /api/helper``: a described table and hand (what each field may say is
    :func:`casino.tools.helper.setup_from_json`'s, which checks the cards against the
    rules), ``card`` and ``using`` to ask for one card's plays, ``level`` for the bot's
    pick (null: none), ``judge`` false to list the plays unjudged, and ``players`` beside
    a preset's name."""

    WHAT: ClassVar[str] = "the helper's request"
    rules: str | dict[str, Any] = Field(DEFAULT.name, description=(
        "\"rules\" is a preset's name (or an alias), or the rules as an object"))
    players: int | None = Field(None, ge=2, le=MAX_PLAYERS, description=PLAYERS)
    level: str | None = Field("expert", description=LEVEL + ", or null for no pick")
    judge: bool = Field(True, description="\"judge\" is true or false")
    seed: int = Field(0, description="\"seed\" is the bot's seed: a whole number")
    table: list[str | Build] | str = Field(
        default_factory=list, description="\"table\" is a list of cards (as \"9c\") and "
        "builds ({\"groups\", \"owner\", \"value\"}), or text")
    hand: list[str] | str = Field(default_factory=list,
                                  description="\"hand\" is a list of cards, as [\"9d\"]")
    opponents: list[int] | None = Field(None, description=(
        "\"opponents\" are how many cards each other seat holds"))
    stock: int | None = Field(None, ge=0, description="\"stock\": the cards left to deal")
    captured: list[list[str]] | None = Field(None, description=(
        "\"captured\" is a list of piles of cards, one per seat"))
    scores: list[int] | None = Field(None, description="\"scores\" are the seats' scores")
    set_aside: list[str] = Field(default_factory=list, description=(
        "\"set_aside\" are the cards set aside, as [\"Ks\"]"))
    card: str | None = Field(None, description="\"card\" is one card of your hand, as \"Td\"")
    using: list[int] = Field(default_factory=list, description=(
        "\"using\" are table item numbers from 0, as [0, 2]"))

    _a_preset = field_validator("rules")(_preset_or_rules)
    _a_level = field_validator("level")(_level)


# ----------------------------------------------------------------------
# The answers


class Answer(BaseModel):
    """What every answer shares: exactly its fields, each of its type."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class Refusal(Answer):
    """A refusal, in words (every route of /api/ answers its errors so)."""

    error: str


class ToolRefusal(Answer):
    """A refusal of the score pad's or the helper's: the words, and the field (and round)
    of the form at fault, so that the page marks the box to correct."""

    error: str
    field: str | None = None
    round: int | None = None


class GameMade(Answer):
    """The new game: its id, its page, and a room's invite link (a room only)."""

    game: str
    url: str
    invite: str | None = None


class PairingAnswer(Answer):
    """What "Play someone now" came to: the game and its page; ``waiting`` true while it
    is the player's own seek, waiting for an opponent (ask again with its id)."""

    game: str
    url: str
    waiting: bool


class Withdrawn(Answer):
    """A challenge declined or withdrawn: false when it no longer waited."""

    game: str
    withdrawn: bool


class Listed(Answer):
    """A game in the lobby's lists: ``rated``; for a waiting room, its creator's
    ``rating`` in the pool (null: new there, or a guest), whether the creator is a
    ``guest``, and a challenge's addressee (``challenge``)."""

    game: str
    rules: str
    title: str
    players: int
    names: list[str]
    status: str
    mode: str
    updated: str | None
    url: str | None
    join: str | None
    record: str | None
    winner: int | None
    #: A finished game of the browser's (or the account's): its seat's result, won, lost
    #: or drawn, and the names of its opponents; null for anyone else's game.
    result: str | None = None
    opponents: list[str] | None = None
    rated: bool
    rating: int | None
    guest: bool
    challenge: str | None
    #: A live game its players allowed to be watched: its spectator page (docs/server.md,
    #: "Spectators"); null for any other.
    watch: str | None = None
    #: A timed game's control in words, and, in progress with the caller's clock
    #: running, "your turn: 2 days 3 h left" (docs/server.md, "Clocks"); else null.
    clock: str | None = None
    turn: str | None = None


class Lists(Answer):
    """The lobby's lists: the open rooms, the recent games, the challenges sent to the
    account signed in, and the live games anyone may watch."""

    open: list[Listed]
    recent: list[Listed]
    challenges: list[Listed]
    live: list[Listed] = []


class ReplayStep(Answer):
    """A step of a replay: a move (its text and words), or a new round's deal."""

    kind: Literal["move", "deal"]
    round: int
    deal: int
    seat: int
    text: str | None
    words: str


class RoundScore(Answer):
    """A round's count: its items (as the score pad shows them) and its scores."""

    round: int
    items: list[dict[str, Any]]
    scores: list[int]


class TableSettings(Answer):
    """A table's settings, and in words."""

    hints: bool
    takebacks: bool
    words: str


class ReplayNote(Answer):
    """A note of the record (a hint asked, a move taken back...) where it happened."""

    kind: str
    seat: int
    round: int
    position: int
    words: str


class Replay(Answer):
    """A finished game move by move: ``positions[i + 1]`` follows ``moves[i]`` (the
    positions are the engine's JSON), each round's count, the result and the notes."""

    starts: dict[str, int]
    review_seat: int
    game: str
    rules: dict[str, Any]
    names: list[str]
    players: list[str]
    moves: list[ReplayStep]
    positions: list[dict[str, Any]]
    rounds: list[RoundScore]
    result: dict[str, Any] | None
    winner: int | None
    download: str
    settings: TableSettings | None
    notes: list[ReplayNote]


class Review(Answer):
    """Where a review is: ``done`` (with the review), ``computing`` (how far), or
    ``none`` yet."""

    status: Literal["done", "computing", "none"]
    seat: int
    review: dict[str, Any] | None = None
    seconds: int | None = None
    deadline: float | None = None
    done: int | None = None
    total: int | None = None


class PadChoice(Answer):
    """A preset as a new pad offers it."""

    name: str
    title: str
    players: list[int]
    partnerships: list[int]
    target: int
    win_rule: str


class PadChoices(Answer):
    """The choices of a new pad."""

    choices: list[PadChoice]


class PadAnswer(Answer):
    """A pad (its JSON) and its view for the page."""

    pad: dict[str, Any]
    view: dict[str, Any]


class PadStored(Answer):
    """A pad kept on the server: its id, its secret, and its link."""

    id: str
    secret: str
    url: str


class PadSaved(Answer):
    """A stored pad replaced."""

    id: str
    saved: bool


class PadLoaded(PadAnswer):
    """A stored pad, with its id."""

    id: str


class HelperPlay(Answer):
    """A play the helper shows: its text, kind, card, words, whether it is the bot's
    pick, and its judged value and reason (null unjudged)."""

    move: str
    kind: str
    card: str
    words: str
    best: bool
    value: float | None
    reason: str | None


class HelperAnswer(Answer):
    """The helper's answer: the position, the plays shown (best first), the bot's pick,
    and what was left out."""

    position: dict[str, Any]
    moves: list[HelperPlay]
    best: str | None
    level: str | None
    more: int
    complete: bool
    total: int | None
    card: str | None
    using: list[int]
    judged: bool


#: Each JSON route: the model of its request body (None: it takes none) and of its
#: answer; a refusal is :class:`Refusal` (:class:`ToolRefusal` for the tools).
ROUTES: dict[str, tuple[type[Body] | None, type[Answer]]] = {
    "POST /api/games": (NewGame, GameMade),
    "GET /api/games": (None, Lists),
    "POST /api/pairing": (PairingRequest, PairingAnswer),
    "POST /api/challenge": (ChallengeRequest, GameMade),
    "POST /api/challenges/{game_id}/decline": (None, Withdrawn),
    "POST /api/daily/{rules}": (DailyStart, GameMade),
    "POST /api/daily/{day}/{rules}/practice": (None, GameMade),
    "GET /api/records/{game_id}": (None, Replay),
    "POST /api/games/{game_id}/review": (None, Review),
    "GET /api/games/{game_id}/review": (None, Review),
    "GET /api/scorepad/setup": (None, PadChoices),
    "POST /api/scorepad/new": (NewPad, PadAnswer),
    "POST /api/scorepad/view": (PadBody, PadAnswer),
    "POST /api/scorepad/apply": (PadChange, PadAnswer),
    "POST /api/scorepads": (PadBody, PadStored),
    "PUT /api/scorepads/{pad_id}": (PadBody, PadSaved),
    "GET /api/scorepads/{pad_id}": (None, PadLoaded),
    "POST /api/helper": (HelperRequest, HelperAnswer),
}
#: The routes that refuse as :class:`ToolRefusal` (the others as :class:`Refusal`).
TOOL_ROUTES = frozenset(r for r in ROUTES if "/scorepad" in r or "/helper" in r)

B = TypeVar("B", bound=Body)


class BodyError(ValueError):
    """A request body that is not of its model: the words name the field (``field``)."""

    def __init__(self, message: str, field: str | None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


def read(model: type[B], body: dict[str, Any]) -> B:
    """``body`` (a request's JSON object) read once into ``model``; :class:`BodyError`
    naming the field otherwise."""
    try:
        return model.model_validate(body)
    except ValidationError as e:
        loc = e.errors(include_url=False)[0]["loc"]
        raise BodyError(explain(e, model), str(loc[0]) if loc else None) from None


def check_answer(route: str, status: int, answer: Any) -> Answer:
    """``answer``, the JSON a route gave with ``status``, read into its model (the
    route's, or the refusal's for a status of 400 or more); ValidationError otherwise
    (the tests check the answers so)."""
    if status >= 400:
        refusal = ToolRefusal if route in TOOL_ROUTES else Refusal
        return refusal.model_validate(answer)
    return ROUTES[route][1].model_validate(answer)


def api_schema() -> dict[str, Any]:
    """The JSON Schema of the API's bodies (docs/api.schema.json): every model in
    ``$defs``, and ``routes``, each route's request and answer."""
    models: list[type[BaseModel]] = [Refusal, ToolRefusal]
    for request, answer in ROUTES.values():
        models += [m for m in (request, answer) if m is not None and m not in models]
    _, defs = models_json_schema([(m, "validation") for m in models],
                                 ref_template="#/$defs/{model}")
    routes = {route: {"request": {"$ref": f"#/$defs/{request.__name__}"} if request else None,
                      "answer": {"$ref": f"#/$defs/{answer.__name__}"},
                      "refusal": {"$ref": "#/$defs/" + ("ToolRefusal" if route in TOOL_ROUTES
                                                       else "Refusal")}}
              for route, (request, answer) in ROUTES.items()}
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "The bodies of the web game's JSON API (/api/)",
            "description": "Each route's request body (null: none) and answer, in routes; "
                           "the models in $defs. Requests refuse any other field.",
            "routes": routes, **defs}
