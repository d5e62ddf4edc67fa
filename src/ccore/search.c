/* Exact alpha-beta over whole positions to the round's end: casino.bots.solver.Searcher.
 *
 * Once every card's place is known (a two-player last deal, or a sampled deal), the rest
 * of the round is a game of perfect information; this searches it exactly, as the Python
 * searcher does with ``horizon="round"``: max nodes for the root seat's side, min nodes
 * for the others (the paranoid reduction with more than two sides), fail-soft, with a
 * transposition table keyed by the whole position and the move found best tried first.
 * Values are the round's points margin for the root seat's side (evaluation.value), or
 * that plus or minus WIN_VALUE when the round ends the game (solver.game_value).
 */
#define _POSIX_C_SOURCE 199309L
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core.h"

#define WIN_VALUE 1000.0

double monotonic_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---------------------------------------------------------------- moves of a state */

typedef struct {
    const CoreRules *r;
    const State *s;
    const int *loose;  /* the state's loose cards as the generator reads them */
    SMove *moves;
    int n, cap;
    int overflow;
} Collect;

static int collect(void *vctx, const Found *f) {
    Collect *c = (Collect *)vctx;
    if (c->n == c->cap) {
        if (c->cap >= MAX_MOVES_AT_NODE) {
            c->overflow = 1;
            return -1;
        }
        int cap = c->cap ? c->cap * 2 : 32;
        SMove *m = (SMove *)realloc(c->moves, (size_t)cap * sizeof(SMove));
        if (m == NULL) {
            c->overflow = 1;
            return -1;
        }
        c->moves = m;
        c->cap = cap;
    }
    SMove *m = &c->moves[c->n++];
    m->kind = (int8_t)f->kind;
    m->card = (int8_t)f->card;
    m->value = (int8_t)f->value;
    m->nbuilds = (int8_t)f->nbuilds;
    m->ngroups = (int8_t)f->ngroups;
    for (int i = 0; i < f->nbuilds && i < 4; i++) m->builds[i] = (int8_t)f->builds[i];
    m->loose = f->loose;
    /* solver.order_key, summed in the same order as Python sums it */
    const double *w = c->r->weight;
    if (f->kind == 1) {
        double loose = 0.0;
        int cards[MAX_LOOSE];
        int n = mask_cards(c->loose, f->loose, cards);
        for (int i = 0; i < n; i++) loose += w[cards[i]];
        double taken = w[f->card] + loose;
        for (int b = 0; b < f->nbuilds; b++) {
            const SBuild *bd = &c->s->builds[f->builds[b]];
            double sum = 0.0;
            for (int i = 0; i < bd->ncards; i++) sum += w[bd->cards[i]];
            taken += sum;
        }
        m->order = 1000.0 + taken;
    } else if (f->kind == 0) {
        m->order = -w[f->card];
    } else {
        m->order = 500.0 - w[f->card];
    }
    return 0;
}

int state_moves(const CoreRules *r, const State *s, SMove **out, long long *steps) {
    int hand[MAX_HAND], loose[MAX_LOOSE];
    CoreBuild builds[MAX_BUILDS];
    int seat = s->to_move;
    for (int i = 0; i < s->nhand[seat]; i++) hand[i] = s->hand[seat][i];
    for (int i = 0; i < s->nloose; i++) loose[i] = s->loose[i];
    for (int j = 0; j < s->nbuilds; j++) {
        const SBuild *b = &s->builds[j];
        CoreBuild *cb = &builds[j];
        cb->value = b->value;
        cb->owner = b->owner;
        cb->multiple = b->multiple;
        cb->ncards = b->ncards;
        for (int i = 0; i < b->ncards; i++) cb->cards[i] = b->cards[i];
        cb->ident = j;
        for (int k = 0; k < j; k++) {
            const SBuild *e = &s->builds[k];
            if (e->value == b->value && e->owner == b->owner && e->ncards == b->ncards &&
                !memcmp(e->cards, b->cards, (size_t)b->ncards)) {
                cb->ident = k;
                break;
            }
        }
    }
    Collect c = {r, s, loose, NULL, 0, 0, 0};
    Gen g;
    memset(&g, 0, sizeof(g));
    g.rules = r;
    g.hand = hand;
    g.nhand = s->nhand[seat];
    g.loose = loose;
    g.nloose = s->nloose;
    g.builds = builds;
    g.nbuilds = s->nbuilds;
    g.seat = seat;
    g.left = NODE_STEPS;
    g.emit = collect;
    g.emit_ctx = &c;
    int code = core_generate(&g);
    if (steps != NULL) *steps = NODE_STEPS - g.left;
    if (code != GEN_OK || c.overflow) {
        free(c.moves);
        *out = NULL;
        return -1;
    }
    *out = c.moves;
    return c.n;
}

