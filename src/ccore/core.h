/* The compiled core's shared declarations (docs/core.md).
 *
 * Cards are the engine's ids (rank * 4 + suit, 0..51); a selection of loose table
 * cards is a 64-bit mask over their places on the table, so a table of more than 64
 * loose cards is left to the Python engine.
 */
#ifndef CASINO_CORE_H
#define CASINO_CORE_H

#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>

/* Raised whenever the Python side and the C side must change together: the adapter
 * (casino/engine/core.py) refuses a module of another ABI and plays in Python. */
#define CORE_ABI 1

#define NCARDS 52
#define MAX_VALUES 16  /* values a card may have when played, and pairing keys */
#define MAX_LOOSE 64   /* loose cards a mask holds */
#define MAX_BUILDS 24  /* builds on one table the core takes (far beyond play) */
#define MAX_HAND 64
#define MAX_BUILD_CARDS 32  /* cards in one build */
#define MAX_SEATS 4
#define MAX_STOCK 104
#define MAX_SEQ 64          /* sweeps or mulles in one round */
#define MAX_ITEMS 32        /* scoring items of a scheme (Tablić has 22) */

typedef uint64_t mask_t;

/* One ruleset's numbers, as casino.engine.rules.CardTable and Rules give them. */
typedef struct {
    int nplayed[NCARDS];
    int played[NCARDS][MAX_VALUES];
    int sum_value[NCARDS];
    int sum_alt[NCARDS];
    int npair[NCARDS];
    int pair_keys[NCARDS][MAX_VALUES];
    int pair_table[NCARDS];  /* -1: pairs with nothing */
    uint32_t holds[NCARDS];
    int face_one[NCARDS];
    int kind[NCARDS];  /* the first card that plays and pairs exactly as this one */
    int max_value, max_build, maxv;
    int alt_delta;    /* ace_sum_alt - ace_sum, or 0 */
    int ace_alt;      /* ace_sum_alt is set */
    int building, raise_own, compulsory, cardinality, forced_sweep;
    /* play and scoring (make_rules' ``play`` and ``scheme``); play_ready: they were given */
    int play_ready;
    int players, partnerships, direction, deal_size, set_aside_pictures, double_sweep,
        mulle_points, no_sweep_last_deal, sweep_limit /* -1: none */, last_card_sweep,
        leftovers_dealer, win_rule /* 0 counting-order, 1 higher-total, 2 lower-after */,
        target, games_per_match, penalty;
    int nitems;
    int item[MAX_ITEMS][5];     /* code and four numbers: see SCHEME_* */
    uint64_t besides[MAX_ITEMS];
    double weight[NCARDS];      /* move ordering: a card's rough worth */
    uint64_t salt;              /* this ruleset's own, in the search's keys */
    /* The bots' evaluation (casino.bots.evaluation.estimate and deal_start_estimate,
     * two players, every hand known), set by set_evaluation; 0: not set. */
    int eval_ready;
    double direct[NCARDS];      /* evaluation.direct_points */
    int cards_points;           /* the most-cards item's points, -1: none */
    int spades_points;          /* the most-spades majority's, -1: none (evaluation.majorities) */
    int spades_carries;
    int deck_size, decks, sweep_points, casino_scoring;
    double build_keep_safe, build_keep_threatened, tempo, clump_cards, clump_spades;
    double deal_start[3], deal_start_last[3];
} CoreRules;

/* The scheme's items (casino.engine.scheme), in counting order. */
enum {
    SCHEME_MAJORITY = 1,    /* what (0 cards, 1 spades), points, ties (0 lost, 1 carry,
                               2 split-or-carry), carries */
    SCHEME_CARD = 2,        /* card, points */
    SCHEME_EACH_SPADE = 3,  /* points, by_seat; besides[] the spades left out */
    SCHEME_SPADES_ABOVE = 4,/* count */
    SCHEME_SWEEPS = 5,      /* points, cancel, previous_loses */
    SCHEME_MULLES = 6,      /* points */
    SCHEME_LAST = 7,        /* points */
};

/* A build as the generator sees it; ident is the first build equal to it (value,
 * owner and cards), so that moves on equal builds are one move, as in Python. */
typedef struct {
    int value, owner, multiple, ncards, ident;
    int cards[MAX_BUILD_CARDS];
} CoreBuild;

/* ---- an arena: everything one call allocates, freed at once ---- */
typedef struct Chunk {
    struct Chunk *next;
    size_t used, size;
    /* data follows */
} Chunk;

typedef struct {
    Chunk *head;
} Arena;

void *arena_alloc(Arena *a, size_t size);
void arena_free(Arena *a);

/* Why a generation stopped early. */
enum { GEN_OK = 0, GEN_OVER_BUDGET = 1, GEN_NO_MEMORY = 2, GEN_PY_ERROR = 3 };

struct GenOut;

/* One move found, before it becomes a Python object: emitted in the engine's order. */
typedef struct {
    int kind;          /* 0 trail, 1 capture, 2 build, 3 add, 4 raise */
    int card;
    int value;
    mask_t loose;      /* loose places taken or used */
    int nbuilds;
    int builds[MAX_BUILDS];  /* indices into the table's builds, in the move's order */
    /* the groups to show, as loose masks; the played card leads group 0 when lead */
    int ngroups;
    mask_t *groups;
    int lead;          /* 1: the played card heads the first group (build, add, raise) */
} Found;

/* Called for each move in order; returns 0, or nonzero to stop with GEN_PY_ERROR. */
typedef int (*EmitFn)(void *ctx, const Found *f);

