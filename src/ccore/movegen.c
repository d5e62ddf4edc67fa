/* Legal move generation: casino.engine.movegen.generate, step for step.
 *
 * The Python generator is the reference, and this file follows it function by function
 * (the same names) so that the two give the same moves in the same order, with the same
 * groups shown and the same steps spent against a budget: tests/test_core.py compares
 * them on many random and crowded tables of every preset.  Loose cards are addressed by
 * their place on the table, so a selection is a 64-bit mask; the Python dicts that keep
 * insertion order become an insertion-ordered hash map (OMap) here.
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"

/* ---------------------------------------------------------------- arena */

#define CHUNK_SIZE (1 << 16)

/* One chunk of the usual size is kept from call to call: a search generates moves at
 * every node, and most tables need no more than it. */
static Chunk *spare = NULL;

void *arena_alloc(Arena *a, size_t size) {
    size = (size + 15) & ~(size_t)15;
    Chunk *c = a->head;
    if (c == NULL || c->used + size > c->size) {
        size_t want = size > CHUNK_SIZE ? size : CHUNK_SIZE;
        if (want == CHUNK_SIZE && spare != NULL) {
            c = spare;
            spare = NULL;
        } else {
            c = (Chunk *)malloc(sizeof(Chunk) + want + 16);
        }
        if (c == NULL) return NULL;
        c->size = want;
        c->used = 0;
        c->next = a->head;
        a->head = c;
    }
    char *base = (char *)(c + 1);
    base = (char *)(((uintptr_t)base + 15) & ~(uintptr_t)15);
    void *p = base + c->used;
    c->used += size;
    return p;
}

void arena_free(Arena *a) {
    Chunk *c = a->head;
    while (c != NULL) {
        Chunk *next = c->next;
        if (spare == NULL && c->size == CHUNK_SIZE) {
            c->used = 0;
            c->next = NULL;
            spare = c;
        } else {
            free(c);
        }
        c = next;
    }
    a->head = NULL;
}

static void *alloc(Gen *g, size_t size) {
    void *p = arena_alloc(&g->arena, size);
    if (p == NULL) longjmp(g->fail, GEN_NO_MEMORY);
    return p;
}

/* Budget.spend: a listing that raises has done at most about twice its budget. */
static void spend(Gen *g, long long n) {
    if (!g->budgeted) return;
    g->left -= n;
    if (g->left < 0) longjmp(g->fail, GEN_OVER_BUDGET);
}

/* ---------------------------------------------------------------- vectors of masks */

typedef struct {
    mask_t *a;
    size_t n, cap;
} Vec;

static void vec_push(Gen *g, Vec *v, mask_t x) {
    if (v->n == v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 8;
        mask_t *a = (mask_t *)alloc(g, cap * sizeof(mask_t));
        if (v->n) memcpy(a, v->a, v->n * sizeof(mask_t));
        v->a = a;
        v->cap = cap;
    }
    v->a[v->n++] = x;
}

static inline uint64_t mix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

/* ---------------------------------------------------------------- OMap: a closure
 * Python's ``dict[int, tuple[int, int]]`` of movegen.closure: union -> (rest, block),
 * in insertion order. */

typedef struct {
    mask_t *key, *rest, *block;
    size_t n, cap;
    int32_t *slots;
    size_t nslots;  /* a power of two, at least twice cap */
} OMap;

static void omap_grow(Gen *g, OMap *m) {
    size_t cap = m->cap ? m->cap * 2 : 16;
    mask_t *key = (mask_t *)alloc(g, cap * sizeof(mask_t));
    mask_t *rest = (mask_t *)alloc(g, cap * sizeof(mask_t));
    mask_t *block = (mask_t *)alloc(g, cap * sizeof(mask_t));
    if (m->n) {
        memcpy(key, m->key, m->n * sizeof(mask_t));
        memcpy(rest, m->rest, m->n * sizeof(mask_t));
        memcpy(block, m->block, m->n * sizeof(mask_t));
    }
    size_t nslots = cap * 2;
    int32_t *slots = (int32_t *)alloc(g, nslots * sizeof(int32_t));
    memset(slots, 0xff, nslots * sizeof(int32_t));
    for (size_t i = 0; i < m->n; i++) {
        size_t h = mix(key[i]) & (nslots - 1);
        while (slots[h] >= 0) h = (h + 1) & (nslots - 1);
        slots[h] = (int32_t)i;
    }
    m->key = key;
    m->rest = rest;
    m->block = block;
    m->cap = cap;
    m->slots = slots;
    m->nslots = nslots;
}

static long omap_find(const OMap *m, mask_t k) {
    if (!m->nslots) return -1;
    size_t h = mix(k) & (m->nslots - 1);
    while (m->slots[h] >= 0) {
        if (m->key[m->slots[h]] == k) return m->slots[h];
        h = (h + 1) & (m->nslots - 1);
    }
    return -1;
}

/* res[k] = (rest, block) unless k is in already; 1 when added. */
static int omap_add(Gen *g, OMap *m, mask_t k, mask_t rest, mask_t block) {
    if (omap_find(m, k) >= 0) return 0;
    if (m->n == m->cap) omap_grow(g, m);
    size_t i = m->n++;
    m->key[i] = k;
    m->rest[i] = rest;
    m->block[i] = block;
    size_t h = mix(k) & (m->nslots - 1);
    while (m->slots[h] >= 0) h = (h + 1) & (m->nslots - 1);
    m->slots[h] = (int32_t)i;
    return 1;
}

