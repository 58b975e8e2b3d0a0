/* TF_LoadSessionFromSavedModel: TensorFlow's SavedModel loader (cc/saved_model/loader.cc and
 * reader.cc) over the C API.
 *
 * saved_model.pb is decoded with the protoc-c codec generated from
 * pyfront/minitf/core/protobuf/saved_model.proto (the schema the Python side uses), the
 * MetaGraphDef whose tag set equals the given tags is chosen, its graph imported into
 * `graph` (re-encoded by the same codec for TF_GraphImportGraphDef), and then, as TF's
 * loader does: a session is created, the saver's restore op runs with
 * <export_dir>/variables/variables fed to its filename tensor (skipped, as in TF, when
 * variables/variables.index does not exist), and the init op (signature
 * __saved_model_init_op, else collection saved_model_main_op, else legacy_init_op) runs; both
 * runs are fed each asset's path <export_dir>/assets/<filename> (MetaGraphDef.asset_file_def,
 * else the AssetFileDefs packed in collection saved_model_assets).
 *
 * On any error nothing is left behind: the imported ops are removed from `graph` again and
 * NULL is returned. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "minitf/core/protobuf/saved_model.pb-c.h"
#include "runtime/pb_unpack.h"
#include "runtime/function.h"
#include "runtime/graph.h"
#include "runtime/pbtext.h"
#include "runtime/status.h"
#include "tensorflow/c/c_api.h"

typedef Tensorflow__MetaGraphDef MetaGraphDef;

static char* join_path(const char* a, const char* b) {
  size_t n = strlen(a) + strlen(b) + 2;
  char* p = malloc(n);
  if (p) snprintf(p, n, "%s%s%s", a, (*a && a[strlen(a) - 1] != '/') ? "/" : "", b);
  return p;
}

static int file_exists(const char* path) {
  struct stat st;
  return stat(path, &st) == 0;
}

static uint8_t* read_all(const char* path, size_t* len, TF_Status* s) {
  FILE* f = fopen(path, "rb");
  if (!f) {
    mt_status_setf(s, mt_errno_code(errno), "%s; %s", path,
                   strerror(errno));
    return NULL;
  }
  size_t cap = 1 << 16, n = 0;
  uint8_t* buf = malloc(cap);
  for (;;) {
    if (!buf) break;
    n += fread(buf + n, 1, cap - n, f);
    if (n < cap) break;
    uint8_t* p = realloc(buf, cap * 2);
    if (!p) {
      free(buf);
      buf = NULL;
      break;
    }
    buf = p;
    cap *= 2;
  }
  int err = ferror(f);
  fclose(f);
  if (!buf || err) {
    free(buf);
    mt_status_setf(s, buf ? TF_DATA_LOSS : TF_RESOURCE_EXHAUSTED, "%s: read failed", path);
    return NULL;
  }
  *len = n;
  return buf;
}

/* reader.cc's ReadSavedModel: saved_model.pb, else saved_model.pbtxt (text format, parsed
 * over the same generated descriptor, runtime/pbtext.h), else NotFound. */