/* sorted(moves, key=order_key, reverse=True): stable, highest first. */
void order_moves(SMove *moves, int n) {
    for (int i = 1; i < n; i++) {
        SMove key = moves[i];
        int j = i - 1;
        while (j >= 0 && moves[j].order < key.order) {
            moves[j + 1] = moves[j];
            j--;
        }
        moves[j + 1] = key;
    }
}

/* ---------------------------------------------------------------- hashing */

static uint64_t fmix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

static inline uint64_t z(int part, int a, int b) {
    return fmix(((uint64_t)part << 40) | ((uint64_t)a << 20) | (uint64_t)b);
}

/* The whole position, the root side and the terminal valuation, as one 64-bit key:
 * multisets hashed by adding each element's hash, sequences by position. */
static uint64_t state_key(const Search *S, const State *s) {
    uint64_t h = fmix((uint64_t)(S->seat * 16 + S->terminal * 4 + S->horizon * 2 + 1 +
                                 ((uint64_t)S->max_moves << 8)) *
                          0x9E3779B97F4A7C15ULL +
                      fmix(S->rules->salt));
    h += fmix(((uint64_t)s->to_move << 40) ^ ((uint64_t)(s->dealer + 1) << 32) ^
              ((uint64_t)(s->last_capture + 2) << 24) ^ ((uint64_t)s->deal << 8) ^
              (uint64_t)s->round);
    for (int t = 0; t < MAX_SEATS; t++) {
        for (int i = 0; i < s->nhand[t]; i++) h += z(1, t, s->hand[t][i]);
        h += fmix((uint64_t)(int64_t)s->scores[t] * 31 + (uint64_t)t + 0x5151);
    }
    h += fmix(s->pile_hash + 0x2545F4914F6CDD1DULL);
    for (int i = 0; i < s->nloose; i++) h += fmix(z(3, 0, s->loose[i]) + 0x33);
    for (int j = 0; j < s->nbuilds; j++) {
        const SBuild *b = &s->builds[j];
        uint64_t bh = (uint64_t)b->value * 0x1000193 + (uint64_t)b->owner * 0x100 + 0x77;
        for (int i = 0; i < b->ncards; i++) bh = fmix(bh ^ ((uint64_t)b->cards[i] + 1));
        h += fmix(bh);
    }
    uint64_t seq = 0x1234;
    for (int i = 0; i < s->nsweeps; i++) seq = fmix(seq ^ ((uint64_t)s->sweeps[i] + 1));
    for (int i = 0; i < s->nmulles; i++) seq = fmix(seq ^ ((uint64_t)s->mulles[i] + 7) * 13);
    for (int i = 0; i < s->nstock; i++) seq = fmix(seq ^ ((uint64_t)s->stock[i] + 101) * 29);
    h += fmix(seq + s->nsweeps * 3 + s->nmulles * 5 + s->nstock * 7);
    for (int i = 0; i < s->nset_aside; i++) h += fmix(z(4, 0, s->set_aside[i]) + 0x99);
    h += fmix(((uint64_t)(int64_t)s->carry_cards << 20) ^ (uint64_t)(int64_t)s->carry_spades);
    return h;
}

/* ---------------------------------------------------------------- the table */

typedef struct {
    uint64_t key;
    double value;
    int32_t best;   /* index of the best move in the static order, -1: none */
    int32_t depth;  /* plies searched (EXACT_DEPTH: to the horizon) */
    int8_t flag;    /* 0 exact, 1 lower bound, 2 upper bound */
    uint8_t used;   /* the table's generation that wrote it (0: never written) */
} Entry;

#define TT_BITS 20
static Entry *table = NULL;
/* Entries of other generations count as empty: a search that must not depend on the
 * searches before it (its node count decides where a node budget stops it) starts a new
 * generation instead of clearing 24 MB. */
static uint8_t generation = 1;

static int tt_ready(void) {
    if (table == NULL) table = (Entry *)calloc((size_t)1 << TT_BITS, sizeof(Entry));
    return table != NULL;
}

void search_forget(void) {
    if (++generation == 0) {  /* wrapped: the old generations' marks are cleared for real */
        if (table != NULL) memset(table, 0, ((size_t)1 << TT_BITS) * sizeof(Entry));
        generation = 1;
    }
}

/* ---------------------------------------------------------------- the search */

static double terminal_value(const Search *S, const State *s) {
    const CoreRules *r = S->rules;
    int side = team_of(r, S->seat), teams = nteams(r);
    double mine = s->points[side], best_other = -1e300;
    int others = 0;
    for (int t = 0; t < teams; t++) {
        if (t == side) continue;
        others = 1;
        if (s->points[t] > best_other) best_other = s->points[t];
    }
    double margin = mine - (others ? best_other : 0.0);
    if (r->penalty) margin = -margin;
    if (S->terminal == TERMINAL_GAME && s->winner >= 0)
        margin += (team_of(r, s->winner) == side ? WIN_VALUE : -WIN_VALUE);
    return margin;
}