static void omap_start(Gen *g, OMap *m) {
    memset(m, 0, sizeof(*m));
    omap_add(g, m, 0, 0, 0);
}

/* ---------------------------------------------------------------- pair sets: (i, u) */

typedef struct {
    mask_t *u;
    int32_t *i;
    size_t n, nslots;
} PairSet;

static int pairset_add(Gen *g, PairSet *s, int i, mask_t u) {
    if (2 * (s->n + 1) > s->nslots) {
        size_t nslots = s->nslots ? s->nslots * 2 : 64;
        mask_t *nu = (mask_t *)alloc(g, nslots * sizeof(mask_t));
        int32_t *ni = (int32_t *)alloc(g, nslots * sizeof(int32_t));
        memset(ni, 0xff, nslots * sizeof(int32_t));
        for (size_t h0 = 0; h0 < s->nslots; h0++) {
            if (s->i[h0] < 0) continue;
            size_t h = mix(s->u[h0] * 131 + (uint64_t)s->i[h0]) & (nslots - 1);
            while (ni[h] >= 0) h = (h + 1) & (nslots - 1);
            ni[h] = s->i[h0];
            nu[h] = s->u[h0];
        }
        s->u = nu;
        s->i = ni;
        s->nslots = nslots;
    }
    size_t h = mix(u * 131 + (uint64_t)i) & (s->nslots - 1);
    while (s->i[h] >= 0) {
        if (s->i[h] == i && s->u[h] == u) return 0;
        h = (h + 1) & (s->nslots - 1);
    }
    s->i[h] = i;
    s->u[h] = u;
    s->n++;
    return 1;
}

static inline int bit_length(mask_t x) { return x ? 64 - __builtin_clzll(x) : 0; }
static inline int low_index(mask_t x) { return __builtin_ctzll(x); }
static inline int popcount(mask_t x) { return __builtin_popcountll(x); }

/* ---------------------------------------------------------------- closure */

typedef struct {
    int i;
    mask_t u;
} Step;

/* movegen.closure: every union of pairwise disjoint blocks, each with one split. */
static void closure(Gen *g, const mask_t *blocks, size_t nb, OMap *res) {
    omap_start(g, res);
    if (nb <= 24) {
        for (size_t k = 0; k < nb; k++) {
            mask_t b = blocks[k];
            size_t len = res->n;
            spend(g, (long long)len);
            for (size_t idx = 0; idx < len; idx++) {
                mask_t m = res->key[idx];
                if (!(m & b)) omap_add(g, res, m | b, m, b);
            }
        }
        return;
    }
    mask_t covered = 0;
    for (size_t k = 0; k < nb; k++) covered |= blocks[k];
    int n = bit_length(covered);
    Vec buckets[MAX_LOOSE];
    memset(buckets, 0, sizeof(buckets));
    for (size_t k = 0; k < nb; k++) vec_push(g, &buckets[low_index(blocks[k])], blocks[k]);
    PairSet seen;
    memset(&seen, 0, sizeof(seen));
    size_t cap = 64, top = 0;
    Step *stack = (Step *)alloc(g, cap * sizeof(Step));
    stack[top++] = (Step){0, 0};
    while (top) {
        Step s = stack[--top];
        int i = s.i;
        mask_t u = s.u;
        while (i < n && ((u >> i & 1) || !buckets[i].n)) i++;
        if (i >= n || !pairset_add(g, &seen, i, u)) continue;
        spend(g, 1 + (long long)buckets[i].n);
        if (top + 1 + buckets[i].n > cap) {
            size_t ncap = (cap + buckets[i].n + 1) * 2;
            Step *ns = (Step *)alloc(g, ncap * sizeof(Step));
            memcpy(ns, stack, top * sizeof(Step));
            stack = ns;
            cap = ncap;
        }
        stack[top++] = (Step){i + 1, u};
        for (size_t k = 0; k < buckets[i].n; k++) {
            mask_t b = buckets[i].a[k];
            if (!(b & u)) {
                mask_t v = u | b;
                omap_add(g, res, v, u, b);
                stack[top++] = (Step){i + 1, v};
            }
        }
    }
}

/* ---------------------------------------------------------------- table sums */

typedef struct {
    int maxv;
    Vec by_sum[MAX_VALUES * 2 + 2];
    mask_t full;
    OMap build_closures[MAX_VALUES * 2 + 2];
    int have_closure[MAX_VALUES * 2 + 2];
} TableSums;