static Tensorflow__SavedModel* read_saved_model(const char* export_dir, TF_Status* s) {
  char* pb = join_path(export_dir, "saved_model.pb");
  char* pbtxt = join_path(export_dir, "saved_model.pbtxt");
  Tensorflow__SavedModel* sm = NULL;
  if (!pb || !pbtxt) {
    mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "Out of memory");
  } else if (file_exists(pb)) {
    size_t len = 0;
    uint8_t* data = read_all(pb, &len, s);
    if (data) {
      /* nesting-checked: the GraphDef inside may hold hostile nested AttrValues */
      sm = (Tensorflow__SavedModel*)mt_pb_unpack(&tensorflow__saved_model__descriptor, data, len,
                                                 NULL, "SavedModel", s);
      if (!sm) mt_status_setf(s, TF_DATA_LOSS, "Can't parse %s as binary proto", pb);
      free(data);
    }
  } else if (file_exists(pbtxt)) {
    size_t len = 0, blen = 0;
    uint8_t* text = read_all(pbtxt, &len, s);
    char err[256];
    uint8_t* bin = text ? mt_pbtext_parse(&tensorflow__saved_model__descriptor, (char*)text,
                                          len, &blen, err, sizeof err)
                        : NULL;
    if (bin)
      sm = (Tensorflow__SavedModel*)mt_pb_unpack(&tensorflow__saved_model__descriptor, bin, blen,
                                                 NULL, "SavedModel", s);
    if (text && !sm) mt_status_setf(s, TF_DATA_LOSS, "Can't parse %s as text proto", pbtxt);
    free(text);
    free(bin);
  } else {
    mt_status_setf(s, TF_NOT_FOUND,
                   "Could not find SavedModel .pb or .pbtxt at supplied export directory "
                   "path: %s. Check that the directory exists and that you have the right "
                   "permissions for accessing it.",
                   export_dir);
  }
  free(pb);
  free(pbtxt);
  return sm;
}

static int has_tag(char* const* tags, size_t n, const char* tag) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(tags[i], tag) == 0) return 1;
  return 0;
}

static int has_tag_c(const char* const* tags, int n, const char* tag) {
  for (int i = 0; i < n; i++)
    if (strcmp(tags[i], tag) == 0) return 1;
  return 0;
}

/* The tag sets are equal as sets (TF compares unordered_sets). */
static int tags_match(const MetaGraphDef* mg, const char* const* tags, int ntags) {
  size_t n = mg->meta_info_def ? mg->meta_info_def->n_tags : 0;
  char* const* have = n ? mg->meta_info_def->tags : NULL;
  for (size_t i = 0; i < n; i++)
    if (!has_tag_c(tags, ntags, have[i])) return 0;
  for (int i = 0; i < ntags; i++)
    if (!has_tag(have, n, tags[i])) return 0;
  return 1;
}

static MetaGraphDef* find_meta_graph(Tensorflow__SavedModel* sm, const char* const* tags,
                                     int ntags, TF_Status* s) {
  for (size_t i = 0; i < sm->n_meta_graphs; i++)
    if (tags_match(sm->meta_graphs[i], tags, ntags)) return sm->meta_graphs[i];
  /* "{ serve gpu }": the requested set, each tag once. */
  size_t cap = 64;
  for (int i = 0; i < ntags; i++) cap += strlen(tags[i]) + 1;
  char* list = malloc(cap);
  if (!list) {
    mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "Out of memory");
    return NULL;
  }
  list[0] = 0;
  for (int i = 0; i < ntags; i++) {
    if (has_tag_c(tags, i, tags[i])) continue;
    if (list[0]) strcat(list, " ");
    strcat(list, tags[i]);
  }
  mt_status_setf(s, TF_NOT_FOUND,
                 "Could not find meta graph def matching supplied tags: { %s }. To inspect "
                 "available tag-sets in the SavedModel, please use the SavedModel CLI: "
                 "`saved_model_cli`",
                 list);
  free(list);
  return NULL;
}

/* ---- feeds ---- */

typedef struct feeds {
  int n, cap;
  TF_Output* outs;
  TF_Tensor** vals;
} feeds;

static void feeds_free(feeds* f) {
  for (int i = 0; i < f->n; i++) TF_DeleteTensor(f->vals[i]);
  free(f->outs);
  free(f->vals);
}

static TF_Tensor* string_scalar(const char* str) {
  TF_Tensor* t = TF_AllocateTensor(TF_STRING, NULL, 0, sizeof(TF_TString));
  if (!t) return NULL;
  TF_TString* ts = (TF_TString*)TF_TensorData(t);
  TF_StringInit(ts);
  TF_StringCopy(ts, str, strlen(str));
  return t;
}

