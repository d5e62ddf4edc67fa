/* casino.engine._core: the compiled search core (docs/core.md).
 *
 * The pure-Python engine is the reference and the authority for every move played;
 * this module answers the same questions faster, and tests/test_core.py holds it equal
 * to the engine move for move.  Everything a caller passes is checked here and refused
 * with a Python exception (never a crash): the adapter, casino/engine/core.py, is the
 * only intended caller, but the boundary does not rely on it.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

/* ---------------------------------------------------------------- the bound types */

static PyObject *move_type = NULL;     /* casino.engine.moves.Move */
static PyObject *kind_names[5];        /* "trail", "capture", "build", "add", "raise" */
static PyObject *card_ints[NCARDS];
static PyObject *str_kind, *str_card, *str_loose, *str_builds, *str_value, *str_groups,
    *str_owner, *str_cards;
static PyObject *empty_tuple;

#define RULES_CAPSULE "casino.engine._core.Rules"

static int small_int(PyObject *o, long lo, long hi, const char *what, long *out) {
    if (!PyLong_Check(o) || PyBool_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s must be a whole number", what);
        return -1;
    }
    long v = PyLong_AsLong(o);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (v < lo || v > hi) {
        PyErr_Format(PyExc_ValueError, "%s must be between %ld and %ld, not %ld", what, lo, hi, v);
        return -1;
    }
    *out = v;
    return 0;
}

/* A tuple of at most max small ints in [lo, hi]. */
static int int_tuple(PyObject *o, int *out, int max, long lo, long hi, const char *what) {
    if (!PyTuple_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s must be a tuple", what);
        return -1;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(o);
    if (n > max) {
        PyErr_Format(PyExc_ValueError, "%s holds %zd items, more than %d", what, n, max);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v;
        if (small_int(PyTuple_GET_ITEM(o, i), lo, hi, what, &v) < 0) return -1;
        out[i] = (int)v;
    }
    return (int)n;
}

/* ---------------------------------------------------------------- rules */

static void rules_free(PyObject *capsule) {
    void *p = PyCapsule_GetPointer(capsule, RULES_CAPSULE);
    PyMem_Free(p);
}

/* play = (players, partnerships, direction, deal_size, set_aside_pictures, double_sweep,
 *         mulle_points, no_sweep_last_deal, sweep_limit (-1: none), last_card_sweep,
 *         leftovers_dealer, win_rule (0 counting-order, 1 higher-total, 2 lower-after-games),
 *         target, games_per_match, penalty)
 * scheme = ((code, a, b, c, d, besides_mask), ...) in counting order (SCHEME_* in core.h)
 * weights = 52 floats: the search's move ordering (solver.card_weights) */
static int read_play(PyObject *play, PyObject *scheme, PyObject *weights, CoreRules *r) {
    int v[15];
    if (scheme == NULL || weights == NULL) {
        PyErr_SetString(PyExc_TypeError, "the play numbers need the scheme and the weights");
        return -1;
    }
    if (PyTuple_GET_SIZE(play) != 15 ||
        int_tuple(play, v, 15, -1, 1000000, "a play number") != 15) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "play holds 15 numbers");
        return -1;
    }
    if (v[0] < 2 || v[0] > MAX_SEATS || (v[2] != 1 && v[2] != -1) || v[3] < 1 ||
        v[3] > MAX_HAND || v[11] < 0 || v[11] > 2 || v[13] < 1) {
        PyErr_SetString(PyExc_ValueError, "a play number is out of range");
        return -1;
    }
    r->players = v[0];
    r->partnerships = v[1];
    r->direction = v[2];
    r->deal_size = v[3];
    r->set_aside_pictures = v[4];
    r->double_sweep = v[5];
    r->mulle_points = v[6];
    r->no_sweep_last_deal = v[7];
    r->sweep_limit = v[8];
    r->last_card_sweep = v[9];
    r->leftovers_dealer = v[10];
    r->win_rule = v[11];
    r->target = v[12];
    r->games_per_match = v[13];
    r->penalty = v[14];
    r->play_ready = 1;
    if (r->partnerships && r->players != 4) {
        PyErr_SetString(PyExc_ValueError, "partnerships need four players");
        return -1;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(scheme);
    if (n > MAX_ITEMS) {
        PyErr_SetString(PyExc_ValueError, "too many scoring items");
        return -1;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *item = PyTuple_GET_ITEM(scheme, k);
        int iv[5];
        if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != 6) {
            PyErr_SetString(PyExc_ValueError, "a scoring item is six numbers");
            return -1;
        }
        for (int i = 0; i < 5; i++) {
            long x;
            if (small_int(PyTuple_GET_ITEM(item, i), -1000, 1000, "a scoring number", &x) < 0)
                return -1;
            iv[i] = (int)x;
        }
        if (iv[0] < SCHEME_MAJORITY || iv[0] > SCHEME_LAST ||
            (iv[0] == SCHEME_CARD && (iv[1] < 0 || iv[1] >= NCARDS))) {
            PyErr_SetString(PyExc_ValueError, "a scoring item is out of range");
            return -1;
        }
        unsigned long long mask = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(item, 5));
        if (mask == (unsigned long long)-1 && PyErr_Occurred()) return -1;
        memcpy(r->item[k], iv, sizeof(iv));
        r->besides[k] = mask;
    }
    r->nitems = (int)n;
    if (PyTuple_GET_SIZE(weights) != NCARDS) {
        PyErr_SetString(PyExc_ValueError, "the weights are one number per card");
        return -1;
    }
    for (int c = 0; c < NCARDS; c++) {
        double w = PyFloat_AsDouble(PyTuple_GET_ITEM(weights, c));
        if (w == -1.0 && PyErr_Occurred()) return -1;
        r->weight[c] = w;
    }
    return 0;
}

/* make_rules(played, sum_value, sum_alt, pair_played, pair_table, holds, face_one,
 *            max_value, max_build, alt_delta, ace_alt, building, raise_own, compulsory,
 *            cardinality, forced_sweep) -> capsule
 * The per-card tuples are those of casino.engine.rules.CardTable (52 entries each). */
