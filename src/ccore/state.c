/* A whole position in the core: playing a move, the next deal, the round's end and its
 * scoring, as casino.engine.position.Position and casino.engine.scoring do them.
 *
 * Each function names the Python function it follows; tests/test_core.py holds the
 * successors and the round's scores equal to the engine's on random rounds of every
 * preset and player count.
 */
#include <string.h>

#include "core.h"

int team_of(const CoreRules *r, int seat) { return r->partnerships ? seat % 2 : seat; }

int nteams(const CoreRules *r) { return r->partnerships ? 2 : r->players; }

static int next_seat(const CoreRules *r, int seat) {
    return ((seat + r->direction) % r->players + r->players) % r->players;
}

/* next_with_cards: the first seat after ``seat`` in playing order (itself last) with
 * cards, or -1. */
static int next_with_cards(const CoreRules *r, const State *s, int seat) {
    int first = next_seat(r, seat);
    for (int k = 0; k < r->players; k++) {
        int t = ((first + k * r->direction) % r->players + r->players) % r->players;
        if (s->nhand[t]) return t;
    }
    return -1;
}

static void sort_bytes(uint8_t *a, int n) {
    for (int i = 1; i < n; i++) {
        uint8_t key = a[i];
        int j = i - 1;
        while (j >= 0 && a[j] > key) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = key;
    }
}

uint64_t pile_card_hash(int seat, int card) {
    uint64_t x = ((uint64_t)(seat + 1) << 32) ^ ((uint64_t)card * 0x9E3779B97F4A7C15ULL);
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    return x ^ (x >> 33);
}

static void to_pile(State *s, int seat, int card) {
    s->pile[seat][card]++;
    s->npile[seat]++;
    s->pile_hash += pile_card_hash(seat, card);
}

/* sweep_counts: whether clearing the table now is a sweep (before the move: the stock
 * and the scores as they are; ends_round: the move is the round's last). */
static int sweep_counts(const CoreRules *r, const State *s, int ends_round) {
    if (r->no_sweep_last_deal && s->nstock == 0) return 0;
    if (r->sweep_limit >= 0)
        for (int t = 0; t < r->players; t++)
            if (s->scores[t] > r->sweep_limit) return 0;
    return !(ends_round && !r->last_card_sweep);
}

/* deal_packets: packets of two from the top, from the seat after the dealer round. */
static void deal_packets(const CoreRules *r, State *s) {
    int order[MAX_SEATS];
    int first = next_seat(r, s->dealer);
    for (int k = 0; k < r->players; k++)
        order[k] = ((first + k * r->direction) % r->players + r->players) % r->players;
    int pos = 0, size = r->deal_size;
    for (int t = 0; t < r->players; t++) s->nhand[t] = 0;
    for (;;) {
        int want = 0;
        for (int k = 0; k < r->players; k++)
            if (s->nhand[order[k]] < size) want = 1;
        if (pos >= s->nstock || !want) break;
        for (int k = 0; k < r->players; k++) {
            int t = order[k];
            int need = size - s->nhand[t];
            if (need <= 0 || pos >= s->nstock) continue;
            int n = 2;
            if (need < n) n = need;
            if (s->nstock - pos < n) n = s->nstock - pos;
            for (int i = 0; i < n; i++) s->hand[t][s->nhand[t]++] = s->stock[pos++];
        }
    }
    for (int t = 0; t < r->players; t++) sort_bytes(s->hand[t], s->nhand[t]);
    memmove(s->stock, s->stock + pos, (size_t)(s->nstock - pos));
    s->nstock = (uint8_t)(s->nstock - pos);
}

