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
    int max_value, max_build, maxv;
    int alt_delta;    /* ace_sum_alt - ace_sum, or 0 */
    int ace_alt;      /* ace_sum_alt is set */
    int building, raise_own, compulsory, cardinality, forced_sweep;
} CoreRules;

/* A build as the generator sees it; ident is the first build equal to it (value,
 * owner and cards), so that moves on equal builds are one move, as in Python. */
typedef struct {
    int value, owner, multiple, ncards, ident;
    int cards[MAX_LOOSE];
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

/* Every legal move, in the order of casino.engine.movegen.generate, each once (the
 * emitter is called only for a move not emitted before). Returns a GEN_ code. */
int core_generate(Gen *g);

#endif
