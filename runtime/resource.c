/* Session resources: resource variables keyed by "container/name". */
#include "runtime/resource.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void mt_state_init(mt_session_state* st) {
  memset(st, 0, sizeof(*st));
  pthread_mutex_init(&st->mu, NULL);
}

static void var_free(mt_var* v) {
  free(v->key);
  mt_tensor_free(v->value);
  pthread_mutex_destroy(&v->mu);
  free(v);
}

void mt_state_clear(mt_session_state* st) {
  pthread_mutex_lock(&st->mu);
  for (int k = 0; k < st->nvars; k++) var_free(st->vars[k]);
  free(st->vars);
  st->vars = NULL;
  st->nvars = st->cap = 0;
  for (int k = 0; k < st->nrngs; k++) {
    pthread_mutex_destroy(&st->rngs[k]->mu);
    free(st->rngs[k]);
  }
  free(st->rngs);
  st->rngs = NULL;
  st->nrngs = st->rng_cap = 0;
  for (int k = 0; k < st->nobjs; k++) {
    free(st->obj_keys[k]);
    mt_variant_unref(st->objs[k]);
  }
  free(st->obj_keys);
  free(st->objs);
  st->obj_keys = NULL;
  st->objs = NULL;
  st->nobjs = st->obj_cap = 0;
  pthread_mutex_unlock(&st->mu);
}

/* Room for one more object; st->mu held. */
static int grow_objs(mt_session_state* st) {
  if (st->nobjs < st->obj_cap) return 1;
  const int cap = st->obj_cap ? st->obj_cap * 2 : 8;
  char** keys = realloc(st->obj_keys, sizeof(*keys) * (size_t)cap);
  if (keys) st->obj_keys = keys;
  mt_variant** objs = keys ? realloc(st->objs, sizeof(*objs) * (size_t)cap) : NULL;
  if (objs) st->objs = objs;
  if (!keys || !objs) return 0;
  st->obj_cap = cap;
  return 1;
}

mt_variant* mt_state_object(mt_session_state* st, const char* key, const char* type_name,
                            mt_variant* (*make)(void* arg, TF_Status* s), void* arg,
                            int* created, TF_Status* s) {
  mt_variant* obj = NULL;
  *created = 0;
  pthread_mutex_lock(&st->mu);
  for (int k = 0; k < st->nobjs && !obj; k++)
    if (strcmp(st->obj_keys[k], key) == 0) obj = st->objs[k];
  if (obj && obj->type_name != type_name) {
    mt_status_setf(s, TF_INVALID_ARGUMENT,
                   "Trying to access resource %s as type %s, but it has type %s", key, type_name,
                   obj->type_name);
    obj = NULL;
  } else if (obj) {
    mt_variant_ref(obj);
  } else if (!grow_objs(st) || !(st->obj_keys[st->nobjs] = strdup(key))) {
    mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "OOM creating resource %s", key);
  } else if ((obj = make(arg, s)) != NULL) {
    st->objs[st->nobjs++] = mt_variant_ref(obj);
    *created = 1;
  } else {
    free(st->obj_keys[st->nobjs]);
  }
  pthread_mutex_unlock(&st->mu);
  return obj;
}

static void handle_free(void* data, size_t len, void* arg) {
  mt_resource_handle* h = data;
  free(h->container);
  free(h->name);
  mt_variant_unref(h->obj);
  free(h);
}

TF_Tensor* mt_resource_tensor_new(const char* container, const char* name, TF_DataType dtype,
                                  const mt_shape* shape, TF_Status* s) {
  mt_resource_handle* h = mt_calloc(1, sizeof(*h), s);
  if (!h) return NULL;
  h->container = strdup(container && *container ? container : "localhost");
  h->name = strdup(name ? name : "");
  h->dtype = dtype;
  h->shape = shape ? *shape : mt_shape_unknown();
  if (!h->container || !h->name) {
    handle_free(h, 0, NULL);
    mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "OOM creating a resource handle");
    return NULL;
  }
  TF_Tensor* t = mt_tensor_wrap(TF_RESOURCE, NULL, 0, h, sizeof(*h), handle_free, NULL, 0, s);
  if (!t) handle_free(h, 0, NULL);
  return t;
}

TF_Tensor* mt_resource_tensor_obj(const char* container, const char* name, mt_variant* obj,
                                  TF_Status* s) {
  TF_Tensor* t = mt_resource_tensor_new(container, name, (TF_DataType)0, NULL, s);
  if (t) ((mt_resource_handle*)t->buf->data)->obj = mt_variant_ref(obj);
  return t;
}

const mt_resource_handle* mt_resource_get(const TF_Tensor* t, TF_Status* s) {
  if (!t || t->dtype != TF_RESOURCE || t->ndims != 0 || !t->buf ||
      t->buf->len != sizeof(mt_resource_handle)) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "Expected a scalar resource handle");
    return NULL;
  }
  return t->buf->data;
}