/* Position._next_deal */
static void next_deal(const CoreRules *r, State *s) {
    if (r->set_aside_pictures) {
        int k = 0;
        for (int i = 0; i < s->nloose; i++) {
            int c = s->loose[i];
            if (c >> 2 >= 10)
                s->set_aside[s->nset_aside++] = (uint8_t)c;
            else
                s->loose[k++] = (uint8_t)c;
        }
        s->nloose = (uint8_t)k;
    }
    deal_packets(r, s);
    int leader = next_with_cards(r, s, s->dealer);
    s->to_move = (int8_t)(leader < 0 ? next_seat(r, s->dealer) : leader);
    s->deal++;
}

/* Position._end_round */
static void end_round(const CoreRules *r, State *s) {
    int taker = s->last_capture;
    if (taker < 0 && r->leftovers_dealer) taker = s->dealer;
    if (taker >= 0) {
        for (int i = 0; i < s->nloose; i++) to_pile(s, taker, s->loose[i]);
        for (int i = 0; i < s->nset_aside; i++) to_pile(s, taker, s->set_aside[i]);
        s->nloose = 0;
        s->nset_aside = 0;
    }
    state_score(r, s);
    s->to_move = (int8_t)next_seat(r, s->to_move);
    s->over = 1;
}

/* Position._apply, for a legal move of the player to move. */
void state_apply(const CoreRules *r, State *s, const SMove *m) {
    int seat = s->to_move;
    int card = m->card;
    /* the played card leaves the hand */
    for (int i = 0; i < s->nhand[seat]; i++) {
        if (s->hand[seat][i] == card) {
            memmove(&s->hand[seat][i], &s->hand[seat][i + 1], (size_t)(s->nhand[seat] - i - 1));
            s->nhand[seat]--;
            break;
        }
    }
    /* What the move takes or uses of the loose cards. put_on_table removes each such
     * card's first copy on the table (``table.remove``), which with two decks need not
     * be the copy at the move's place: the order of the cards left follows the engine. */
    uint8_t used[MAX_LOOSE], drop[NCARDS] = {0};
    int nused = 0, k = 0;
    int lone_twin = r->double_sweep && s->nbuilds == 0 && s->nloose == 1 && s->loose[0] == card;
    for (int i = 0; i < s->nloose; i++) {
        if (m->loose >> i & 1) {
            used[nused++] = s->loose[i];
            drop[s->loose[i]]++;
        }
    }
    for (int i = 0; i < s->nloose; i++) {
        if (drop[s->loose[i]])
            drop[s->loose[i]]--;
        else
            s->loose[k++] = s->loose[i];
    }
    s->nloose = (uint8_t)k;
    if (m->kind == 0) {  /* trail */
        s->loose[s->nloose++] = (uint8_t)card;
    } else if (m->kind == 1) {  /* capture */
        to_pile(s, seat, card);
        for (int i = 0; i < nused; i++) to_pile(s, seat, used[i]);
        int gone[MAX_BUILDS] = {0};
        for (int b = 0; b < m->nbuilds; b++) {
            const SBuild *bd = &s->builds[m->builds[b]];
            for (int i = 0; i < bd->ncards; i++) to_pile(s, seat, bd->cards[i]);
            gone[(int)m->builds[b]] = 1;
        }
        int kb = 0;
        for (int b = 0; b < s->nbuilds; b++)
            if (!gone[b]) s->builds[kb++] = s->builds[b];
        s->nbuilds = (uint8_t)kb;
        s->last_capture = (int8_t)seat;
        if (!s->nloose && !s->nbuilds) {
            int empty = s->nstock == 0;
            for (int t = 0; t < r->players && empty; t++)
                if (s->nhand[t]) empty = 0;
            if (sweep_counts(r, s, empty)) {
                s->sweeps[s->nsweeps++] = (uint8_t)seat;
                if (lone_twin) s->sweeps[s->nsweeps++] = (uint8_t)seat;
            }
        }
        if (r->mulle_points && !m->nbuilds && nused == 1 && used[0] == card)
            s->mulles[s->nmulles++] = (uint8_t)seat;
    } else {
        SBuild nb;
        int into = m->kind == 2 ? s->nbuilds : m->builds[0];
        if (m->kind == 2) {  /* build: a new build, at the table's end */
            nb.ncards = 0;
            nb.multiple = m->ngroups > 1;
            s->nbuilds++;
        } else {  /* add or raise: the build changes in place */
            nb = s->builds[into];
            nb.multiple = m->kind == 3 ? 1 : m->ngroups > 1;
        }
        nb.cards[nb.ncards++] = (uint8_t)card;
        for (int i = 0; i < nused; i++) nb.cards[nb.ncards++] = used[i];
        sort_bytes(nb.cards, nb.ncards);
        nb.value = m->value;
        nb.owner = (int8_t)seat;
        s->builds[into] = nb;
    }
    /* Position._advance */
    int next = next_with_cards(r, s, seat);
    if (next >= 0) {
        s->to_move = (int8_t)next;
    } else if (s->nstock) {
        next_deal(r, s);
    } else {
        end_round(r, s);
    }
}