static PyObject *make_rules(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *played, *sum_value, *sum_alt, *pair_played, *pair_table, *holds, *face_one;
    PyObject *play = NULL, *scheme = NULL, *weights = NULL;
    int max_value, max_build, alt_delta, ace_alt, building, raise_own, compulsory, cardinality,
        forced_sweep;
    if (!PyArg_ParseTuple(args, "O!O!O!O!O!O!O!iiiippppp|O!O!O!:make_rules", &PyTuple_Type,
                          &played, &PyTuple_Type, &sum_value, &PyTuple_Type, &sum_alt,
                          &PyTuple_Type, &pair_played, &PyTuple_Type, &pair_table,
                          &PyTuple_Type, &holds, &PyTuple_Type, &face_one, &max_value,
                          &max_build, &alt_delta, &ace_alt, &building, &raise_own, &compulsory,
                          &cardinality, &forced_sweep, &PyTuple_Type, &play, &PyTuple_Type,
                          &scheme, &PyTuple_Type, &weights))
        return NULL;
    PyObject *tables[] = {played, sum_value, sum_alt, pair_played, pair_table, holds, face_one};
    for (int k = 0; k < 7; k++) {
        if (PyTuple_GET_SIZE(tables[k]) != NCARDS) {
            PyErr_Format(PyExc_ValueError, "every card table must have %d entries", NCARDS);
            return NULL;
        }
    }
    if (max_value < 1 || max_value > MAX_VALUES || max_build < 0 || max_build > MAX_VALUES ||
        alt_delta < 0 || alt_delta > MAX_VALUES) {
        PyErr_SetString(PyExc_ValueError, "card values must lie between 1 and 16");
        return NULL;
    }
    CoreRules *r = (CoreRules *)PyMem_Calloc(1, sizeof(CoreRules));
    if (r == NULL) return PyErr_NoMemory();
    for (int c = 0; c < NCARDS; c++) {
        long v;
        int n = int_tuple(PyTuple_GET_ITEM(played, c), r->played[c], MAX_VALUES, 1, MAX_VALUES,
                          "a played value");
        if (n < 0) goto fail;
        r->nplayed[c] = n;
        n = int_tuple(PyTuple_GET_ITEM(pair_played, c), r->pair_keys[c], MAX_VALUES, -1,
                      MAX_VALUES, "a pairing key");
        if (n < 0) goto fail;
        r->npair[c] = n;
        if (small_int(PyTuple_GET_ITEM(sum_value, c), 0, MAX_VALUES, "a sum value", &v) < 0)
            goto fail;
        r->sum_value[c] = (int)v;
        if (small_int(PyTuple_GET_ITEM(sum_alt, c), 0, MAX_VALUES, "a second sum value", &v) < 0)
            goto fail;
        r->sum_alt[c] = (int)v;
        if (small_int(PyTuple_GET_ITEM(pair_table, c), -1, MAX_VALUES, "a pairing key", &v) < 0)
            goto fail;
        r->pair_table[c] = (int)v;
        if (small_int(PyTuple_GET_ITEM(holds, c), 0, (1L << (MAX_VALUES + 1)) - 1,
                      "a held-values mask", &v) < 0)
            goto fail;
        r->holds[c] = (uint32_t)v;
        int one = PyObject_IsTrue(PyTuple_GET_ITEM(face_one, c));
        if (one < 0) goto fail;
        r->face_one[c] = one;
    }
    for (int c = 0; c < NCARDS; c++) {
        r->kind[c] = c;
        for (int d = 0; d < c; d++) {
            if (r->nplayed[d] == r->nplayed[c] && r->npair[d] == r->npair[c] &&
                r->face_one[d] == r->face_one[c] &&
                !memcmp(r->played[d], r->played[c], sizeof(r->played[c])) &&
                !memcmp(r->pair_keys[d], r->pair_keys[c], sizeof(r->pair_keys[c]))) {
                r->kind[c] = d;
                break;
            }
        }
    }
    r->max_value = max_value;
    r->max_build = max_build;
    r->maxv = max_value > max_build ? max_value : max_build;
    r->alt_delta = alt_delta;
    r->ace_alt = ace_alt;
    r->building = building;
    r->raise_own = raise_own;
    r->compulsory = compulsory;
    r->cardinality = cardinality;
    r->forced_sweep = forced_sweep;
    r->players = 2;
    r->direction = 1;
    r->deal_size = 4;
    r->sweep_limit = -1;
    if (play != NULL && read_play(play, scheme, weights, r) < 0) goto fail;
    /* A position means another thing under other rules: the transposition table, kept
     * from one search to the next, tells them apart by this number. */
    static uint64_t made = 0;
    r->salt = ++made;
    PyObject *capsule = PyCapsule_New(r, RULES_CAPSULE, rules_free);
    if (capsule == NULL) PyMem_Free(r);
    return capsule;
fail:
    PyMem_Free(r);
    return NULL;
}

/* ---------------------------------------------------------------- bind */

static PyObject *bind(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *mt, *kinds;
    if (!PyArg_ParseTuple(args, "O!O!:bind", &PyType_Type, &mt, &PyTuple_Type, &kinds))
        return NULL;
    if (PyTuple_GET_SIZE(kinds) != 5) {
        PyErr_SetString(PyExc_ValueError, "bind needs the five kinds of move");
        return NULL;
    }
    for (int k = 0; k < 5; k++) {
        if (!PyUnicode_Check(PyTuple_GET_ITEM(kinds, k))) {
            PyErr_SetString(PyExc_TypeError, "a kind of move is text");
            return NULL;
        }
    }
    Py_INCREF(mt);
    Py_XSETREF(move_type, mt);
    for (int k = 0; k < 5; k++) {
        PyObject *s = PyTuple_GET_ITEM(kinds, k);
        Py_INCREF(s);
        Py_XSETREF(kind_names[k], s);
    }
    Py_RETURN_NONE;
}

/* ---------------------------------------------------------------- generate */

typedef struct {
    PyObject *out;      /* list of Move */
    PyObject *builds;   /* the table's Build objects */
    const Gen *g;
} EmitCtx;

static PyObject *group_tuple(const Gen *g, mask_t m, int lead_card) {
    int cards[MAX_LOOSE + 1], n = 0;
    for (mask_t x = m; x; x &= x - 1) cards[n++] = g->loose[__builtin_ctzll(x)];
    /* high card first */
    for (int i = 1; i < n; i++) {
        int key = cards[i], j = i - 1;
        while (j >= 0 && cards[j] < key) {
            cards[j + 1] = cards[j];
            j--;
        }
        cards[j + 1] = key;
    }
    int lead = lead_card >= 0;
    PyObject *t = PyTuple_New(n + lead);
    if (t == NULL) return NULL;
    if (lead) {
        Py_INCREF(card_ints[lead_card]);
        PyTuple_SET_ITEM(t, 0, card_ints[lead_card]);
    }
    for (int i = 0; i < n; i++) {
        Py_INCREF(card_ints[cards[i]]);
        PyTuple_SET_ITEM(t, i + lead, card_ints[cards[i]]);
    }
    return t;
}

