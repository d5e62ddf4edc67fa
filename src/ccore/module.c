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

/* make_rules(played, sum_value, sum_alt, pair_played, pair_table, holds, face_one,
 *            max_value, max_build, alt_delta, ace_alt, building, raise_own, compulsory,
 *            cardinality, forced_sweep) -> capsule
 * The per-card tuples are those of casino.engine.rules.CardTable (52 entries each). */
static PyObject *make_rules(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *played, *sum_value, *sum_alt, *pair_played, *pair_table, *holds, *face_one;
    int max_value, max_build, alt_delta, ace_alt, building, raise_own, compulsory, cardinality,
        forced_sweep;
    if (!PyArg_ParseTuple(args, "O!O!O!O!O!O!O!iiiippppp:make_rules", &PyTuple_Type, &played,
                          &PyTuple_Type, &sum_value, &PyTuple_Type, &sum_alt, &PyTuple_Type,
                          &pair_played, &PyTuple_Type, &pair_table, &PyTuple_Type, &holds,
                          &PyTuple_Type, &face_one, &max_value, &max_build, &alt_delta,
                          &ace_alt, &building, &raise_own, &compulsory, &cardinality,
                          &forced_sweep))
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
    int cards[MAX_LOOSE], n = 0;
    for (mask_t x = f->loose; x; x &= x - 1) cards[n++] = g->loose[__builtin_ctzll(x)];
    for (int i = 1; i < n; i++) {
        int key = cards[i], j = i - 1;
        while (j >= 0 && cards[j] > key) {
            cards[j + 1] = cards[j];
            j--;
        }
        cards[j + 1] = key;
    }
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

/* Read the table's builds: value, owner, cards, and whether multiple (groups > 1). */
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
            int n = int_tuple(cs, cb->cards, MAX_LOOSE, 0, NCARDS - 1, "a build's cards");
            if (n >= 0) {
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
        if (rc < 0) return -1;
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
    if (read_builds(builds, cb, 4) < 0) return NULL;
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
    if (read_builds(builds, cb, 4) < 0) return NULL;
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