static char* make_key(const mt_resource_handle* h) {
  char* key = NULL;
  if (asprintf(&key, "%s/%s", h->container, h->name) < 0) return NULL;
  return key;
}

/* Finds (or, if create, adds) the variable; st->mu held by caller. */
static mt_var* find_var(mt_session_state* st, const char* key, int create) {
  for (int k = 0; k < st->nvars; k++)
    if (strcmp(st->vars[k]->key, key) == 0) return st->vars[k];
  if (!create) return NULL;
  if (st->nvars == st->cap) {
    int cap = st->cap ? st->cap * 2 : 16;
    mt_var** grown = realloc(st->vars, sizeof(*grown) * (size_t)cap);
    if (!grown) return NULL;
    st->vars = grown;
    st->cap = cap;
  }
  mt_var* v = calloc(1, sizeof(*v));
  if (!v || !(v->key = strdup(key))) {
    free(v);
    return NULL;
  }
  pthread_mutex_init(&v->mu, NULL);
  st->vars[st->nvars++] = v;
  return v;
}

static mt_var* lookup(mt_session_state* st, const mt_resource_handle* h, int create) {
  char* key = make_key(h);
  if (!key) return NULL;
  pthread_mutex_lock(&st->mu);
  mt_var* v = find_var(st, key, create);
  pthread_mutex_unlock(&st->mu);
  free(key);
  return v;
}

mt_var* mt_var_lookup(mt_session_state* st, const mt_resource_handle* h, int create) {
  return lookup(st, h, create);
}

int mt_state_container_exists(mt_session_state* st, const char* container) {
  const size_t n = strlen(container);
  int found = 0;
  pthread_mutex_lock(&st->mu);
  for (int k = 0; k < st->nvars && !found; k++) {
    const char* key = st->vars[k]->key;
    if (strncmp(key, "ref:", 4) == 0) key += 4;
    found = strncmp(key, container, n) == 0 && key[n] == '/';
  }
  pthread_mutex_unlock(&st->mu);
  return found;
}

void mt_var_not_found(mt_session_state* st, const mt_resource_handle* h, char* buf, size_t cap) {
  if (mt_state_container_exists(st, h->container))
    snprintf(buf, cap, "Resource %s/%s/N10tensorflow3VarE does not exist.", h->container, h->name);
  else
    snprintf(buf, cap, "Container %s does not exist. (Could not find resource: %s/%s)",
             h->container, h->container, h->name);
}

TF_Tensor* mt_var_read(mt_session_state* st, const mt_resource_handle* h, TF_Status* s) {
  mt_var* v = lookup(st, h, 0);
  TF_Tensor* out = NULL;
  if (v) {
    pthread_mutex_lock(&v->mu);
    if (v->value) out = mt_tensor_share(v->value);
    pthread_mutex_unlock(&v->mu);
  }
  if (!out) {
    char why[1024];
    mt_var_not_found(st, h, why, sizeof why);
    mt_status_setf(s, TF_FAILED_PRECONDITION,
                   "Could not find variable %s. This could mean that the variable has been "
                   "deleted. In TF1, it can also mean the variable is uninitialized. Debug info: "
                   "container=%s, status error message=%s",
                   h->name, h->container, why);
  }
  return out;
}

static int same_shape(const TF_Tensor* a, const TF_Tensor* b) {
  if (a->ndims != b->ndims) return 0;
  for (int k = 0; k < a->ndims; k++)
    if (a->dims[k] != b->dims[k]) return 0;
  return 1;
}

void mt_var_assign(mt_session_state* st, const mt_resource_handle* h, const TF_Tensor* value,
                   TF_Status* s) {
  if (h->dtype && value->dtype != h->dtype) {
    mt_status_setf(s, TF_INVALID_ARGUMENT,
                   "Trying to assign variable with wrong dtype. Expected %s got %s",
                   mt_dtype_name(h->dtype), mt_dtype_name(value->dtype));
    return;
  }
  mt_var* v = lookup(st, h, 1);
  /* Take the buffer when nothing else holds it; copy otherwise, so that a
   * constant, a fed array or a fetched value never aliases the variable. */
  TF_Tensor* copy = mt_tensor_unique(value) ? mt_tensor_share(value) : mt_tensor_copy(value, s);
  if (!v || !copy) {
    mt_tensor_free(copy);
    if (mt_ok(s)) mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "OOM assigning variable %s", h->name);
    return;
  }
  pthread_mutex_lock(&v->mu);
  if (v->value && v->dtype != value->dtype) {
    pthread_mutex_unlock(&v->mu);
    mt_tensor_free(copy);
    mt_status_setf(s, TF_INVALID_ARGUMENT,
                   "Trying to assign variable with wrong dtype. Expected %s got %s",
                   mt_dtype_name(v->dtype), mt_dtype_name(value->dtype));
    return;
  }
  if (v->value && !same_shape(v->value, value)) { /* TF's AssignVariableOp check */
    char want[256], got[256];
    pthread_mutex_unlock(&v->mu);
    mt_tensor_free(copy);
    mt_status_setf(s, TF_INVALID_ARGUMENT,
                   "Trying to assign to variable with tensor with wrong shape. Expected %s got %s",
                   mt_dims_str(v->value->dims, v->value->ndims, want, sizeof(want)),
                   mt_dims_str(value->dims, value->ndims, got, sizeof(got)));
    return;
  }
  TF_Tensor* old = v->value;
  v->value = copy;
  v->dtype = value->dtype;
  pthread_mutex_unlock(&v->mu);
  mt_tensor_free(old);
}