static void table_sums(Gen *g, TableSums *t) {
    const CoreRules *r = g->rules;
    memset(t, 0, sizeof(*t));
    t->maxv = r->maxv;
    size_t cap = 64, n = 1;
    mask_t *sm = (mask_t *)alloc(g, cap * sizeof(mask_t));
    uint8_t *sb = (uint8_t *)alloc(g, cap);
    uint8_t *sk = (uint8_t *)alloc(g, cap);
    sm[0] = 0;
    sb[0] = 0;
    sk[0] = 0;
    for (int i = 0; i < g->nloose; i++) {
        int c = g->loose[i];
        int s = r->sum_value[c];
        if (!s) continue;
        mask_t bit = (mask_t)1 << i;
        t->full |= bit;
        int a = r->sum_alt[c] ? 1 : 0;
        int limit = t->maxv - s;
        spend(g, (long long)n);
        size_t len = n;
        for (size_t j = 0; j < len; j++) {
            if (sb[j] > limit) continue;
            if (n == cap) {
                size_t ncap = cap * 2;
                mask_t *nm = (mask_t *)alloc(g, ncap * sizeof(mask_t));
                uint8_t *nb = (uint8_t *)alloc(g, ncap);
                uint8_t *nk = (uint8_t *)alloc(g, ncap);
                memcpy(nm, sm, n * sizeof(mask_t));
                memcpy(nb, sb, n);
                memcpy(nk, sk, n);
                sm = nm;
                sb = nb;
                sk = nk;
                cap = ncap;
            }
            sm[n] = sm[j] | bit;
            sb[n] = (uint8_t)(sb[j] + s);
            sk[n] = (uint8_t)(sk[j] + a);
            n++;
        }
    }
    for (size_t j = 1; j < n; j++) {
        vec_push(g, &t->by_sum[sb[j]], sm[j]);
        int upto = r->alt_delta ? sk[j] : 0;
        for (int k = 1; k <= upto; k++) {
            int total = sb[j] + k * r->alt_delta;
            if (total > t->maxv) break;
            vec_push(g, &t->by_sum[total], sm[j]);
        }
    }
}

/* TableSums.build_closure: selections that split into parts each adding up to v. */
static OMap *build_closure(Gen *g, TableSums *t, int v) {
    if (v < 0 || v > MAX_VALUES * 2 + 1) v = MAX_VALUES * 2 + 1;  /* an empty sum */
    if (!t->have_closure[v]) {
        if (0 < v && v <= t->maxv) {
            closure(g, t->by_sum[v].a, t->by_sum[v].n, &t->build_closures[v]);
        } else {
            omap_start(g, &t->build_closures[v]);
        }
        t->have_closure[v] = 1;
    }
    return &t->build_closures[v];
}

/* _partner_sets: loose selections that complete a group with the played card. */
static const mask_t ZERO_MASK = 0;

static const mask_t *partner_sets(TableSums *t, int target, size_t *n) {
    if (target < 0 || target > t->maxv) {
        *n = 0;
        return NULL;
    }
    if (target == 0) {
        *n = 1;
        return &ZERO_MASK;
    }
    *n = t->by_sum[target].n;
    return t->by_sum[target].a;
}

/* ---------------------------------------------------------------- emitting a move */

typedef struct {
    /* identity keys of the moves emitted so far */
    uint8_t **keys;
    uint16_t *lens;
    size_t n, nslots;
    uint64_t *hashes;
    int32_t *slots;
} MoveSet;

static MoveSet *moveset;  /* of the call in progress (set by core_generate) */

static int moveset_add(Gen *g, MoveSet *s, const uint8_t *key, size_t len) {
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < len; i++) h = (h ^ key[i]) * 1099511628211ULL;
    h = mix(h);
    if (2 * (s->n + 1) > s->nslots) {
        size_t nslots = s->nslots ? s->nslots * 2 : 64;
        int32_t *slots = (int32_t *)alloc(g, nslots * sizeof(int32_t));
        uint8_t **keys = (uint8_t **)alloc(g, nslots / 2 * sizeof(uint8_t *));
        uint16_t *lens = (uint16_t *)alloc(g, nslots / 2 * sizeof(uint16_t));
        uint64_t *hashes = (uint64_t *)alloc(g, nslots / 2 * sizeof(uint64_t));
        memset(slots, 0xff, nslots * sizeof(int32_t));
        if (s->n) {
            memcpy(keys, s->keys, s->n * sizeof(uint8_t *));
            memcpy(lens, s->lens, s->n * sizeof(uint16_t));
            memcpy(hashes, s->hashes, s->n * sizeof(uint64_t));
        }
        for (size_t i = 0; i < s->n; i++) {
            size_t k = hashes[i] & (nslots - 1);
            while (slots[k] >= 0) k = (k + 1) & (nslots - 1);
            slots[k] = (int32_t)i;
        }
        s->slots = slots;
        s->keys = keys;
        s->lens = lens;
        s->hashes = hashes;
        s->nslots = nslots;
    }
    size_t k = h & (s->nslots - 1);
    while (s->slots[k] >= 0) {
        int32_t i = s->slots[k];
        if (s->hashes[i] == h && s->lens[i] == len && !memcmp(s->keys[i], key, len)) return 0;
        k = (k + 1) & (s->nslots - 1);
    }
    uint8_t *copy = (uint8_t *)alloc(g, len);
    memcpy(copy, key, len);
    s->keys[s->n] = copy;
    s->lens[s->n] = (uint16_t)len;
    s->hashes[s->n] = h;
    s->slots[k] = (int32_t)s->n;
    s->n++;
    return 1;
}

/* Insertion sort: the lists sorted per move are a few cards long. */
static void sort_ints(int *a, int n) {
    for (int i = 1; i < n; i++) {
        int key = a[i], j = i - 1;
        while (j >= 0 && a[j] > key) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = key;
    }
}

int mask_cards(const int *loose, mask_t m, int *out) {
    int n = 0;
    for (; m; m &= m - 1) out[n++] = loose[low_index(m)];
    sort_ints(out, n);
    return n;
}

