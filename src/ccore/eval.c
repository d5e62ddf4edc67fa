/* The bots' horizon evaluation on a whole position of two players: evaluation.estimate
 * and deal_start_estimate, term by term (banked points, builds and who keeps them, the
 * majorities by how decided they are, the tempo of the player to move, and the fitted
 * corrections at a deal's first position), for the core's searches to stand on at the
 * end of a deal. tests/test_core.py holds it equal to the Python evaluation.
 */
#include <math.h>
#include <string.h>

#include "core.h"

/* Tables with more loose cards than this are analysed approximately (Captures). */
#define EXACT_LOOSE 10

static double phi(double x) { return 0.5 * (1.0 + erf(x / sqrt(2.0))); }

/* odds.majority_expectation: each side's expected points of a majority still open. */
static void majority_expectation(const double *counts, int n, int total, double points,
                                 double clump, double *out) {
    double sum = 0.0;
    for (int t = 0; t < n; t++) {
        sum += counts[t];
        out[t] = 0.0;
    }
    double remaining = total - sum;
    if (remaining < 0.0) remaining = 0.0;
    for (int t = 0; t < n; t++) {
        if (counts[t] > total / 2.0) {
            for (int u = 0; u < n; u++) out[u] = 0.0;
            out[t] = points;
            return;
        }
    }
    if (remaining <= 1e-9) {
        double best = counts[0];
        for (int t = 1; t < n; t++)
            if (counts[t] > best) best = counts[t];
        int leaders = 0, leader = -1;
        for (int t = 0; t < n; t++)
            if (counts[t] == best) {
                leaders++;
                leader = t;
            }
        if (leaders == 1) out[leader] = points;
        return;
    }
    double sigma = sqrt(remaining * clump), ps[MAX_SEATS], s = 0.0;
    for (int t = 0; t < n; t++) {
        double other = 0.0;
        int any = 0;
        for (int u = 0; u < n; u++) {
            if (u == t) continue;
            if (!any || counts[u] > other) other = counts[u];
            any = 1;
        }
        ps[t] = phi((counts[t] - other) / sigma);
        s += ps[t];
    }
    double scale = s > 1.0 ? 1.0 / s : 1.0;
    for (int t = 0; t < n; t++) out[t] = points * ps[t] * scale;
}

/* ---------------------------------------------------------------- Captures */

typedef struct {
    const CoreRules *r;
    const State *s;
    const double *w;        /* the card weights */
    int sweep_on;
    int sums_ready;         /* sb, sk: each subset's sum and its Aces with a second value */
    uint8_t sb[1 << EXACT_LOOSE], sk[1 << EXACT_LOOSE];
    int known[NCARDS];      /* by card kind: 0 not analysed, 1 none, 2 analysed */
    double taken[NCARDS];
    int whole[NCARDS];
} Caps;

static double mask_weight(const Caps *k, mask_t m) {
    double w = 0.0;
    for (int i = 0; m; i++, m >>= 1)
        if (m & 1) w += k->w[k->s->loose[i]];
    return w;
}

/* Captures._greedy: pairs and two-card groups of v packed by weight, best first. */
static double greedy(const Caps *k, int v, const mask_t *pairs, int npairs, mask_t *cover) {
    const CoreRules *r = k->r;
    const State *s = k->s;
    mask_t blocks[MAX_LOOSE * MAX_LOOSE];
    double bw[MAX_LOOSE * MAX_LOOSE];
    int n = 0;
    for (int i = 0; i < npairs; i++) blocks[n++] = pairs[i];
    for (int i = 0; i < s->nloose; i++) {
        int si = r->sum_value[s->loose[i]];
        if (!si || si >= v) continue;
        for (int j = i + 1; j < s->nloose; j++)
            if (si + r->sum_value[s->loose[j]] == v && n < MAX_LOOSE * MAX_LOOSE)
                blocks[n++] = ((mask_t)1 << i) | ((mask_t)1 << j);
    }
    for (int i = 0; i < n; i++) bw[i] = mask_weight(k, blocks[i]);
    for (int i = 1; i < n; i++) {  /* sort by weight, highest first, stable */
        mask_t b = blocks[i];
        double x = bw[i];
        int j = i - 1;
        while (j >= 0 && bw[j] < x) {
            blocks[j + 1] = blocks[j];
            bw[j + 1] = bw[j];
            j--;
        }
        blocks[j + 1] = b;
        bw[j + 1] = x;
    }
    mask_t used = 0;
    double w = 0.0;
    for (int i = 0; i < n; i++)
        if (!(blocks[i] & used)) {
            used |= blocks[i];
            w += bw[i];
        }
    *cover = used;
    return w;
}