static int set_field(PyObject *obj, PyObject *name, PyObject *value) {
    int rc = PyObject_GenericSetAttr(obj, name, value);
    Py_DECREF(value);
    return rc;
}

static int emit_move(void *vctx, const Found *f) {
    EmitCtx *ctx = (EmitCtx *)vctx;
    const Gen *g = ctx->g;
    PyTypeObject *tp = (PyTypeObject *)move_type;
    PyObject *m = tp->tp_alloc(tp, 0);
    if (m == NULL) return -1;
    /* loose: the cards, sorted */
    int cards[MAX_LOOSE];
    int n = mask_cards(g->loose, f->loose, cards);
    PyObject *loose = n ? PyTuple_New(n) : Py_NewRef(empty_tuple);
    if (loose == NULL) goto fail;
    for (int i = 0; n && i < n; i++) PyTuple_SET_ITEM(loose, i, Py_NewRef(card_ints[cards[i]]));
    PyObject *builds = f->nbuilds ? PyTuple_New(f->nbuilds) : Py_NewRef(empty_tuple);
    if (builds == NULL) {
        Py_DECREF(loose);
        goto fail;
    }
    for (int i = 0; i < f->nbuilds; i++)
        PyTuple_SET_ITEM(builds, i, Py_NewRef(PyTuple_GET_ITEM(ctx->builds, f->builds[i])));
    PyObject *groups = f->ngroups ? PyTuple_New(f->ngroups) : Py_NewRef(empty_tuple);
    if (groups == NULL) {
        Py_DECREF(loose);
        Py_DECREF(builds);
        goto fail;
    }
    for (int i = 0; i < f->ngroups; i++) {
        PyObject *gt = group_tuple(g, f->groups[i], (i == 0 && f->lead) ? f->card : -1);
        if (gt == NULL) {
            Py_DECREF(loose);
            Py_DECREF(builds);
            Py_DECREF(groups);
            goto fail;
        }
        PyTuple_SET_ITEM(groups, i, gt);
    }
    if (set_field(m, str_kind, Py_NewRef(kind_names[f->kind])) < 0 ||
        set_field(m, str_card, Py_NewRef(card_ints[f->card])) < 0 ||
        set_field(m, str_loose, loose) < 0 || set_field(m, str_builds, builds) < 0) {
        Py_DECREF(groups);
        goto fail;
    }
    PyObject *value = PyLong_FromLong(f->value);
    if (value == NULL || set_field(m, str_value, value) < 0) {
        Py_DECREF(groups);
        goto fail;
    }
    if (set_field(m, str_groups, groups) < 0) goto fail;
    int rc = PyList_Append(ctx->out, m);
    Py_DECREF(m);
    return rc;
fail:
    Py_DECREF(m);
    return -1;
}

/* Read the table's builds: value, owner, cards, and whether multiple (groups > 1).
 * -1 with an exception set; -2 when a build has more cards than the core holds. */
static int read_builds(PyObject *builds, CoreBuild *out, int seats) {
    Py_ssize_t nb = PyTuple_GET_SIZE(builds);
    for (Py_ssize_t j = 0; j < nb; j++) {
        PyObject *b = PyTuple_GET_ITEM(builds, j);
        CoreBuild *cb = &out[j];
        PyObject *v = PyObject_GetAttr(b, str_value);
        PyObject *o = v ? PyObject_GetAttr(b, str_owner) : NULL;
        PyObject *cs = o ? PyObject_GetAttr(b, str_cards) : NULL;
        PyObject *gs = cs ? PyObject_GetAttr(b, str_groups) : NULL;
        int rc = -1;
        long value, owner;
        if (gs != NULL && small_int(v, 1, MAX_VALUES, "a build's value", &value) == 0 &&
            small_int(o, 0, seats - 1, "a build's owner", &owner) == 0) {
            int n = (PyTuple_Check(cs) && PyTuple_GET_SIZE(cs) > MAX_BUILD_CARDS)
                        ? -2
                        : int_tuple(cs, cb->cards, MAX_BUILD_CARDS, 0, NCARDS - 1,
                                    "a build's cards");
            if (n == -2) {
                rc = -2;
            } else if (n >= 0) {
                if (!PyTuple_Check(gs)) {
                    PyErr_SetString(PyExc_TypeError, "a build's groups must be a tuple");
                } else {
                    cb->ncards = n;
                    cb->value = (int)value;
                    cb->owner = (int)owner;
                    cb->multiple = PyTuple_GET_SIZE(gs) > 1;
                    rc = 0;
                }
            }
        }
        Py_XDECREF(v);
        Py_XDECREF(o);
        Py_XDECREF(cs);
        Py_XDECREF(gs);
        if (rc < 0) return rc;
        cb->ident = (int)j;
        for (Py_ssize_t k = 0; k < j; k++) {
            const CoreBuild *e = &out[k];
            if (e->value == cb->value && e->owner == cb->owner && e->ncards == cb->ncards &&
                !memcmp(e->cards, cb->cards, (size_t)cb->ncards * sizeof(int))) {
                cb->ident = (int)k;
                break;
            }
        }
    }
    return 0;
}

/* generate(rules, hand, loose, builds, seat, steps) -> (moves, steps_left)
 *
 * Every legal move of the seat holding ``hand`` on a table of ``loose`` cards and
 * ``builds`` (Build objects), as casino.engine.movegen.generate lists them.  ``steps``
 * < 0: no budget; else the budget's steps left, and ``moves`` is None when it runs out.
 * NotImplemented when the table is beyond the core's masks (the caller asks Python). */