/* ---------------------------------------------------------------- scoring */

typedef struct {
    int team, points;
} Item;

static int spades_of(const uint8_t *pile, uint64_t besides) {
    int n = 0;
    for (int c = 0; c < NCARDS; c += 4)
        if (!(besides >> c & 1)) n += pile[c];
    return n;
}

/* round_items: the round's items in counting order (only the side and the points);
 * ``banked``: without the majorities and the last capture, what can no longer change
 * (the evaluation's banked points, with last_capture=None). */
static int round_items(const CoreRules *r, const State *s, Item *out, int banked) {
    int n = 0, teams = nteams(r);
    int cards[MAX_SEATS] = {0}, spades[MAX_SEATS] = {0};
    for (int t = 0; t < r->players; t++) {
        cards[team_of(r, t)] += s->npile[t];
        spades[team_of(r, t)] += spades_of(s->pile[t], 0);
    }
    for (int k = 0; k < r->nitems; k++) {
        const int *it = r->item[k];
        switch (it[0]) {
        case SCHEME_MAJORITY: {
            if (banked) break;
            const int *counts = it[1] == 0 ? cards : spades;
            int worth = it[2] + (it[1] == 0 ? s->carry_cards : it[4] ? s->carry_spades : 0);
            int best = -1, leaders = 0, leader = -1, second = -1;
            for (int t = 0; t < teams; t++) {
                if (counts[t] > best) {
                    best = counts[t];
                    leaders = 1;
                    leader = t;
                    second = -1;
                } else if (counts[t] == best) {
                    if (leaders == 1) second = t;
                    leaders++;
                }
            }
            if (leaders == 1) {
                out[n++] = (Item){leader, worth};
            } else if (it[3] == 2 && teams != 4 && leaders <= 2) {
                out[n++] = (Item){leader, worth / 2};
                out[n++] = (Item){second, worth / 2};
            }
            break;
        }
        case SCHEME_CARD:
            for (int t = 0; t < r->players; t++)
                for (int c = 0; c < s->pile[t][it[1]]; c++) out[n++] = (Item){team_of(r, t), it[2]};
            break;
        case SCHEME_EACH_SPADE:
            if (it[2]) {  /* by seat */
                for (int t = 0; t < r->players; t++) {
                    int v = it[1] * spades_of(s->pile[t], r->besides[k]);
                    if (v) out[n++] = (Item){team_of(r, t), v};
                }
            } else {
                int by_team[MAX_SEATS] = {0};
                for (int t = 0; t < r->players; t++)
                    by_team[team_of(r, t)] += it[1] * spades_of(s->pile[t], r->besides[k]);
                for (int t = 0; t < teams; t++)
                    if (by_team[t]) out[n++] = (Item){t, by_team[t]};
            }
            break;
        case SCHEME_SPADES_ABOVE:
            for (int t = 0; t < teams; t++)
                if (spades[t] > it[1]) out[n++] = (Item){t, spades[t] - it[1]};
            break;
        case SCHEME_SWEEPS:
            if (it[3]) {  /* previous loses (Krypkasino) */
                for (int i = 0; i < s->nsweeps; i++) {
                    int seat = s->sweeps[i];
                    out[n++] = (Item){seat, it[1]};
                    int other = ((seat - r->direction) % r->players + r->players) % r->players;
                    out[n++] = (Item){other, -it[1]};
                }
            } else {
                uint8_t standing[MAX_SEQ];
                int ns = 0;
                for (int i = 0; i < s->nsweeps; i++) {
                    int seat = s->sweeps[i];
                    int victim = -1;
                    if (it[2])
                        for (int j = 0; j < ns; j++)
                            if (team_of(r, standing[j]) != team_of(r, seat)) {
                                victim = j;
                                break;
                            }
                    if (victim < 0) {
                        standing[ns++] = (uint8_t)seat;
                    } else {
                        memmove(&standing[victim], &standing[victim + 1], (size_t)(ns - victim - 1));
                        ns--;
                    }
                }
                for (int i = 0; i < ns; i++) out[n++] = (Item){team_of(r, standing[i]), it[1]};
            }
            break;
        case SCHEME_MULLES:
            for (int i = 0; i < s->nmulles; i++) out[n++] = (Item){team_of(r, s->mulles[i]), it[1]};
            break;
        case SCHEME_LAST:
            if (!banked && s->last_capture >= 0) out[n++] = (Item){team_of(r, s->last_capture), it[1]};
            break;
        }
    }
    return n;
}