/* "op:1" -> the op and index 1; "op" -> index 0. NULL when the graph has no such tensor. */
static TF_Operation* lookup_tensor(TF_Graph* g, const char* name, int* index) {
  const char* colon = strrchr(name, ':');
  *index = 0;
  if (!colon || !colon[1] || strspn(colon + 1, "0123456789") != strlen(colon + 1))
    return TF_GraphOperationByName(g, name);
  char* op = strndup(name, (size_t)(colon - name));
  if (!op) return NULL;
  TF_Operation* oper = TF_GraphOperationByName(g, op);
  free(op);
  *index = atoi(colon + 1);
  if (oper && *index >= TF_OperationNumOutputs(oper)) return NULL;
  return oper;
}

static int feeds_add(feeds* f, TF_Graph* g, const char* name, const char* value, TF_Status* s) {
  int index;
  TF_Operation* op = lookup_tensor(g, name, &index);
  if (!op) {
    mt_status_setf(s, TF_INVALID_ARGUMENT,
                   "Tensor %s, specified in either feed_devices or fetch_devices was not "
                   "found in the Graph",
                   name);
    return 0;
  }
  if (f->n == f->cap) {
    int cap = f->cap ? 2 * f->cap : 4;
    TF_Output* o = realloc(f->outs, (size_t)cap * sizeof(*o));
    if (o) f->outs = o;
    TF_Tensor** v = realloc(f->vals, (size_t)cap * sizeof(*v));
    if (v) f->vals = v;
    if (!o || !v) {
      mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "Out of memory");
      return 0;
    }
    f->cap = cap;
  }
  TF_Tensor* t = string_scalar(value);
  if (!t) {
    mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "Out of memory");
    return 0;
  }
  f->outs[f->n] = (TF_Output){op, index};
  f->vals[f->n++] = t;
  return 1;
}

static Tensorflow__CollectionDef* collection(const MetaGraphDef* mg, const char* key) {
  for (size_t i = 0; i < mg->n_collection_def; i++)
    if (strcmp(mg->collection_def[i]->key, key) == 0) return mg->collection_def[i]->value;
  return NULL;
}

static int add_asset(feeds* f, TF_Graph* g, const char* export_dir,
                     const Tensorflow__AssetFileDef* a, TF_Status* s) {
  const char* name = a->tensor_info && a->tensor_info->name ? a->tensor_info->name : "";
  char* assets = join_path(export_dir, "assets");
  char* path = assets ? join_path(assets, a->filename) : NULL;
  int ok = path ? feeds_add(f, g, name, path, s) : 0;
  if (!path) mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "Out of memory");
  free(assets);
  free(path);
  return ok;
}

/* loader_util's GetAssetFileDefs + AddAssetsTensorsToInputs. */
static int asset_feeds(feeds* f, TF_Graph* g, const char* export_dir, const MetaGraphDef* mg,
                       TF_Status* s) {
  for (size_t i = 0; i < mg->n_asset_file_def; i++)
    if (!add_asset(f, g, export_dir, mg->asset_file_def[i], s)) return 0;
  if (mg->n_asset_file_def) return 1;
  const Tensorflow__CollectionDef* c = collection(mg, "saved_model_assets");
  if (!c || c->kind_case != TENSORFLOW__COLLECTION_DEF__KIND_ANY_LIST) return 1;
  for (size_t i = 0; i < c->any_list->n_value; i++) {
    const Google__Protobuf__Any* any = c->any_list->value[i];
    Tensorflow__AssetFileDef* a =
        tensorflow__asset_file_def__unpack(NULL, any->value.len, any->value.data);
    if (!a) {
      mt_status_setf(s, TF_INVALID_ARGUMENT,
                     "Failed to unpack an AssetFileDef from collection saved_model_assets");
      return 0;
    }
    int ok = add_asset(f, g, export_dir, a, s);
    tensorflow__asset_file_def__free_unpacked(a, NULL);
    if (!ok) return 0;
  }
  return 1;
}