static PyObject *generate(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *capsule, *hand, *loose, *builds;
    int seat;
    long long steps;
    if (!PyArg_ParseTuple(args, "OO!O!O!iL:generate", &capsule, &PyTuple_Type, &hand,
                          &PyTuple_Type, &loose, &PyTuple_Type, &builds, &seat, &steps))
        return NULL;
    CoreRules *r = (CoreRules *)PyCapsule_GetPointer(capsule, RULES_CAPSULE);
    if (r == NULL) return NULL;
    if (move_type == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "the core is not bound to the Move type yet");
        return NULL;
    }
    if (PyTuple_GET_SIZE(loose) > MAX_LOOSE || PyTuple_GET_SIZE(builds) > MAX_BUILDS ||
        PyTuple_GET_SIZE(hand) > MAX_HAND)
        Py_RETURN_NOTIMPLEMENTED;
    if (seat < 0 || seat > 3) {
        PyErr_Format(PyExc_ValueError, "seat must be between 0 and 3, not %d", seat);
        return NULL;
    }
    int hand_cards[MAX_HAND], loose_cards[MAX_LOOSE];
    CoreBuild cb[MAX_BUILDS];
    int nh = int_tuple(hand, hand_cards, MAX_HAND, 0, NCARDS - 1, "a card in hand");
    if (nh < 0) return NULL;
    int nl = int_tuple(loose, loose_cards, MAX_LOOSE, 0, NCARDS - 1, "a loose card");
    if (nl < 0) return NULL;
    int rb = read_builds(builds, cb, 4);
    if (rb == -2) Py_RETURN_NOTIMPLEMENTED;
    if (rb < 0) return NULL;
    for (int j = 0; j < (int)PyTuple_GET_SIZE(builds); j++) {
        if (cb[j].value > r->maxv) Py_RETURN_NOTIMPLEMENTED;
    }
    PyObject *out = PyList_New(0);
    if (out == NULL) return NULL;
    Gen g;
    memset(&g, 0, sizeof(g));
    g.rules = r;
    g.hand = hand_cards;
    g.nhand = nh;
    g.loose = loose_cards;
    g.nloose = nl;
    g.builds = cb;
    g.nbuilds = (int)PyTuple_GET_SIZE(builds);
    g.seat = seat;
    g.left = steps;
    EmitCtx ctx = {out, builds, &g};
    g.emit = emit_move;
    g.emit_ctx = &ctx;
    int code = core_generate(&g);
    if (code == GEN_PY_ERROR) {
        Py_DECREF(out);
        return NULL;
    }
    if (code == GEN_NO_MEMORY) {
        Py_DECREF(out);
        return PyErr_NoMemory();
    }
    if (code == GEN_OVER_BUDGET) {
        Py_DECREF(out);
        out = Py_NewRef(Py_None);
    }
    PyObject *result = Py_BuildValue("(NL)", out, g.budgeted ? g.left : -1LL);
    return result;
}


/* ---------------------------------------------------------------- whole positions */

static int card_list(PyObject *o, uint8_t *out, int max, const char *what) {
    int buf[MAX_STOCK + MAX_STOCK];
    if (PyTuple_Check(o) && PyTuple_GET_SIZE(o) > max) return -2;
    int n = int_tuple(o, buf, max, 0, NCARDS - 1, what);
    if (n < 0) return -1;
    for (int i = 0; i < n; i++) out[i] = (uint8_t)buf[i];
    return n;
}

static int seat_list(PyObject *o, uint8_t *out, int max, int players, const char *what) {
    int buf[MAX_SEQ];
    if (PyTuple_Check(o) && PyTuple_GET_SIZE(o) > max) return -2;
    int n = int_tuple(o, buf, max, 0, players - 1, what);
    if (n < 0) return -1;
    for (int i = 0; i < n; i++) out[i] = (uint8_t)buf[i];
    return n;
}

/* A position as casino/engine/core.py's state_of writes it:
 * (to_move, dealer, last_capture (-1: none), deal, round, hands, loose, builds, piles,
 *  sweeps, mulles, stock, set_aside, scores, carry_cards, carry_spades).
 * 0; -1 with an exception; -2 when it is beyond the core's sizes. */
static int parse_state(PyObject *t, const CoreRules *r, State *s) {
    if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 16) {
        PyErr_SetString(PyExc_TypeError, "a state is a tuple of 16 parts");
        return -1;
    }
    memset(s, 0, sizeof(*s));
    long v;
    int P = r->players;
    if (small_int(PyTuple_GET_ITEM(t, 0), 0, P - 1, "the seat to move", &v) < 0) return -1;
    s->to_move = (int8_t)v;
    if (small_int(PyTuple_GET_ITEM(t, 1), 0, P - 1, "the dealer", &v) < 0) return -1;
    s->dealer = (int8_t)v;
    if (small_int(PyTuple_GET_ITEM(t, 2), -1, P - 1, "the last capturer", &v) < 0) return -1;
    s->last_capture = (int8_t)v;
    if (small_int(PyTuple_GET_ITEM(t, 3), 0, 30000, "the deal", &v) < 0) return -1;
    s->deal = (int16_t)v;
    if (small_int(PyTuple_GET_ITEM(t, 4), 0, 30000, "the round", &v) < 0) return -1;
    s->round = (int16_t)v;
    s->winner = -1;
    PyObject *hands = PyTuple_GET_ITEM(t, 5), *piles = PyTuple_GET_ITEM(t, 8);
    PyObject *scores = PyTuple_GET_ITEM(t, 13);
    if (!PyTuple_Check(hands) || PyTuple_GET_SIZE(hands) != P || !PyTuple_Check(piles) ||
        PyTuple_GET_SIZE(piles) != P || !PyTuple_Check(scores) || PyTuple_GET_SIZE(scores) != P) {
        PyErr_SetString(PyExc_ValueError, "hands, piles and scores need one entry per seat");
        return -1;
    }
    int n;
    for (int seat = 0; seat < P; seat++) {
        n = card_list(PyTuple_GET_ITEM(hands, seat), s->hand[seat], MAX_HAND, "a card in hand");
        if (n < 0) return n;
        s->nhand[seat] = (uint8_t)n;
        uint8_t pile[MAX_STOCK];
        n = card_list(PyTuple_GET_ITEM(piles, seat), pile, MAX_STOCK, "a card in a pile");
        if (n < 0) return n;
        for (int i = 0; i < n; i++) {
            s->pile[seat][pile[i]]++;
            s->pile_hash += pile_card_hash(seat, pile[i]);
        }
        s->npile[seat] = (int16_t)n;
        if (small_int(PyTuple_GET_ITEM(scores, seat), -1000000, 1000000, "a score", &v) < 0)
            return -1;
        s->scores[seat] = (int32_t)v;
    }
    n = card_list(PyTuple_GET_ITEM(t, 6), s->loose, MAX_LOOSE, "a loose card");
    if (n < 0) return n;
    s->nloose = (uint8_t)n;
    PyObject *builds = PyTuple_GET_ITEM(t, 7);
    if (!PyTuple_Check(builds)) {
        PyErr_SetString(PyExc_TypeError, "builds must be a tuple");
        return -1;
    }
    if (PyTuple_GET_SIZE(builds) > MAX_BUILDS) return -2;
    CoreBuild cb[MAX_BUILDS];
    int rb = read_builds(builds, cb, P);
    if (rb < 0) return rb;
    s->nbuilds = (uint8_t)PyTuple_GET_SIZE(builds);
    for (int j = 0; j < s->nbuilds; j++) {
        if (cb[j].value > r->maxv) return -2;
        s->builds[j].value = (int8_t)cb[j].value;
        s->builds[j].owner = (int8_t)cb[j].owner;
        s->builds[j].multiple = (int8_t)cb[j].multiple;
        s->builds[j].ncards = (int8_t)cb[j].ncards;
        for (int i = 0; i < cb[j].ncards; i++) s->builds[j].cards[i] = (uint8_t)cb[j].cards[i];
    }
    n = seat_list(PyTuple_GET_ITEM(t, 9), s->sweeps, MAX_SEQ - 2, P, "a sweeper");
    if (n < 0) return n;
    s->nsweeps = (uint8_t)n;
    n = seat_list(PyTuple_GET_ITEM(t, 10), s->mulles, MAX_SEQ - 2, P, "a mulle's maker");
    if (n < 0) return n;
    s->nmulles = (uint8_t)n;
    n = card_list(PyTuple_GET_ITEM(t, 11), s->stock, MAX_STOCK, "a card in the stock");
    if (n < 0) return n;
    s->nstock = (uint8_t)n;
    n = card_list(PyTuple_GET_ITEM(t, 12), s->set_aside, MAX_STOCK, "a card set aside");
    if (n < 0) return n;
    s->nset_aside = (uint8_t)n;
    if (small_int(PyTuple_GET_ITEM(t, 14), -1000, 1000, "carried points", &v) < 0) return -1;
    s->carry_cards = (int32_t)v;
    if (small_int(PyTuple_GET_ITEM(t, 15), -1000, 1000, "carried points", &v) < 0) return -1;
    s->carry_spades = (int32_t)v;
    /* The sizes a round can reach: the rest is refused rather than overrun. */
    int total = s->nloose + s->nstock + s->nset_aside;
    for (int seat = 0; seat < P; seat++) total += s->nhand[seat] + s->npile[seat];
    for (int j = 0; j < s->nbuilds; j++) total += s->builds[j].ncards;
    if (total > MAX_STOCK) {
        PyErr_SetString(PyExc_ValueError, "a position holds at most 104 cards");
        return -1;
    }
    return 0;
}