/* The items' totals by side, and settle's winner and new totals (scores by seat). */
void state_items(const CoreRules *r, const State *s, int32_t *points, int *winner,
                 int32_t *scores) {
    Item items[4 * MAX_SEQ + 8 * NCARDS];
    int n = round_items(r, s, items, 0);
    int teams = nteams(r);
    int32_t totals[MAX_SEATS];
    for (int t = 0; t < teams; t++) {
        points[t] = 0;
        totals[t] = s->scores[t];
    }
    int win = -1;
    for (int i = 0; i < n; i++) {
        points[items[i].team] += items[i].points;
        totals[items[i].team] += items[i].points;
        if (r->win_rule == 0 && win < 0 && totals[items[i].team] >= r->target) win = items[i].team;
    }
    if (r->win_rule == 1) {
        int best = 0, count = 0;
        for (int t = 0; t < teams; t++) {
            if (totals[t] < r->target) continue;
            if (!count || totals[t] > best) {
                best = totals[t];
                win = t;
                count = 1;
            } else if (totals[t] == best) {
                count++;
            }
        }
        if (count != 1) win = -1;
    } else if (r->win_rule == 2 && s->round % r->games_per_match == 0) {
        int low = totals[0], count = 0;
        for (int t = 1; t < teams; t++)
            if (totals[t] < low) low = totals[t];
        for (int t = 0; t < teams; t++)
            if (totals[t] == low) {
                win = t;
                count++;
            }
        if (count != 1) win = -1;
    }
    *winner = win;
    for (int t = 0; t < r->players; t++) scores[t] = totals[team_of(r, t)];
}

/* Position._end_round's result: the round's points by side and the game's winner. The
 * position keeps the totals it started the round with, as the engine's does (the new
 * totals are the result's). */
void state_score(const CoreRules *r, State *s) {
    int winner;
    int32_t scores[MAX_SEATS];
    state_items(r, s, s->points, &winner, scores);
    s->winner = (int8_t)winner;
}

/* The evaluation's banked points by side, in good-for-the-side points (penalties
 * turned): every item that cannot change any more. */
void state_banked(const CoreRules *r, const State *s, double *good) {
    Item items[4 * MAX_SEQ + 8 * NCARDS];
    int n = round_items(r, s, items, 1);
    for (int i = 0; i < n; i++) good[items[i].team] += (r->penalty ? -1.0 : 1.0) * items[i].points;
}