/* ---- runs ---- */

static void run_target(TF_Session* sess, TF_Graph* g, const TF_Buffer* run_options,
                       const feeds* f, const char* target, TF_Status* s) {
  int index;
  TF_Operation* op = lookup_tensor(g, target, &index);
  if (!op) {
    mt_status_setf(s, TF_NOT_FOUND, "PruneForTargets: Some target nodes not found: %s ",
                   target);
    return;
  }
  const TF_Operation* targets[1] = {op};
  TF_SessionRun(sess, run_options, f->outs, f->vals, f->n, NULL, NULL, 0, targets, 1, NULL,
                s);
}

/* loader.cc's RunRestore: the restore op, fed the variables' prefix and the asset paths. */
static void restore(TF_Session* sess, TF_Graph* g, const TF_Buffer* run_options,
                    const char* export_dir, const MetaGraphDef* mg, feeds* f, TF_Status* s) {
  const Tensorflow__SaverDef* sd = mg->saver_def;
  if (!sd) return;
  char* vars = join_path(export_dir, "variables");
  char* prefix = vars ? join_path(vars, "variables") : NULL;
  char* index = prefix ? join_path(vars, "variables.index") : NULL;
  if (!index) {
    mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "Out of memory");
  } else if (file_exists(index) && feeds_add(f, g, sd->filename_tensor_name, prefix, s)) {
    /* (no index: TF logs "no variables; no checkpoints were restored" and goes on) */
    run_target(sess, g, run_options, f, sd->restore_op_name, s);
    TF_DeleteTensor(f->vals[--f->n]); /* the init op is fed the assets only */
  }
  free(vars);
  free(prefix);
  free(index);
}

/* loader_util's GetInitOp: the init-op signature, else the main op, else the legacy init op
 * (each collection must name exactly one op). NULL + OK when there is none. */
static const char* init_op_name(const char* export_dir, const MetaGraphDef* mg, TF_Status* s) {
  for (size_t i = 0; i < mg->n_signature_def; i++) {
    if (strcmp(mg->signature_def[i]->key, "__saved_model_init_op") != 0) continue;
    const Tensorflow__SignatureDef* sig = mg->signature_def[i]->value;
    for (size_t j = 0; sig && j < sig->n_outputs; j++)
      if (strcmp(sig->outputs[j]->key, "__saved_model_init_op") == 0 && sig->outputs[j]->value)
        return sig->outputs[j]->value->name;
    mt_status_setf(s, TF_FAILED_PRECONDITION, "Could not find output __saved_model_init_op");
    return NULL;
  }
  const Tensorflow__CollectionDef* c = collection(mg, "saved_model_main_op");
  if (!c) c = collection(mg, "legacy_init_op");
  if (!c) return NULL;
  if (c->kind_case != TENSORFLOW__COLLECTION_DEF__KIND_NODE_LIST || c->node_list->n_value != 1) {
    mt_status_setf(s, TF_FAILED_PRECONDITION, "Expected exactly one main op in : %s",
                   export_dir);
    return NULL;
  }
  return c->node_list->value[0];
}

/* ---- graph ---- */

static void import_graph(TF_Graph* g, const MetaGraphDef* mg, TF_Status* s) {
  Tensorflow__GraphDef empty = TENSORFLOW__GRAPH_DEF__INIT;
  const Tensorflow__GraphDef* gd = mg->graph_def ? mg->graph_def : &empty;
  size_t len = tensorflow__graph_def__get_packed_size(gd);
  uint8_t* data = malloc(len ? len : 1);
  if (!data) {
    mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "Out of memory");
    return;
  }
  tensorflow__graph_def__pack(gd, data);
  TF_Buffer buf = {data, len, NULL};
  TF_ImportGraphDefOptions* opts = TF_NewImportGraphDefOptions();
  TF_GraphImportGraphDef(g, &buf, opts, s);
  TF_DeleteImportGraphDefOptions(opts);
  free(data);
}