static PyObject *bytes_tuple(const uint8_t *a, int n) {
    PyObject *t = PyTuple_New(n);
    if (t == NULL) return NULL;
    for (int i = 0; i < n; i++) PyTuple_SET_ITEM(t, i, Py_NewRef(card_ints[a[i]]));
    return t;
}

static PyObject *longs_tuple(const long *a, int n) {
    PyObject *t = PyTuple_New(n);
    if (t == NULL) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *x = PyLong_FromLong(a[i]);
        if (x == NULL) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, x);
    }
    return t;
}

static PyObject *seats_tuple(const uint8_t *a, int n) {
    long xs[MAX_SEQ];
    for (int i = 0; i < n; i++) xs[i] = a[i];
    return longs_tuple(xs, n);
}

static PyObject *ints_tuple(const int32_t *a, int n) {
    long xs[MAX_SEATS];
    for (int i = 0; i < n; i++) xs[i] = a[i];
    return longs_tuple(xs, n);
}

/* The state as a tuple of the same parts, builds as (value, owner, cards, multiple) and
 * piles as sorted tuples, then whether the round is over, its points by side and the
 * winner (-1: none): what tests/test_core.py compares with the engine's successor. */
static PyObject *state_tuple(const CoreRules *r, const State *s) {
    int P = r->players;
    PyObject *hands = PyTuple_New(P), *piles = PyTuple_New(P), *builds = PyTuple_New(s->nbuilds);
    if (!hands || !piles || !builds) goto fail;
    for (int seat = 0; seat < P; seat++) {
        PyObject *h = bytes_tuple(s->hand[seat], s->nhand[seat]);
        if (h == NULL) goto fail;
        PyTuple_SET_ITEM(hands, seat, h);
        uint8_t cards[MAX_STOCK];
        int n = 0;
        for (int c = 0; c < NCARDS; c++)
            for (int k = 0; k < s->pile[seat][c]; k++) cards[n++] = (uint8_t)c;
        PyObject *p = bytes_tuple(cards, n);
        if (p == NULL) goto fail;
        PyTuple_SET_ITEM(piles, seat, p);
    }
    for (int j = 0; j < s->nbuilds; j++) {
        const SBuild *b = &s->builds[j];
        PyObject *cs = bytes_tuple(b->cards, b->ncards);
        if (cs == NULL) goto fail;
        PyObject *bt = Py_BuildValue("(iiNO)", b->value, b->owner, cs,
                                     b->multiple ? Py_True : Py_False);
        if (bt == NULL) goto fail;
        PyTuple_SET_ITEM(builds, j, bt);
    }
    int32_t scores[MAX_SEATS];
    for (int t = 0; t < P; t++) scores[t] = s->scores[t];
    return Py_BuildValue("(iiiiiNNNNNNNNNiiONi)", s->to_move, s->dealer, s->last_capture, s->deal,
                         s->round, hands, bytes_tuple(s->loose, s->nloose), builds, piles,
                         seats_tuple(s->sweeps, s->nsweeps), seats_tuple(s->mulles, s->nmulles),
                         bytes_tuple(s->stock, s->nstock),
                         bytes_tuple(s->set_aside, s->nset_aside), ints_tuple(scores, P),
                         s->carry_cards, s->carry_spades, s->over ? Py_True : Py_False,
                         ints_tuple(s->points, nteams(r)), s->winner);
fail:
    Py_XDECREF(hands);
    Py_XDECREF(piles);
    Py_XDECREF(builds);
    return NULL;
}

static CoreRules *rules_of(PyObject *capsule, int need_play) {
    CoreRules *r = (CoreRules *)PyCapsule_GetPointer(capsule, RULES_CAPSULE);
    if (r != NULL && need_play && !r->play_ready) {
        PyErr_SetString(PyExc_ValueError, "these rules were made without their play numbers");
        return NULL;
    }
    return r;
}

/* successor(rules, state, index) -> state: the position after the index-th legal move
 * (in the engine's order), as state_tuple writes it; NotImplemented beyond the core. */