typedef struct {
    const CoreRules *rules;
    const int *hand; int nhand;
    const int *loose; int nloose;
    const CoreBuild *builds; int nbuilds;
    int seat;
    long long left;    /* steps left; < 0 at the start: no budget */
    int budgeted;
    Arena arena;
    jmp_buf fail;
    EmitFn emit; void *emit_ctx;
} Gen;

/* ---- a whole position (casino.engine.position.Position, every card known) ---- */

typedef struct {
    int8_t value, owner, multiple, ncards;
    uint8_t cards[MAX_BUILD_CARDS];  /* sorted */
} SBuild;

typedef struct {
    int8_t to_move, dealer, last_capture /* -1: none */, over, winner /* -1: none */;
    int16_t deal, round;
    uint8_t nhand[MAX_SEATS];
    uint8_t hand[MAX_SEATS][MAX_HAND];  /* sorted */
    uint8_t nloose;
    uint8_t loose[MAX_LOOSE];           /* in table order */
    uint8_t nbuilds;
    SBuild builds[MAX_BUILDS];          /* in table order */
    uint8_t pile[MAX_SEATS][NCARDS];    /* copies of each card in each seat's pile */
    int16_t npile[MAX_SEATS];
    uint64_t pile_hash;                 /* pile_card_hash summed over every pile's cards */
    uint8_t nsweeps, sweeps[MAX_SEQ];
    uint8_t nmulles, mulles[MAX_SEQ];
    uint8_t nstock, stock[MAX_STOCK];   /* top first */
    uint8_t nset_aside, set_aside[MAX_STOCK];
    int32_t scores[MAX_SEATS];
    int32_t carry_cards, carry_spades;
    int32_t points[MAX_SEATS];          /* the finished round's items, by side */
} State;

/* A move the search plays: what apply needs of casino.engine.moves.Move. */
typedef struct {
    int8_t kind, card, value, nbuilds, ngroups;
    int8_t builds[4];                   /* indices into the state's builds */
    mask_t loose;                       /* places in the state's loose cards */
    double order;                       /* the static ordering key (solver.order_key) */
} SMove;

/* state.c */
/* A card in a seat's pile, as the search's keys count it (added up, so that a pile is a
 * multiset), kept in State.pile_hash as cards reach the piles. */
uint64_t pile_card_hash(int seat, int card);
void state_apply(const CoreRules *r, State *s, const SMove *m);
void state_score(const CoreRules *r, State *s);
/* The round's items so far (or at its end), by side: the scorer's totals. */
void state_items(const CoreRules *r, const State *s, int32_t *points, int *winner,
                 int32_t *scores);
void state_banked(const CoreRules *r, const State *s, double *good);
int team_of(const CoreRules *r, int seat);
int nteams(const CoreRules *r);

/* eval.c: the value of a whole position for ``seat``'s side, as
 * evaluation.deal_start_estimate (deal_start) or evaluation.estimate computes it. */
double evaluate(const CoreRules *r, const State *s, int seat, int deal_start);

/* search.c */
#define MAX_MOVES_AT_NODE 100000    /* beyond: the search leaves the position to Python */
#define NODE_STEPS 200000           /* movegen steps at one node, likewise */
#define STEPS_PER_NODE 10           /* movegen steps a node of the node budget stands for */

enum { SEARCH_DONE = 0, SEARCH_OUT_OF_TIME = 1, SEARCH_TOO_BIG = 2, SEARCH_NO_MEMORY = 3 };
enum { TERMINAL_ROUND = 0, TERMINAL_GAME = 1 };

enum { HORIZON_ROUND = 0, HORIZON_DEAL = 1 };

typedef struct {
    const CoreRules *rules;
    int seat, terminal;
    int horizon, root_deal;           /* HORIZON_DEAL: the deal's end is evaluated */
    int max_moves;                    /* moves searched at most at an inner node, 0: all */
    long long nodes, max_nodes;       /* max_nodes < 0: none */
    double deadline;                  /* monotonic seconds; <= 0: none */
    int status;
    jmp_buf stop;
    SMove *stack;                     /* the moves of the nodes on the path (malloc'ed) */
    size_t top, cap;
} Search;

/* The moves of the player to move in ``s``, in the engine's order: *out (malloc'ed,
 * the caller frees it) and their number, or -1 (too big: steps or masks); *steps (when
 * not NULL): the generator's steps spent. */
int state_moves(const CoreRules *r, const State *s, SMove **out, long long *steps);
/* Sort moves by the static order (stable, highest first). */
void order_moves(SMove *moves, int n);
/* The value of ``s`` for the root seat's side, searched to the round's end. */
#define EXACT_DEPTH (1 << 20)
/* The value of ``s`` for the root seat's side, searched ``depth`` plies (EXACT_DEPTH: to
 * the horizon), the evaluation standing in where the depth runs out. */
double search_value(Search *S, const State *s, double alpha, double beta, int depth);
double monotonic_seconds(void);
/* Make the transposition table (once); 0 when there is no memory for it. */
int search_ready(void);
/* Forget what earlier searches stored: the next search depends on its inputs alone. */
void search_forget(void);

/* Every legal move, in the order of casino.engine.movegen.generate, each once (the
 * emitter is called only for a move not emitted before). Returns a GEN_ code. */
int core_generate(Gen *g);
/* Of the captures of value ``v`` by ``card`` (pairs and groups of v among the loose cards,
 * disjoint; a value-less face card: pairs, one at a time where it takes one), the one
 * with the highest total ``score`` (one a loose card, by place), in *out (0: none
 * scores above nothing). A GEN_ code; the budget (g->left) spent as the generator's. */
int core_best_capture(Gen *g, int card, int v, const int *score, mask_t *out);
/* The cards at the places of ``m`` among ``loose``, sorted (a move's identity): their
 * number, written to ``out``. */
int mask_cards(const int *loose, mask_t m, int *out);

#endif