static int cmp_int(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Emit a move unless one equal to it (kind, card, loose cards as a multiset, builds,
 * value: Move's identity) was emitted before: dict.fromkeys keeps the first. */
static void emit(Gen *g, int kind, int card, mask_t loose, const int *builds, int nbuilds,
                 int value, const mask_t *groups, int ngroups, int lead) {
    uint8_t key[4 + MAX_LOOSE + 1 + MAX_BUILDS];
    int cards[MAX_LOOSE];
    int n = mask_cards(g->loose, loose, cards);
    size_t len = 0;
    key[len++] = (uint8_t)kind;
    key[len++] = (uint8_t)card;
    key[len++] = (uint8_t)value;
    key[len++] = (uint8_t)n;
    for (int i = 0; i < n; i++) key[len++] = (uint8_t)cards[i];
    key[len++] = (uint8_t)nbuilds;
    for (int i = 0; i < nbuilds; i++) key[len++] = (uint8_t)g->builds[builds[i]].ident;
    if (!moveset_add(g, moveset, key, len)) return;
    Found f;
    f.kind = kind;
    f.card = card;
    f.value = value;
    f.loose = loose;
    f.nbuilds = nbuilds;
    for (int i = 0; i < nbuilds; i++) f.builds[i] = builds[i];
    f.ngroups = ngroups;
    f.groups = (mask_t *)groups;
    f.lead = lead;
    if (g->emit(g->emit_ctx, &f)) longjmp(g->fail, GEN_PY_ERROR);
}

/* split(res, union): the blocks of one recorded split, appended to out. */
static int split(const OMap *res, mask_t u, mask_t *out, int n) {
    while (u) {
        long i = omap_find(res, u);
        out[n++] = res->block[i];
        u = res->rest[i];
    }
    return n;
}

enum { TRAIL = 0, CAPTURE = 1, BUILD = 2, ADD = 3, RAISE = 4 };

/* ---------------------------------------------------------------- selections */

typedef struct {
    int v;
    Vec blocks;
    OMap res;      /* empty (not even 0) when the closure was not wanted */
    int has_res;
    /* cache key: the pairing keys and the value */
    int nkeys;
    int keys[MAX_VALUES];
} Selection;

typedef struct {
    Selection *sel[MAX_VALUES + 1];
    int n;
} CardSelections;

typedef struct {
    Selection *items[NCARDS * MAX_VALUES];
    int n;
} SelectionCache;

static int same_keys(const Selection *s, const int *keys, int nkeys, int v) {
    if (s->v != v || s->nkeys != nkeys) return 0;
    for (int i = 0; i < nkeys; i++)
        if (s->keys[i] != keys[i]) return 0;
    return 1;
}

/* _capture_selections: for each played value of c, the blocks it may take and their
 * closure. */
static void capture_selections(Gen *g, int c, TableSums *t, SelectionCache *cache,
                               int want_closure, CardSelections *out) {
    const CoreRules *r = g->rules;
    const int *keys = r->pair_keys[c];
    int nkeys = r->npair[c];
    Vec pairs = {0};
    for (int i = 0; i < g->nloose; i++) {
        int pt = r->pair_table[g->loose[i]];
        for (int k = 0; k < nkeys; k++) {
            if (keys[k] == pt) {
                vec_push(g, &pairs, (mask_t)1 << i);
                break;
            }
        }
    }
    out->n = 0;
    if (!r->nplayed[c]) {
        Selection *s = (Selection *)alloc(g, sizeof(Selection));
        memset(s, 0, sizeof(*s));
        s->v = 0;
        s->blocks = pairs;
        if (r->face_one[c]) {
            omap_start(g, &s->res);
            for (size_t k = 0; k < pairs.n; k++) omap_add(g, &s->res, pairs.a[k], 0, pairs.a[k]);
        } else {
            closure(g, pairs.a, pairs.n, &s->res);
        }
        s->has_res = 1;
        out->sel[out->n++] = s;
        return;
    }
    for (int p = 0; p < r->nplayed[c]; p++) {
        int v = r->played[c][p];
        Selection *s = NULL;
        for (int k = 0; k < cache->n; k++) {
            if (same_keys(cache->items[k], keys, nkeys, v)) {
                s = cache->items[k];
                break;
            }
        }
        if (s == NULL) {
            s = (Selection *)alloc(g, sizeof(Selection));
            memset(s, 0, sizeof(*s));
            s->v = v;
            s->nkeys = nkeys;
            memcpy(s->keys, keys, (size_t)nkeys * sizeof(int));
            Vec blocks = {0};
            for (size_t k = 0; k < pairs.n; k++) vec_push(g, &blocks, pairs.a[k]);
            if (v <= t->maxv) {
                const Vec *bs = &t->by_sum[v];
                for (size_t k = 0; k < bs->n; k++)
                    if (bs->a[k] & (bs->a[k] - 1)) vec_push(g, &blocks, bs->a[k]);
            }
            s->blocks = blocks;
            if (want_closure) {
                closure(g, blocks.a, blocks.n, &s->res);
                s->has_res = 1;
            }
            if (cache->n < NCARDS * MAX_VALUES) cache->items[cache->n++] = s;
        }
        out->sel[out->n++] = s;
    }
}

/* ---------------------------------------------------------------- groups as shown */

/* The groups of a capture: one split of u, each group high card first, sorted by
 * (length, cards). Cards are compared as Python compares the tuples. */
typedef struct {
    int len;
    int cards[MAX_LOOSE];
} Group;

static void group_of(Gen *g, mask_t m, Group *out) {
    int n = 0;
    for (mask_t x = m; x; x &= x - 1) out->cards[n++] = g->loose[low_index(x)];
    sort_ints(out->cards, n);
    for (int i = 0; i < n / 2; i++) {
        int tmp = out->cards[i];
        out->cards[i] = out->cards[n - 1 - i];
        out->cards[n - 1 - i] = tmp;
    }
    out->len = n;
}

static int group_less(const Group *a, const Group *b) {
    if (a->len != b->len) return a->len < b->len;
    for (int i = 0; i < a->len; i++)
        if (a->cards[i] != b->cards[i]) return a->cards[i] < b->cards[i];
    return 0;
}

/* Sort the masks of a split as Python's ``sort(key=lambda g: (len(g), g))`` (stable). */
static void sort_split(Gen *g, mask_t *masks, int n) {
    if (n < 2) return;
    Group *gs = (Group *)alloc(g, (size_t)n * sizeof(Group));
    for (int i = 0; i < n; i++) group_of(g, masks[i], &gs[i]);
    for (int i = 1; i < n; i++) {  /* insertion sort: stable, and splits are short */
        Group key = gs[i];
        mask_t km = masks[i];
        int j = i - 1;
        while (j >= 0 && group_less(&key, &gs[j])) {
            gs[j + 1] = gs[j];
            masks[j + 1] = masks[j];
            j--;
        }
        gs[j + 1] = key;
        masks[j + 1] = km;
    }
}

/* ---------------------------------------------------------------- the moves */

static uint32_t held_mask(Gen *g, int played) {
    uint32_t held = 0;
    int skipped = 0;
    for (int i = 0; i < g->nhand; i++) {
        int c = g->hand[i];
        if (!skipped && c == played) {
            skipped = 1;
            continue;
        }
        held |= g->rules->holds[c];
    }
    return held;
}

static int holds_all(uint32_t held, uint32_t needed) { return !(needed & ~held); }

/* Build order, as Python sorts Build values: value, owner, then cards. */
static int build_less(const CoreBuild *a, const CoreBuild *b) {
    if (a->value != b->value) return a->value < b->value;
    if (a->owner != b->owner) return a->owner < b->owner;
    int n = a->ncards < b->ncards ? a->ncards : b->ncards;
    for (int i = 0; i < n; i++)
        if (a->cards[i] != b->cards[i]) return a->cards[i] < b->cards[i];
    return a->ncards < b->ncards;
}

static void captures(Gen *g, int c, const int *owned, int nowned, uint32_t held,
                     CardSelections *sels) {
    mask_t split_buf[MAX_LOOSE];
    for (int k = 0; k < sels->n; k++) {
        Selection *s = sels->sel[k];
        int vb[MAX_BUILDS], nv = 0;
        if (s->v)
            for (int j = 0; j < g->nbuilds; j++)
                if (g->builds[j].value == s->v) vb[nv++] = j;
        for (long tmask = 0; tmask < (1L << nv); tmask++) {
            uint32_t needed = 0;
            for (int o = 0; o < nowned; o++) {
                int j = owned[o], taken = 0;
                for (int x = 0; x < nv; x++)
                    if (vb[x] == j && (tmask >> x & 1)) taken = 1;
                if (!taken) needed |= (uint32_t)1 << g->builds[j].value;
            }
            if (!holds_all(held, needed)) continue;
            spend(g, s->has_res ? (long long)s->res.n : 0);
            int taken[MAX_BUILDS], nt = 0;
            for (int x = 0; x < nv; x++)
                if (tmask >> x & 1) taken[nt++] = vb[x];
            for (int i = 1; i < nt; i++) {  /* sorted(builds), stable */
                int key = taken[i], j = i - 1;
                while (j >= 0 && build_less(&g->builds[key], &g->builds[taken[j]])) {
                    taken[j + 1] = taken[j];
                    j--;
                }
                taken[j + 1] = key;
            }
            if (!s->has_res) continue;
            for (size_t idx = 0; idx < s->res.n; idx++) {
                mask_t u = s->res.key[idx];
                if (!u && !nt) continue;
                int ng = split(&s->res, u, split_buf, 0);
                sort_split(g, split_buf, ng);
                emit(g, CAPTURE, c, u, taken, nt, 0, split_buf, ng, 0);
            }
        }
    }
}

static void new_builds(Gen *g, int c, const int *owned, int nowned, uint32_t held,
                       TableSums *t) {
    const CoreRules *r = g->rules;
    mask_t buf[MAX_LOOSE + 1];
    int sc = r->sum_value[c];
    uint32_t owned_values = 0;
    for (int o = 0; o < nowned; o++) owned_values |= (uint32_t)1 << g->builds[owned[o]].value;
    if (!holds_all(held, owned_values)) return;
    for (int v = sc > 2 ? sc : 2; v <= r->max_build; v++) {
        if (!(held >> v & 1)) continue;
        size_t np;
        const mask_t *partners = partner_sets(t, v - sc, &np);
        if (!np) continue;
        OMap *res = build_closure(g, t, v);
        spend(g, (long long)np * (long long)res->n);
        for (size_t p = 0; p < np; p++) {
            mask_t gm = partners[p];
            for (size_t idx = 0; idx < res->n; idx++) {
                mask_t u = res->key[idx];
                if (u & gm) continue;
                mask_t s = gm | u;
                if (!s) continue;
                buf[0] = gm;
                int ng = split(res, u, buf + 1, 0);
                sort_split(g, buf + 1, ng);
                emit(g, BUILD, c, s, NULL, 0, v, buf, ng + 1, 1);
            }
        }
    }
}

static void onto_builds(Gen *g, int c, const int *owned, int nowned, uint32_t held,
                        TableSums *t) {
    const CoreRules *r = g->rules;
    mask_t buf[MAX_LOOSE + 1];
    int sc = r->sum_value[c];
    for (int j = 0; j < g->nbuilds; j++) {
        const CoreBuild *b = &g->builds[j];
        uint32_t others = 0;
        for (int o = 0; o < nowned; o++)
            if (owned[o] != j) others |= (uint32_t)1 << g->builds[owned[o]].value;
        int v = b->value;
        int one[1] = {j};
        if (holds_all(held, others | (uint32_t)1 << v)) {
            size_t np;
            const mask_t *partners = partner_sets(t, v - sc, &np);
            if (np) {
                OMap *res = build_closure(g, t, v);
                spend(g, (long long)np * (long long)res->n);
                for (size_t p = 0; p < np; p++) {
                    mask_t gm = partners[p];
                    for (size_t idx = 0; idx < res->n; idx++) {
                        mask_t u = res->key[idx];
                        if (u & gm) continue;
                        buf[0] = gm;
                        int ng = split(res, u, buf + 1, 0);
                        sort_split(g, buf + 1, ng);
                        emit(g, ADD, c, gm | u, one, 1, v, buf, ng + 1, 1);
                    }
                }
            }
        }
        if (b->multiple || (b->owner == g->seat && !r->raise_own)) continue;
        int w = v + sc;
        if (w > r->max_build || !holds_all(held, others | (uint32_t)1 << w)) continue;
        OMap *res = build_closure(g, t, w);
        spend(g, (long long)res->n);
        for (size_t idx = 0; idx < res->n; idx++) {
            mask_t u = res->key[idx];
            buf[0] = 0;
            int ng = split(res, u, buf + 1, 0);
            sort_split(g, buf + 1, ng);
            emit(g, RAISE, c, u, one, 1, w, buf, ng + 1, 1);
        }
    }
}

/* ---------------------------------------------------------------- Krypkasino */

typedef struct {
    int i;
    mask_t u;
    uint64_t one, two;
} WalkStep;

static int cmp_mask(const void *a, const void *b) {
    mask_t x = *(const mask_t *)a, y = *(const mask_t *)b;
    return (x > y) - (x < y);
}

/* _maximal_unions: every inclusion-maximal capture of a card of value v, sorted, with
 * one split each in res. */
static void maximal_unions(Gen *g, int v, const Vec *blocks, const int *sum_of, Vec *out,
                           OMap *res) {
    int n = g->nloose;
    mask_t pair_mask = 0;
    Vec buckets[MAX_LOOSE];
    memset(buckets, 0, sizeof(buckets));
    for (size_t k = 0; k < blocks->n; k++) {
        mask_t b = blocks->a[k];
        if (!(b & (b - 1))) pair_mask |= b;
        vec_push(g, &buckets[low_index(b)], b);
    }
    uint64_t limit = ((uint64_t)1 << (v + 1)) - 1;
    omap_start(g, res);
    OMap found;
    memset(&found, 0, sizeof(found));
    PairSet seen;
    memset(&seen, 0, sizeof(seen));
    size_t cap = 64, top = 0;
    WalkStep *stack = (WalkStep *)alloc(g, cap * sizeof(WalkStep));
    stack[top++] = (WalkStep){0, 0, 0, 0};
    while (top) {
        WalkStep s = stack[--top];
        int i = s.i;
        mask_t u = s.u;
        while (i < n && (u >> i & 1)) i++;
        if (i >= n) {
            if (u) omap_add(g, &found, u, 0, 0);
            continue;
        }
        if (!pairset_add(g, &seen, i, u)) continue;
        spend(g, 1 + (long long)buckets[i].n);
        if (top + 2 + buckets[i].n > cap) {
            size_t ncap = (cap + buckets[i].n + 2) * 2;
            WalkStep *ns = (WalkStep *)alloc(g, ncap * sizeof(WalkStep));
            memcpy(ns, stack, top * sizeof(WalkStep));
            stack = ns;
            cap = ncap;
        }
        if (!(pair_mask >> i & 1)) {
            int x = sum_of[i];
            uint64_t one2 = s.one, two2 = s.two;
            if (x) {
                two2 = s.two | ((s.one << x) & limit);
                one2 = s.one | (((s.one << x) | ((uint64_t)1 << x)) & limit);
            }
            if (!(two2 >> v & 1)) stack[top++] = (WalkStep){i + 1, u, one2, two2};
        }
        for (size_t k = 0; k < buckets[i].n; k++) {
            mask_t b = buckets[i].a[k];
            if (!(b & u)) {
                mask_t w = u | b;
                omap_add(g, res, w, u, b);
                stack[top++] = (WalkStep){i + 1, w, s.one, s.two};
            }
        }
    }
    out->n = 0;
    for (size_t k = 0; k < found.n; k++) vec_push(g, out, found.key[k]);
    if (out->n > 1) qsort(out->a, out->n, sizeof(mask_t), cmp_mask);
}

typedef struct {
    Vec unions;
    OMap *res;
} Option;

static void compulsory(Gen *g, TableSums *t, CardSelections *per_card, const int *cards,
                       int ncards) {
    const CoreRules *r = g->rules;
    int n = g->nloose;
    mask_t full = n == 64 ? ~(mask_t)0 : (((mask_t)1 << n) - 1);
    int sum_of[MAX_LOOSE];
    for (int i = 0; i < n; i++) sum_of[i] = r->sum_value[g->loose[i]];
    int exact = r->compulsory && !r->ace_alt;
    Option *opts = (Option *)alloc(g, (size_t)ncards * (MAX_VALUES + 1) * sizeof(Option));
    int *nopts = (int *)alloc(g, (size_t)ncards * sizeof(int));
    mask_t split_buf[MAX_LOOSE];
    for (int ci = 0; ci < ncards; ci++) {
        nopts[ci] = 0;
        CardSelections *sels = &per_card[ci];
        for (int k = 0; k < sels->n; k++) {
            Selection *s = sels->sel[k];
            if (!s->blocks.n) continue;
            Option *o = &opts[ci * (MAX_VALUES + 1) + nopts[ci]++];
            memset(o, 0, sizeof(*o));
            if (exact) {
                o->res = (OMap *)alloc(g, sizeof(OMap));
                maximal_unions(g, s->v, &s->blocks, sum_of, &o->unions, o->res);
            } else {
                spend(g, (long long)s->res.n * (1 + (long long)s->blocks.n));
                o->res = &s->res;
                for (size_t idx = 0; idx < s->res.n; idx++) {
                    mask_t u = s->res.key[idx];
                    if (!u) continue;
                    if (r->compulsory) {
                        int keep = 1;
                        for (size_t b = 0; b < s->blocks.n; b++)
                            if (!(s->blocks.a[b] & ~(full & ~u))) {
                                keep = 0;
                                break;
                            }
                        if (!keep) continue;
                    }
                    vec_push(g, &o->unions, u);
                }
            }
        }
    }
    if (r->forced_sweep && n && t->full == full) {
        int any = 0;
        for (int ci = 0; ci < ncards; ci++) {
            for (int k = 0; k < nopts[ci]; k++) {
                Option *o = &opts[ci * (MAX_VALUES + 1) + k];
                int has = 0;
                for (size_t x = 0; x < o->unions.n; x++)
                    if (o->unions.a[x] == full) has = 1;
                if (!has) continue;
                any = 1;
                int ng = split(o->res, full, split_buf, 0);
                sort_split(g, split_buf, ng);
                emit(g, CAPTURE, cards[ci], full, NULL, 0, 0, split_buf, ng, 0);
            }
        }
        if (any) return;
    }
    for (int ci = 0; ci < ncards; ci++) {
        int can_capture = 0;
        for (int k = 0; k < nopts[ci]; k++) {
            Option *o = &opts[ci * (MAX_VALUES + 1) + k];
            if (o->unions.n) can_capture = 1;
            int best = -1;
            if (r->compulsory && r->cardinality && o->unions.n) {
                for (size_t x = 0; x < o->unions.n; x++)
                    if (popcount(o->unions.a[x]) > best) best = popcount(o->unions.a[x]);
            }
            for (size_t x = 0; x < o->unions.n; x++) {
                mask_t u = o->unions.a[x];
                if (best >= 0 && popcount(u) != best) continue;
                int ng = split(o->res, u, split_buf, 0);
                sort_split(g, split_buf, ng);
                emit(g, CAPTURE, cards[ci], u, NULL, 0, 0, split_buf, ng, 0);
            }
        }
        if (!can_capture || !r->compulsory) emit(g, TRAIL, cards[ci], 0, NULL, 0, 0, NULL, 0, 0);
    }
}

/* ---------------------------------------------------------------- generate */

static void generate(Gen *g) {
    const CoreRules *r = g->rules;
    TableSums *t = (TableSums *)alloc(g, sizeof(TableSums));
    table_sums(g, t);
    int owned[MAX_BUILDS], nowned = 0;
    for (int j = 0; j < g->nbuilds; j++)
        if (g->builds[j].owner == g->seat) owned[nowned++] = j;
    int cards[MAX_HAND], ncards = 0;
    {
        int sorted[MAX_HAND];
        memcpy(sorted, g->hand, (size_t)g->nhand * sizeof(int));
        qsort(sorted, (size_t)g->nhand, sizeof(int), cmp_int);
        for (int i = 0; i < g->nhand; i++)
            if (!ncards || cards[ncards - 1] != sorted[i]) cards[ncards++] = sorted[i];
    }
    SelectionCache *cache = (SelectionCache *)alloc(g, sizeof(SelectionCache));
    cache->n = 0;
    int want_closure = !(r->compulsory && !r->ace_alt);
    CardSelections *per_card = (CardSelections *)alloc(g, (size_t)ncards * sizeof(CardSelections));
    for (int ci = 0; ci < ncards; ci++)
        capture_selections(g, cards[ci], t, cache, want_closure, &per_card[ci]);
    if (r->compulsory || r->forced_sweep) {
        compulsory(g, t, per_card, cards, ncards);
        return;
    }
    for (int ci = 0; ci < ncards; ci++) {
        int c = cards[ci];
        uint32_t held = held_mask(g, c);
        captures(g, c, owned, nowned, held, &per_card[ci]);
        if (r->building && r->sum_value[c]) {
            new_builds(g, c, owned, nowned, held, t);
            onto_builds(g, c, owned, nowned, held, t);
        }
        if (!nowned) emit(g, TRAIL, c, 0, NULL, 0, 0, NULL, 0, 0);
    }
}

int core_generate(Gen *g) {
    MoveSet set;
    MoveSet *outer = moveset;
    memset(&set, 0, sizeof(set));
    g->arena.head = NULL;
    g->budgeted = g->left >= 0;
    int code = setjmp(g->fail);
    if (code == 0) {
        moveset = &set;
        generate(g);
    }
    moveset = outer;
    arena_free(&g->arena);
    return code;
}

/* ---------------------------------------------------------------- the best capture */

typedef struct {
    const mask_t *blocks[MAX_LOOSE];
    size_t nblocks[MAX_LOOSE];
    const int *score;     /* by place on the table */
    mask_t coverable;     /* the places some block holds */
    int n;
    PairSet seen;
    long best;
    mask_t best_mask;
} Best;

static long mask_score(const Best *b, mask_t m) {
    long s = 0;
    for (; m; m &= m - 1) {
        int x = b->score[low_index(m)];
        if (x > 0) s += x;
    }
    return s;
}

/* Every union of disjoint blocks walked once, lowest undecided place first (the lowest
 * card of a block, the best-scoring block first, or left out), pruned where even every
 * card still free that a block could hold cannot beat the best found: the walk of
 * closure, looking for one union only. */
static void best_walk(Gen *g, Best *b, int i, mask_t used, long score) {
    while (i < b->n && ((used >> i & 1) || !b->nblocks[i])) i++;
    if (score > b->best) {
        b->best = score;
        b->best_mask = used;
    }
    if (i >= b->n) return;
    mask_t free_from_i = b->coverable & ~used & (~(mask_t)0 << i);
    if (score + mask_score(b, free_from_i) <= b->best) return;
    if (!pairset_add(g, &b->seen, i, used)) return;
    spend(g, 1 + (long long)b->nblocks[i]);
    for (size_t k = 0; k < b->nblocks[i]; k++) {
        mask_t blk = b->blocks[i][k];
        if (blk & used) continue;
        best_walk(g, b, i + 1, used | blk, score + mask_score(b, blk));
    }
    best_walk(g, b, i + 1, used, score);
}

int core_best_capture(Gen *g, int card, int v, const int *score, mask_t *out) {
    g->arena.head = NULL;
    g->budgeted = g->left >= 0;
    volatile int found = 0;
    int code = setjmp(g->fail);
    if (code == 0) {
        const CoreRules *r = g->rules;
        TableSums *t = (TableSums *)alloc(g, sizeof(TableSums));
        table_sums(g, t);
        Best *b = (Best *)alloc(g, sizeof(Best));
        memset(b, 0, sizeof(*b));
        b->n = g->nloose;
        b->score = score;
        b->best = 0;
        b->best_mask = 0;
        Vec per[MAX_LOOSE];
        memset(per, 0, sizeof(per));
        for (int i = 0; i < g->nloose; i++) {
            int pt = r->pair_table[g->loose[i]];
            for (int k = 0; k < r->npair[card]; k++)
                if (r->pair_keys[card][k] == pt) {
                    vec_push(g, &per[i], (mask_t)1 << i);
                    break;
                }
        }
        if (!r->nplayed[card] && r->face_one[card]) {
            /* one card of its rank per capture: the best such card */
            for (int i = 0; i < g->nloose; i++)
                if (per[i].n && score[i] > b->best) {
                    b->best = score[i];
                    b->best_mask = (mask_t)1 << i;
                }
        } else {
            if (r->nplayed[card] && v >= 1 && v <= t->maxv) {
                const Vec *bs = &t->by_sum[v];
                for (size_t k = 0; k < bs->n; k++)
                    if (bs->a[k] & (bs->a[k] - 1)) vec_push(g, &per[low_index(bs->a[k])], bs->a[k]);
            }
            for (int i = 0; i < g->nloose; i++) {
                /* the best-scoring blocks first: a good union early prunes the rest */
                mask_t *a = per[i].a;
                for (size_t x = 1; x < per[i].n; x++) {
                    mask_t key = a[x];
                    long ks = mask_score(b, key);
                    size_t y = x;
                    while (y > 0 && mask_score(b, a[y - 1]) < ks) {
                        a[y] = a[y - 1];
                        y--;
                    }
                    a[y] = key;
                }
                for (size_t x = 0; x < per[i].n; x++) b->coverable |= a[x];
                b->blocks[i] = a;
                b->nblocks[i] = per[i].n;
            }
            best_walk(g, b, 0, 0, 0);
        }
        *out = b->best_mask;
        found = 1;
    }
    arena_free(&g->arena);
    return found ? GEN_OK : code;
}