static PyObject *successor(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *capsule, *st;
    int index;
    if (!PyArg_ParseTuple(args, "OOi:successor", &capsule, &st, &index)) return NULL;
    CoreRules *r = rules_of(capsule, 1);
    if (r == NULL) return NULL;
    State s;
    int rc = parse_state(st, r, &s);
    if (rc == -2) Py_RETURN_NOTIMPLEMENTED;
    if (rc < 0) return NULL;
    SMove *moves;
    int n = state_moves(r, &s, &moves, NULL);
    if (n < 0) Py_RETURN_NOTIMPLEMENTED;
    if (index < 0 || index >= n) {
        free(moves);
        PyErr_Format(PyExc_IndexError, "there are %d legal moves, not %d", n, index + 1);
        return NULL;
    }
    state_apply(r, &s, &moves[index]);
    free(moves);
    return state_tuple(r, &s);
}

/* solve(rules, states, seat, terminal, roots, cap, seconds, max_nodes, horizon[, depth,
 *       max_moves, fresh])
 *     -> (rows, nodes, status)
 *
 * Each of ``states`` (whole positions: the true one, or samples of the hidden cards that
 * agree on what the mover sees) searched by the core for ``seat``, the player to move:
 * one row per state, the value of each root move named by its index in the engine's
 * order (``roots``; the same in every state, which share the mover's hand and the
 * table). ``terminal`` 0: the round's margin, 1: the game (solver.game_value).
 * ``horizon`` 0: to the round's end; 1: to the deal's end, evaluated there; ``depth``:
 * plies at most from the root (the evaluation standing in past them; default: the
 * horizon), as Searcher.values(pos, moves, depth); ``max_moves``: moves searched at
 * most at an inner node (the table's best first, then the static order; 0: all).
 * ``fresh``: forget what earlier searches stored first, so that the nodes counted, and
 * so where ``max_nodes`` stops, depend on this call alone (the values never do).
 * ``cap`` < 0: every root move's exact value; else Searcher.values' loss cap: root
 * moves in the order of their totals so far, each searched with the window
 * (best - cap, +inf), so a move worse by cap or more gets a bound that proves it
 * (cap 0: the best exactly, the others no better). ``seconds`` <= 0 and ``max_nodes``
 * < 0: no limit. ``rows`` holds the states searched whole; status 0: every state;
 * 1: the time or the nodes ran out; 2: a state beyond the core's sizes was met. */
static PyObject *solve(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *capsule, *states, *roots;
    int seat, terminal, horizon, depth = EXACT_DEPTH, max_moves = 0, fresh = 0;
    double cap, seconds;
    long long max_nodes;
    if (!PyArg_ParseTuple(args, "OO!iiO!ddLi|iip:solve", &capsule, &PyTuple_Type, &states,
                          &seat, &terminal, &PyTuple_Type, &roots, &cap, &seconds, &max_nodes,
                          &horizon, &depth, &max_moves, &fresh))
        return NULL;
    if (depth < 1 || max_moves < 0) {
        PyErr_SetString(PyExc_ValueError, "a search is one ply deep or more, of 0 moves or more");
        return NULL;
    }
    CoreRules *r = rules_of(capsule, 1);
    if (r == NULL) return NULL;
    if (seat < 0 || seat >= r->players || terminal < 0 || terminal > 1) {
        PyErr_SetString(PyExc_ValueError, "a seat of the game and a terminal of 0 or 1");
        return NULL;
    }
    if (horizon != HORIZON_ROUND && horizon != HORIZON_DEAL) {
        PyErr_SetString(PyExc_ValueError, "the horizon is 0 (the round) or 1 (the deal)");
        return NULL;
    }
    if ((horizon == HORIZON_DEAL || depth < EXACT_DEPTH) && (!r->eval_ready || r->players != 2)) {
        PyErr_SetString(PyExc_ValueError,
                        "a search to the deal's end or to a depth needs the evaluation "
                        "(two players)");
        return NULL;
    }
    if (!search_ready()) return PyErr_NoMemory();
    if (fresh) search_forget();
    Py_ssize_t nr = PyTuple_GET_SIZE(roots), ns = PyTuple_GET_SIZE(states);
    int *idx = (int *)malloc((size_t)(nr ? nr : 1) * sizeof(int));
    int *order = (int *)malloc((size_t)(nr ? nr : 1) * sizeof(int));
    double *vals = (double *)malloc((size_t)(nr ? nr : 1) * sizeof(double));
    double *totals = (double *)calloc((size_t)(nr ? nr : 1), sizeof(double));
    PyObject *rows = PyList_New(0);
    static State s;  /* a State is large; the GIL makes a static one safe */
    SMove *moves = NULL;
    Search S;
    memset(&S, 0, sizeof(S));
    int status = 0;
    if (!idx || !order || !vals || !totals || !rows) {
        PyErr_NoMemory();
        goto error;
    }
    for (Py_ssize_t i = 0; i < nr; i++) {
        long v;
        if (small_int(PyTuple_GET_ITEM(roots, i), 0, 1 << 20, "a root move's index", &v) < 0)
            goto error;
        idx[i] = (int)v;
        order[i] = (int)i;
    }
    S.rules = r;
    S.seat = seat;
    S.terminal = terminal;
    S.max_nodes = max_nodes;
    S.horizon = horizon;
    S.max_moves = max_moves;
    S.deadline = seconds > 0 ? monotonic_seconds() + seconds : 0;
    for (volatile Py_ssize_t k = 0; k < ns && status == 0; k++) {
        int rc = parse_state(PyTuple_GET_ITEM(states, k), r, &s);
        if (rc == -2) {
            status = SEARCH_TOO_BIG;
            break;
        }
        if (rc < 0) goto error;
        if (s.to_move != seat || s.over) {
            PyErr_SetString(PyExc_ValueError, "the root seat must be the one to move");
            goto error;
        }
        int n = state_moves(r, &s, &moves, NULL);
        if (n < 0) {
            status = SEARCH_TOO_BIG;
            break;
        }
        for (Py_ssize_t i = 0; i < nr; i++) {
            if (idx[i] >= n) {
                PyErr_Format(PyExc_ValueError, "there are %d legal moves, not %d", n, idx[i] + 1);
                goto error;
            }
        }
        S.root_deal = s.deal;
        status = setjmp(S.stop);
        if (status == 0) {
            double best = -1e300;
            for (Py_ssize_t j = 0; j < nr; j++) {
                int i = order[j];
                State child = s;
                state_apply(r, &child, &moves[idx[i]]);
                double alpha = cap < 0 ? -1e300 : best - cap;
                vals[i] = search_value(&S, &child, alpha, 1e300, depth - 1);
                if (vals[i] > best) best = vals[i];
            }
            PyObject *row = PyList_New(nr);
            if (row == NULL) goto error;
            for (Py_ssize_t i = 0; i < nr; i++) {
                PyObject *x = PyFloat_FromDouble(vals[i]);
                if (x == NULL) {
                    Py_DECREF(row);
                    goto error;
                }
                PyList_SET_ITEM(row, i, x);
                totals[i] += vals[i];
            }
            int rc2 = PyList_Append(rows, row);
            Py_DECREF(row);
            if (rc2 < 0) goto error;
            /* the next state searches the likely best first (stable, ties keep order) */
            for (Py_ssize_t a = 1; a < nr; a++) {
                int key = order[a];
                Py_ssize_t b2 = a - 1;
                while (b2 >= 0 && totals[order[b2]] < totals[key]) {
                    order[b2 + 1] = order[b2];
                    b2--;
                }
                order[b2 + 1] = key;
            }
        } else if (status == SEARCH_NO_MEMORY) {
            status = SEARCH_TOO_BIG;
        }
        free(moves);
        moves = NULL;
        S.top = 0;
    }
    free(S.stack);
    free(idx);
    free(order);
    free(vals);
    free(totals);
    return Py_BuildValue("(NLi)", rows, S.nodes, status);
error:
    free(moves);
    free(S.stack);
    free(idx);
    free(order);
    free(vals);
    free(totals);
    Py_XDECREF(rows);
    return NULL;
}