int mt_var_initialized(mt_session_state* st, const mt_resource_handle* h) {
  mt_var* v = lookup(st, h, 0);
  if (!v) return 0;
  pthread_mutex_lock(&v->mu);
  int ok = v->value != NULL;
  pthread_mutex_unlock(&v->mu);
  return ok;
}

mt_rng_state* mt_state_rng(mt_session_state* st, const void* op, TF_Status* s) {
  mt_rng_state* r = NULL;
  pthread_mutex_lock(&st->mu);
  for (int k = 0; k < st->nrngs && !r; k++)
    if (st->rngs[k]->op == op) r = st->rngs[k];
  if (!r && st->nrngs == st->rng_cap) {
    int cap = st->rng_cap ? st->rng_cap * 2 : 16;
    mt_rng_state** grown = realloc(st->rngs, sizeof(*grown) * (size_t)cap);
    if (grown) {
      st->rngs = grown;
      st->rng_cap = cap;
    }
  }
  if (!r && st->nrngs < st->rng_cap && (r = calloc(1, sizeof(*r))) != NULL) {
    r->op = op;
    pthread_mutex_init(&r->mu, NULL);
    st->rngs[st->nrngs++] = r;
  }
  pthread_mutex_unlock(&st->mu);
  if (!r) mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "OOM creating random generator state");
  return r;
}

/* ---- ref variables ---- */

mt_var* mt_state_ref_var(mt_session_state* st, const char* key, TF_DataType dtype, TF_Status* s) {
  char* k = NULL;
  if (asprintf(&k, "ref:%s", key) < 0) k = NULL;
  mt_var* v = NULL;
  if (k) {
    pthread_mutex_lock(&st->mu);
    v = find_var(st, k, 1);
    if (v && !v->value && !v->dtype) v->dtype = dtype;
    pthread_mutex_unlock(&st->mu);
    free(k);
  }
  if (!v) mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "OOM creating variable %s", key);
  return v;
}

typedef struct mt_ref_box {
  mt_var* var;
} mt_ref_box;

static void ref_box_free(void* data, size_t len, void* arg) { free(data); }

TF_Tensor* mt_ref_tensor_new(mt_var* v, TF_DataType dtype, TF_Status* s) {
  mt_ref_box* box = mt_calloc(1, sizeof(*box), s);
  if (!box) return NULL;
  box->var = v;
  /* built as a resource scalar (a pointer-sized element), then retyped */
  TF_Tensor* t = mt_tensor_wrap(TF_RESOURCE, NULL, 0, box, sizeof(*box), ref_box_free, NULL, 0, s);
  if (!t) {
    free(box);
    return NULL;
  }
  t->dtype = (TF_DataType)((int)mt_dtype_base(dtype) + MT_REF_OFFSET);
  return t;
}

mt_var* mt_ref_var(const TF_Tensor* t) {
  if (!t || !mt_dtype_is_ref(t->dtype) || !t->buf || t->buf->len != sizeof(mt_ref_box))
    return NULL;
  return ((mt_ref_box*)t->buf->data)->var;
}

TF_Tensor* mt_ref_deref(const TF_Tensor* ref, const char* name, TF_Status* s) {
  mt_var* v = mt_ref_var(ref);
  TF_Tensor* out = NULL;
  if (v) {
    pthread_mutex_lock(&v->mu);
    if (v->value) out = mt_tensor_share(v->value);
    pthread_mutex_unlock(&v->mu);
  }
  if (!out) mt_status_setf(s, TF_FAILED_PRECONDITION, "Attempting to use uninitialized value %s", name);
  return out;
}

int mt_var_make_unique(mt_var* v, TF_Status* s) {
  if (mt_tensor_unique(v->value)) return 1;
  TF_Tensor* copy = mt_tensor_copy(v->value, s);
  if (!copy) return 0;
  mt_tensor_free(v->value);
  v->value = copy;
  return 1;
}