/* Captures._analyse: (the best weight card c takes from the table, whether it can take
 * the whole table); 0 when it takes nothing. */
static int analyse(Caps *k, int c, double *best_out, int *whole_out) {
    const CoreRules *r = k->r;
    const State *s = k->s;
    int n = s->nloose;
    mask_t full = n == 64 ? ~(mask_t)0 : (((mask_t)1 << n) - 1);
    mask_t pairs[MAX_LOOSE];
    int np = 0;
    for (int i = 0; i < n; i++) {
        int pt = r->pair_table[s->loose[i]];
        for (int q = 0; q < r->npair[c]; q++)
            if (r->pair_keys[c][q] == pt) {
                pairs[np++] = (mask_t)1 << i;
                break;
            }
    }
    if (!r->nplayed[c]) {
        if (!np) return 0;
        if (r->face_one[c]) {
            double best = -1e300;
            for (int i = 0; i < np; i++) {
                double x = k->w[s->loose[__builtin_ctzll(pairs[i])]];
                if (x > best) best = x;
            }
            *best_out = best;
            *whole_out = n == 1 && !s->nbuilds;
            return 1;
        }
        mask_t m = 0;
        for (int i = 0; i < np; i++) m |= pairs[i];
        *best_out = mask_weight(k, m);
        *whole_out = m == full && !s->nbuilds;
        return 1;
    }
    int found = 0, whole = 0;
    double best = 0.0;
    for (int p = 0; p < r->nplayed[c]; p++) {
        int v = r->played[c][p];
        int nvb = 0;
        double build_w = 0.0;
        for (int j = 0; j < s->nbuilds; j++) {
            if (s->builds[j].value != v) continue;
            nvb++;
            for (int i = 0; i < s->builds[j].ncards; i++) build_w += k->w[s->builds[j].cards[i]];
        }
        int all_builds = nvb == s->nbuilds;
        if (n <= EXACT_LOOSE) {
            mask_t blocks[MAX_LOOSE + 1024];
            int nb = 0;
            for (int i = 0; i < np; i++) blocks[nb++] = pairs[i];
            if (v <= r->maxv) {
                /* TableSums.by_sum[v]'s groups: subsets of two or more cards with a sum
                 * value, adding up to v (an Ace's second value counted as Python does) */
                if (!k->sums_ready) {
                    /* every subset's sum, built from the subset without its lowest card */
                    k->sb[0] = 0;
                    k->sk[0] = 0;
                    for (mask_t m = 1; m <= full; m++) {
                        int i = __builtin_ctzll(m);
                        int c2 = s->loose[i], x = r->sum_value[c2];
                        mask_t rest = m & (m - 1);
                        int b = k->sb[rest] + x;
                        k->sb[m] = (uint8_t)(b > 255 ? 255 : b);
                        k->sk[m] = (uint8_t)(k->sk[rest] + (r->sum_alt[c2] ? 1 : 0));
                    }
                    k->sums_ready = 1;
                }
                mask_t valued = 0;
                for (int i = 0; i < n; i++)
                    if (r->sum_value[s->loose[i]]) valued |= (mask_t)1 << i;
                for (mask_t m = valued; m; m = (m - 1) & valued) {
                    if (!(m & (m - 1))) continue;
                    int b = k->sb[m], alts = k->sk[m];
                    if (b > r->maxv) continue;
                    int hit = b == v;
                    for (int j = 1; !hit && r->alt_delta && j <= alts; j++) {
                        int total = b + j * r->alt_delta;
                        if (total > r->maxv) break;
                        if (total == v) hit = 1;
                    }
                    if (hit) blocks[nb++] = m;
                }
            }
            if (!nb && !nvb) continue;
            /* every union of disjoint blocks (closure), 0 included */
            static uint8_t reach[1 << EXACT_LOOSE];
            memset(reach, 0, (size_t)1 << n);
            reach[0] = 1;
            for (mask_t u = 0; u <= full; u++) {
                if (!reach[u]) continue;
                for (int i = 0; i < nb; i++)
                    if (!(blocks[i] & u)) reach[u | blocks[i]] = 1;
                if (!u && !nvb) continue;
                if (r->compulsory) {
                    int skip = 0;
                    for (int i = 0; i < nb; i++)
                        if (!(blocks[i] & u)) {
                            skip = 1;
                            break;
                        }
                    if (skip) continue;
                }
                double w = mask_weight(k, u) + build_w;
                if (!found || w > best) best = w;
                found = 1;
                if (u == full && all_builds) whole = 1;
            }
        } else {
            mask_t cover;
            double w = greedy(k, v, pairs, np, &cover);
            if (!cover && !nvb) continue;
            w += build_w;
            if (!found || w > best) best = w;
            found = 1;
        }
    }
    if (!found) return 0;
    *best_out = best;
    *whole_out = whole;
    return 1;
}