/* set_evaluation(rules, direct, cards_points, spades_points, spades_carries, deck_size,
 *                decks, sweep_points, casino_scoring, params)
 * The bots' evaluation for this ruleset: evaluation.direct_points of every card, the
 * majorities (-1: none), and params = (build_keep_safe, build_keep_threatened, tempo,
 * clump_cards, clump_spades, *deal_start, *deal_start_last): 11 numbers. */
static PyObject *set_evaluation(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *capsule, *direct, *params;
    int cards_points, spades_points, spades_carries, deck_size, decks, sweep_points, casino;
    if (!PyArg_ParseTuple(args, "OO!iipiiipO!:set_evaluation", &capsule, &PyTuple_Type, &direct,
                          &cards_points, &spades_points, &spades_carries, &deck_size, &decks,
                          &sweep_points, &casino, &PyTuple_Type, &params))
        return NULL;
    CoreRules *r = rules_of(capsule, 1);
    if (r == NULL) return NULL;
    if (PyTuple_GET_SIZE(direct) != NCARDS || PyTuple_GET_SIZE(params) != 11) {
        PyErr_SetString(PyExc_ValueError, "52 card points and 11 parameters");
        return NULL;
    }
    double d[NCARDS], p[11];
    for (int c = 0; c < NCARDS; c++) {
        d[c] = PyFloat_AsDouble(PyTuple_GET_ITEM(direct, c));
        if (d[c] == -1.0 && PyErr_Occurred()) return NULL;
    }
    for (int i = 0; i < 11; i++) {
        p[i] = PyFloat_AsDouble(PyTuple_GET_ITEM(params, i));
        if (p[i] == -1.0 && PyErr_Occurred()) return NULL;
    }
    if (deck_size != 52 * decks || decks < 1 || decks > 2) {
        PyErr_SetString(PyExc_ValueError, "a deck of 52 or 104 cards");
        return NULL;
    }
    memcpy(r->direct, d, sizeof(d));
    r->cards_points = cards_points;
    r->spades_points = spades_points;
    r->spades_carries = spades_carries;
    r->deck_size = deck_size;
    r->decks = decks;
    r->sweep_points = sweep_points;
    r->casino_scoring = casino;
    r->build_keep_safe = p[0];
    r->build_keep_threatened = p[1];
    r->tempo = p[2];
    r->clump_cards = p[3];
    r->clump_spades = p[4];
    for (int i = 0; i < 3; i++) {
        r->deal_start[i] = p[5 + i];
        r->deal_start_last[i] = p[8 + i];
    }
    r->eval_ready = 1;
    Py_RETURN_NONE;
}

/* evaluate(rules, state, seat, deal_start) -> float: evaluation.estimate (or, with
 * deal_start, deal_start_estimate) of a whole two-player position, for the tests. */
static PyObject *evaluate_state(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *capsule, *st;
    int seat, deal_start;
    if (!PyArg_ParseTuple(args, "OOip:evaluate", &capsule, &st, &seat, &deal_start)) return NULL;
    CoreRules *r = rules_of(capsule, 1);
    if (r == NULL) return NULL;
    if (!r->eval_ready || r->players != 2 || seat < 0 || seat > 1) {
        PyErr_SetString(PyExc_ValueError, "the evaluation is set for two players only");
        return NULL;
    }
    static State s;
    int rc = parse_state(st, r, &s);
    if (rc == -2) Py_RETURN_NOTIMPLEMENTED;
    if (rc < 0) return NULL;
    return PyFloat_FromDouble(evaluate(r, &s, seat, deal_start));
}

/* best_capture(rules, card, value, loose, scores, steps) -> (cards, steps_left)
 *
 * Of ``card``'s captures of ``value`` from the ``loose`` cards (builds aside), the one
 * whose cards' ``scores`` (one number a loose card, by place) add up to the most: its
 * loose cards, sorted (() when none scores above nothing), or None when ``steps`` (the
 * generator's, < 0: none) ran out first; NotImplemented beyond the core's masks. */