static void tick(Search *S) {
    S->nodes++;
    if (S->max_nodes >= 0 && S->nodes > S->max_nodes) longjmp(S->stop, SEARCH_OUT_OF_TIME);
    if (S->deadline > 0 && (S->nodes & 255) == 0 && monotonic_seconds() > S->deadline)
        longjmp(S->stop, SEARCH_OUT_OF_TIME);
}

/* A position past the deal's end, evaluated (and kept in the table under its own key,
 * apart from the same position searched as a later search's own deal). */
static double leaf_value(Search *S, const State *s) {
    uint64_t key = state_key(S, s) ^ 0x5bd1e9955bd1e995ULL;
    Entry *e = &table[key & (((uint64_t)1 << TT_BITS) - 1)];
    if (e->used == generation && e->key == key) return e->value;
    if (S->deadline > 0 && monotonic_seconds() > S->deadline) longjmp(S->stop, SEARCH_OUT_OF_TIME);
    double v = evaluate(S->rules, s, S->seat, 1);
    e->key = key;
    e->value = v;
    e->best = -1;
    e->depth = EXACT_DEPTH;
    e->flag = 0;
    e->used = generation;
    return v;
}

/* solver.plies_left: every card in a hand (and, for the round, in the stock) is played
 * exactly once. */
static int plies_left(const Search *S, const State *s) {
    int n = 0;
    for (int t = 0; t < MAX_SEATS; t++) n += s->nhand[t];
    return S->horizon == HORIZON_ROUND ? n + s->nstock : n;
}

double search_value(Search *S, const State *s, double alpha, double beta, int depth) {
    if (s->over) return terminal_value(S, s);
    if (S->horizon == HORIZON_DEAL && s->deal != S->root_deal) return leaf_value(S, s);
    if (depth >= plies_left(S, s))
        depth = EXACT_DEPTH;
    else if (depth <= 0)
        return S->horizon == HORIZON_DEAL ? leaf_value(S, s) : evaluate(S->rules, s, S->seat, 1);
    tick(S);
    const CoreRules *r = S->rules;
    uint64_t key = state_key(S, s);
    Entry *e = &table[key & (((uint64_t)1 << TT_BITS) - 1)];
    int first = -1;
    if (e->used == generation && e->key == key) {
        if (e->depth >= depth) {
            if (e->flag == 0) return e->value;
            if (e->flag == 1 && e->value >= beta) return e->value;
            if (e->flag == 2 && e->value <= alpha) return e->value;
        }
        first = e->best;
    }
    SMove *found;
    long long steps;
    int n = state_moves(r, s, &found, &steps);
    if (n < 0) longjmp(S->stop, SEARCH_TOO_BIG);
    /* A crowded table's listing is work as a node is: it counts against the budget. */
    S->nodes += steps / STEPS_PER_NODE;
    order_moves(found, n);
    /* The node's moves live on the search's own stack of moves, so that a stop (a
     * longjmp from below) leaves nothing to free but that stack, which the caller owns. */
    size_t base = S->top;
    if (base + (size_t)n > S->cap) {
        size_t cap = (base + (size_t)n) * 2 + 64;
        SMove *grown = (SMove *)realloc(S->stack, cap * sizeof(SMove));
        if (grown == NULL) {
            free(found);
            longjmp(S->stop, SEARCH_NO_MEMORY);
        }
        S->stack = grown;
        S->cap = cap;
    }
    if (n) memcpy(S->stack + base, found, (size_t)n * sizeof(SMove));
    free(found);
    S->top = base + (size_t)n;
    double a0 = alpha, b0 = beta;
    int maxing = team_of(r, s->to_move) == team_of(r, S->seat);
    double best = maxing ? -1e300 : 1e300;
    int best_index = -1;
    State child;
    int tried = 0;
    for (int k = -1; k < n; k++) {
        /* the table's best move first, then the rest in order (at most max_moves, as
         * solver.ordered_moves cuts the list) */
        int i = k < 0 ? first : k;
        if (i < 0 || i >= n || (k >= 0 && i == first)) continue;
        if (S->max_moves && tried++ >= S->max_moves) break;
        child = *s;
        state_apply(r, &child, &S->stack[base + (size_t)i]);
        double v = search_value(S, &child, alpha, beta, depth - 1);
        if (maxing ? v > best : v < best) {
            best = v;
            best_index = i;
            if (maxing && v > alpha) alpha = v;
            if (!maxing && v < beta) beta = v;
            if (alpha >= beta) break;
        }
    }
    S->top = base;
    e->key = key;
    e->value = best;
    e->best = best_index;
    e->depth = depth;
    e->flag = (int8_t)(best <= a0 ? 2 : best >= b0 ? 1 : 0);
    e->used = generation;
    return best;
}

int search_ready(void) { return tt_ready(); }