static void free_buffer(void* data, size_t len) { free(data); }

static void return_meta_graph(const MetaGraphDef* mg, TF_Buffer* out, TF_Status* s) {
  if (out->data) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "Passing non-empty TF_Buffer is invalid.");
    return;
  }
  size_t len = tensorflow__meta_graph_def__get_packed_size(mg);
  uint8_t* data = malloc(len ? len : 1);
  if (!data) {
    mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "Out of memory");
    return;
  }
  tensorflow__meta_graph_def__pack(mg, data);
  out->data = data;
  out->length = len;
  out->data_deallocator = free_buffer;
}

static int graph_is_empty(TF_Graph* g) {
  pthread_mutex_lock(&g->mu);
  int n = g->nops;
  pthread_mutex_unlock(&g->mu);
  return n == 0;
}

/* Imports, creates the session, restores and initializes; NULL + status on error. */
static TF_Session* load(const TF_SessionOptions* opts, const TF_Buffer* run_options,
                        const char* export_dir, TF_Graph* g, const MetaGraphDef* mg,
                        TF_Status* s) {
  import_graph(g, mg, s);
  if (TF_GetCode(s) != TF_OK) return NULL;
  TF_Session* sess = TF_NewSession(g, opts, s);
  if (!sess) return NULL;
  feeds assets = {0, 0, NULL, NULL};
  if (asset_feeds(&assets, g, export_dir, mg, s)) {
    restore(sess, g, run_options, export_dir, mg, &assets, s);
    const char* init = TF_GetCode(s) == TF_OK ? init_op_name(export_dir, mg, s) : NULL;
    if (init && TF_GetCode(s) == TF_OK) run_target(sess, g, run_options, &assets, init, s);
  }
  feeds_free(&assets);
  if (TF_GetCode(s) == TF_OK) return sess;
  TF_Status* ignored = TF_NewStatus();
  TF_CloseSession(sess, ignored);
  TF_DeleteSession(sess, ignored);
  TF_DeleteStatus(ignored);
  return NULL;
}

TF_Session* TF_LoadSessionFromSavedModel(const TF_SessionOptions* session_options,
                                         const TF_Buffer* run_options, const char* export_dir,
                                         const char* const* tags, int tags_len,
                                         TF_Graph* graph, TF_Buffer* meta_graph_def,
                                         TF_Status* status) {
  if (!graph_is_empty(graph)) {
    mt_status_setf(status, TF_INVALID_ARGUMENT, "Graph is non-empty.");
    return NULL;
  }
  if (!export_dir || tags_len < 0 || (tags_len > 0 && !tags)) {
    mt_status_setf(status, TF_INVALID_ARGUMENT, "export_dir and tags must be given");
    return NULL;
  }
  TF_SetStatus(status, TF_OK, "");
  int nfns = mt_graph_num_functions(graph);
  Tensorflow__SavedModel* sm = read_saved_model(export_dir, status);
  if (!sm) return NULL;
  TF_Session* sess = NULL;
  const MetaGraphDef* mg = find_meta_graph(sm, tags, tags_len, status);
  if (mg) sess = load(session_options, run_options, export_dir, graph, mg, status);
  if (sess && meta_graph_def) {
    return_meta_graph(mg, meta_graph_def, status);
    if (TF_GetCode(status) != TF_OK) {
      TF_Status* ignored = TF_NewStatus();
      TF_CloseSession(sess, ignored);
      TF_DeleteSession(sess, ignored);
      TF_DeleteStatus(ignored);
      sess = NULL;
    }
  }
  if (!sess) { /* as TF: a failed load leaves the graph as it was */
    mt_graph_truncate(graph, 0);
    mt_graph_truncate_functions(graph, nfns);
  }
  tensorflow__saved_model__free_unpacked(sm, NULL);
  return sess;
}