static PyObject *best_capture(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *capsule, *loose, *scores;
    int card, value;
    long long steps;
    if (!PyArg_ParseTuple(args, "OiiO!O!L:best_capture", &capsule, &card, &value,
                          &PyTuple_Type, &loose, &PyTuple_Type, &scores, &steps))
        return NULL;
    CoreRules *r = rules_of(capsule, 0);
    if (r == NULL) return NULL;
    if (card < 0 || card >= NCARDS || value < 0 || value > MAX_VALUES) {
        PyErr_SetString(PyExc_ValueError, "a card id and a value between 0 and 16");
        return NULL;
    }
    if (PyTuple_GET_SIZE(loose) > MAX_LOOSE) Py_RETURN_NOTIMPLEMENTED;
    int loose_cards[MAX_LOOSE], score[MAX_LOOSE];
    int nl = int_tuple(loose, loose_cards, MAX_LOOSE, 0, NCARDS - 1, "a loose card");
    if (nl < 0) return NULL;
    if (PyTuple_GET_SIZE(scores) != nl) {
        PyErr_SetString(PyExc_ValueError, "one score a loose card");
        return NULL;
    }
    if (int_tuple(scores, score, MAX_LOOSE, -1000000, 1000000, "a score") < 0) return NULL;
    Gen g;
    memset(&g, 0, sizeof(g));
    g.rules = r;
    g.loose = loose_cards;
    g.nloose = nl;
    g.left = steps;
    mask_t best = 0;
    int code = core_best_capture(&g, card, value, score, &best);
    if (code == GEN_NO_MEMORY) return PyErr_NoMemory();
    if (code == GEN_OVER_BUDGET) return Py_BuildValue("(OL)", Py_None, g.left);
    int cards[MAX_LOOSE];
    int n = mask_cards(loose_cards, best, cards);
    PyObject *t = PyTuple_New(n);
    if (t == NULL) return NULL;
    for (int i = 0; i < n; i++) PyTuple_SET_ITEM(t, i, Py_NewRef(card_ints[cards[i]]));
    return Py_BuildValue("(NL)", t, g.budgeted ? g.left : -1LL);
}

static int count_move(void *vctx, const Found *f) {
    (void)f;
    (*(long long *)vctx)++;
    return 0;
}

/* count_moves(rules, hand, loose, builds, seat, repeat) -> moves
 *
 * The legal moves of a position counted ``repeat`` times over inside the core, making no
 * Python object: what benchmarks/bench_engine.py times as the core's own speed. */
static PyObject *count_moves(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *capsule, *hand, *loose, *builds;
    int seat, repeat;
    if (!PyArg_ParseTuple(args, "OO!O!O!ii:count_moves", &capsule, &PyTuple_Type, &hand,
                          &PyTuple_Type, &loose, &PyTuple_Type, &builds, &seat, &repeat))
        return NULL;
    CoreRules *r = (CoreRules *)PyCapsule_GetPointer(capsule, RULES_CAPSULE);
    if (r == NULL) return NULL;
    if (PyTuple_GET_SIZE(loose) > MAX_LOOSE || PyTuple_GET_SIZE(builds) > MAX_BUILDS ||
        PyTuple_GET_SIZE(hand) > MAX_HAND)
        Py_RETURN_NOTIMPLEMENTED;
    if (seat < 0 || seat > 3 || repeat < 0) {
        PyErr_SetString(PyExc_ValueError, "seat must be between 0 and 3, repeat at least 0");
        return NULL;
    }
    int hand_cards[MAX_HAND], loose_cards[MAX_LOOSE];
    CoreBuild cb[MAX_BUILDS];
    int nh = int_tuple(hand, hand_cards, MAX_HAND, 0, NCARDS - 1, "a card in hand");
    if (nh < 0) return NULL;
    int nl = int_tuple(loose, loose_cards, MAX_LOOSE, 0, NCARDS - 1, "a loose card");
    if (nl < 0) return NULL;
    int rb = read_builds(builds, cb, 4);
    if (rb == -2) Py_RETURN_NOTIMPLEMENTED;
    if (rb < 0) return NULL;
    long long total = 0;
    for (int k = 0; k < repeat; k++) {
        Gen g;
        memset(&g, 0, sizeof(g));
        g.rules = r;
        g.hand = hand_cards;
        g.nhand = nh;
        g.loose = loose_cards;
        g.nloose = nl;
        g.builds = cb;
        g.nbuilds = (int)PyTuple_GET_SIZE(builds);
        g.seat = seat;
        g.left = -1;
        g.emit = count_move;
        g.emit_ctx = &total;
        if (core_generate(&g) == GEN_NO_MEMORY) return PyErr_NoMemory();
    }
    return PyLong_FromLongLong(total);
}

/* ---------------------------------------------------------------- the module */

static PyMethodDef core_methods[] = {
    {"make_rules", make_rules, METH_VARARGS, "A ruleset's card tables, held for the core."},
    {"bind", bind, METH_VARARGS, "Bind the Move type and the names of the kinds of move."},
    {"generate", generate, METH_VARARGS,
     "Every legal move, as casino.engine.movegen.generate lists them."},
    {"successor", successor, METH_VARARGS,
     "The position after the index-th legal move, as a tuple (for the tests)."},
    {"solve", solve, METH_VARARGS,
     "The rest of the round searched exactly: the value of each root move."},
    {"set_evaluation", set_evaluation, METH_VARARGS,
     "The bots' evaluation for a ruleset (two players)."},
    {"evaluate", evaluate_state, METH_VARARGS,
     "The evaluation of a whole two-player position (for the tests)."},
    {"best_capture", best_capture, METH_VARARGS,
     "The capture of a value whose cards score the most."},
    {"count_moves", count_moves, METH_VARARGS,
     "The legal moves counted inside the core, for the benchmarks."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT,
    "casino.engine._core",
    "The compiled search core of casino: move generation on compact positions.",
    -1,
    core_methods,
    NULL,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC PyInit__core(void) {
    PyObject *m = PyModule_Create(&core_module);
    if (m == NULL) return NULL;
    if (PyModule_AddIntConstant(m, "ABI", CORE_ABI) < 0) goto fail;
    if (PyModule_AddIntConstant(m, "NODE_STEPS", NODE_STEPS) < 0) goto fail;
    if (PyModule_AddIntConstant(m, "EXACT_DEPTH", EXACT_DEPTH) < 0) goto fail;
    for (int c = 0; c < NCARDS; c++) {
        card_ints[c] = PyLong_FromLong(c);
        if (card_ints[c] == NULL) goto fail;
    }
    empty_tuple = PyTuple_New(0);
    str_kind = PyUnicode_InternFromString("kind");
    str_card = PyUnicode_InternFromString("card");
    str_loose = PyUnicode_InternFromString("loose");
    str_builds = PyUnicode_InternFromString("builds");
    str_value = PyUnicode_InternFromString("value");
    str_groups = PyUnicode_InternFromString("groups");
    str_owner = PyUnicode_InternFromString("owner");
    str_cards = PyUnicode_InternFromString("cards");
    if (!empty_tuple || !str_kind || !str_card || !str_loose || !str_builds || !str_value ||
        !str_groups || !str_owner || !str_cards)
        goto fail;
    return m;
fail:
    Py_DECREF(m);
    return NULL;
}