static int info(Caps *k, int c, double *taken, int *whole) {
    int kind = k->r->kind[c];  /* cards that capture alike share one analysis */
    if (!k->known[kind]) {
        k->known[kind] = analyse(k, kind, &k->taken[kind], &k->whole[kind]) ? 2 : 1;
    }
    if (k->known[kind] == 1) return 0;
    *taken = k->taken[kind];
    *whole = k->whole[kind];
    return 1;
}

/* evaluation.sweep_worth */
static double sweep_worth(const CoreRules *r, int twice) {
    if (r->penalty) return -2.0 * r->sweep_points * (twice ? 2 : 1);
    return (double)r->sweep_points;
}

/* Captures.outcome: the best capture with c in margin points for its player. */
static int outcome(Caps *k, int c, double *out) {
    const CoreRules *r = k->r;
    const State *s = k->s;
    double taken;
    int whole;
    if (!info(k, c, &taken, &whole)) return 0;
    double o = taken + k->w[c];
    if (whole && k->sweep_on) {
        int twin = r->double_sweep && !s->nbuilds && s->nloose == 1 && s->loose[0] == c;
        o += sweep_worth(r, twin);
    }
    int on_table = 0;
    for (int i = 0; i < s->nloose; i++)
        if (s->loose[i] == c) on_table = 1;
    if (r->mulle_points && on_table && !r->compulsory) {
        double m = k->w[c] * 2 + r->mulle_points;
        if (m > o) o = m;
    }
    *out = o;
    return 1;
}

/* best_outcome with a known hand. */
static double best_outcome(Caps *k, const uint8_t *hand, int n) {
    const CoreRules *r = k->r;
    int forced = r->forced_sweep && k->s->nloose;
    if (!n) return 0.0;
    double best = -1e300, best_sweep = -1e300;
    int any_sweep = 0;
    for (int i = 0; i < n; i++) {
        int c = hand[i];
        double o;
        int got = outcome(k, c, &o);
        double taken;
        int whole = 0;
        int sweeps = forced && got && info(k, c, &taken, &whole) && whole;
        double v = !got ? 0.0 : (r->compulsory ? o : (o > 0.0 ? o : 0.0));
        if (v > best) best = v;
        if (sweeps) {
            any_sweep = 1;
            if (v > best_sweep) best_sweep = v;
        }
    }
    return any_sweep ? best_sweep : best;
}

/* ---------------------------------------------------------------- estimate */

static int sweep_counts_now(const CoreRules *r, const State *s) {
    if (!r->sweep_points) return 0;
    int cards = 0;
    for (int t = 0; t < r->players; t++) cards += s->nhand[t];
    int ends_round = s->nstock == 0 && cards == 1;
    if (r->no_sweep_last_deal && s->nstock == 0) return 0;
    if (r->sweep_limit >= 0)
        for (int t = 0; t < r->players; t++)
            if (s->scores[t] > r->sweep_limit) return 0;
    return !(ends_round && !r->last_card_sweep);
}

static double margin_of(const CoreRules *r, const double *good, int seat) {
    int side = team_of(r, seat), teams = nteams(r);
    double best = 0.0;
    int any = 0;
    for (int t = 0; t < teams; t++) {
        if (t == side) continue;
        if (!any || good[t] > best) best = good[t];
        any = 1;
    }
    return good[side] - (any ? best : 0.0);
}

double evaluate(const CoreRules *r, const State *s, int seat, int deal_start) {
    int teams = nteams(r);
    if (s->over) {
        double pts[MAX_SEATS];
        for (int t = 0; t < teams; t++) pts[t] = s->points[t];
        double m = margin_of(r, pts, seat);
        return r->penalty ? -m : m;
    }
    double good[MAX_SEATS] = {0};
    state_banked(r, s, good);
    /* the majorities (evaluation.majorities), carried points included */
    int nmaj = 0, maj_spades[2], maj_total[2];
    double maj_points[2];
    if (r->cards_points >= 0) {
        maj_points[nmaj] = r->cards_points + s->carry_cards;
        maj_total[nmaj] = r->deck_size;
        maj_spades[nmaj++] = 0;
    }
    if (r->spades_points >= 0) {
        int pts = r->spades_points + (r->spades_carries ? s->carry_spades : 0);
        if (pts) {
            maj_points[nmaj] = pts;
            maj_total[nmaj] = 13 * r->decks;
            maj_spades[nmaj++] = 1;
        }
    }
    int cards[MAX_SEATS] = {0}, spades[MAX_SEATS] = {0};
    for (int t = 0; t < r->players; t++) {
        cards[team_of(r, t)] += s->npile[t];
        for (int c = 0; c < NCARDS; c += 4) spades[team_of(r, t)] += s->pile[t][c];
    }
    double fcards[MAX_SEATS], fspades[MAX_SEATS];
    for (int t = 0; t < teams; t++) {
        fcards[t] = cards[t];
        fspades[t] = spades[t];
    }
    /* builds and who keeps them: every hand is known */
    for (int j = 0; j < s->nbuilds; j++) {
        const SBuild *b = &s->builds[j];
        int owner = team_of(r, b->owner);
        int threatened = 0;
        for (int t = 0; t < r->players && !threatened; t++) {
            if (team_of(r, t) == owner) continue;
            for (int i = 0; i < s->nhand[t] && !threatened; i++) {
                int c = s->hand[t][i];
                for (int q = 0; q < r->nplayed[c]; q++)
                    if (r->played[c][q] == b->value) threatened = 1;
            }
        }
        double keep = threatened ? r->build_keep_threatened : r->build_keep_safe;
        double direct = 0.0;
        int nsp = 0;
        for (int i = 0; i < b->ncards; i++) {
            direct += r->direct[b->cards[i]];
            if (!(b->cards[i] & 3)) nsp++;
        }
        good[owner] += keep * direct;
        fcards[owner] += keep * (b->ncards + 1);
        fspades[owner] += keep * nsp;
    }
    for (int m = 0; m < nmaj; m++) {
        double got[MAX_SEATS];
        majority_expectation(maj_spades[m] ? fspades : fcards, teams, maj_total[m], maj_points[m],
                             maj_spades[m] ? r->clump_spades : r->clump_cards, got);
        for (int t = 0; t < teams; t++) good[t] += got[t];
    }
    /* tempo: the best the player to move can take now, with the card weights */
    double extra = 0.0;
    int mover = s->to_move;
    if (s->nloose || s->nbuilds) {
        double w[NCARDS];
        int live[2];
        for (int m = 0; m < nmaj; m++) {
            int clinch = maj_total[m] / 2 + 1;
            live[m] = 1;
            for (int t = 0; t < teams; t++)
                if ((maj_spades[m] ? spades[t] : cards[t]) >= clinch) live[m] = 0;
        }
        for (int c = 0; c < NCARDS; c++) {
            w[c] = r->direct[c];
            for (int m = 0; m < nmaj; m++)
                if (live[m] && (!maj_spades[m] || !(c & 3)))
                    w[c] += maj_points[m] / (maj_total[m] / 2 + 1);
        }
        Caps k;
        memset(k.known, 0, sizeof(k.known));
        k.sums_ready = 0;
        k.r = r;
        k.s = s;
        k.w = w;
        k.sweep_on = sweep_counts_now(r, s);
        good[team_of(r, mover)] += r->tempo * best_outcome(&k, s->hand[mover], s->nhand[mover]);
        if (deal_start) {
            int other = 1 - mover;
            const double *kk = s->nstock == 0 ? r->deal_start_last : r->deal_start;
            extra = kk[2] + kk[0] * best_outcome(&k, s->hand[mover], s->nhand[mover]) -
                    kk[1] * best_outcome(&k, s->hand[other], s->nhand[other]);
        } else {
            extra = 0.0;
        }
    } else if (deal_start) {
        extra = (s->nstock == 0 ? r->deal_start_last : r->deal_start)[2];
    }
    double margin = margin_of(r, good, seat);
    if (deal_start && r->players == 2 && r->casino_scoring && s->nhand[0] == r->deal_size &&
        s->nhand[1] == r->deal_size) {
        margin += (team_of(r, mover) == team_of(r, seat) ? 1.0 : -1.0) * extra;
    }
    return margin;
}
