/* Serves one signature of a SavedModel through minitf's C API, as a TensorFlow Serving-like
 * program does with libtensorflow: TF_LoadSessionFromSavedModel loads the MetaGraphDef
 * tagged "serve" (restoring the variables and running its init op), the signature is read
 * from the MetaGraphDef the loader returns, decoded with the C codec minitf generates from
 * TensorFlow's meta_graph.proto (installed beside c_api.h), each input is fed from a float32
 * .npy file, and every output is printed as
 *
 *   <key> <dtype> [d0,d1,...] v0 v1 ...        (values in C order; strings as text)
 *
 * one line per output, in the signature's order of keys (sorted, as protobuf maps print).
 *
 *   serve_saved_model EXPORT_DIR [SIGNATURE [INPUT_KEY=FILE.npy ...]]
 *
 * SIGNATURE defaults to serving_default. Exit status 1 with the C API's message on errors.
 * Plain C99; build with
 *   cc serve_saved_model.c $(python -m minitf.sysconfig --cflags --libs)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "minitf/core/protobuf/meta_graph.pb-c.h"
#include "tensorflow/c/c_api.h"

#define MAX_RANK 8

static char* read_file(const char* path, size_t* len) {
  FILE* f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char* buf = malloc(n > 0 ? (size_t)n : 1);
  if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  *len = (size_t)n;
  return buf;
}

/* A little-endian float32 C-order .npy file as a new TF_Tensor; NULL with a reason. */
static TF_Tensor* load_npy(const char* path, const char** why) {
  size_t len = 0;
  char* file = read_file(path, &len);
  *why = "cannot read the file";
  if (!file) return NULL;
  TF_Tensor* t = NULL;
  *why = "not a .npy file";
  if (len < 12 || memcmp(file, "\x93NUMPY", 6) != 0) goto done;
  int v1 = file[6] == 1;
  size_t at = v1 ? 10 : 12;
  size_t hlen = (size_t)(unsigned char)file[8] | (size_t)(unsigned char)file[9] << 8;
  if (!v1) hlen |= (size_t)(unsigned char)file[10] << 16 | (size_t)(unsigned char)file[11] << 24;
  if (hlen > len - at) goto done;
  char header[1024];
  size_t n = hlen < sizeof(header) - 1 ? hlen : sizeof(header) - 1;
  memcpy(header, file + at, n);
  header[n] = '\0';
  *why = "expected float32 ('<f4') data in C order";
  if (!strstr(header, "'<f4'") || strstr(header, "'fortran_order': True")) goto done;
  char* shape = strstr(header, "'shape': (");
  *why = "malformed shape in the .npy header";
  if (!shape) goto done;
  shape += 10;
  int64_t dims[MAX_RANK];
  int ndims = 0;
  uint64_t count = 1;
  while (*shape && *shape != ')') {
    char* end;
    long long d = strtoll(shape, &end, 10);
    if (end == shape || d < 0 || ndims == MAX_RANK) goto done;
    dims[ndims++] = d;
    count *= (uint64_t)d;
    shape = end;
    while (*shape == ',' || *shape == ' ') shape++;
  }
  *why = "file shorter than its shape";
  if (count > (len - at - hlen) / 4) goto done;
  t = TF_AllocateTensor(TF_FLOAT, dims, ndims, (size_t)count * 4);
  if (t) memcpy(TF_TensorData(t), file + at + hlen, (size_t)count * 4);
done:
  free(file);
  return t;
}

/* "op:1" -> {op, 1}; the op is NULL when the graph has none of that name. */
static TF_Output tensor_by_name(TF_Graph* g, const char* name) {
  TF_Output o = {NULL, 0};
  const char* colon = strrchr(name, ':');
  size_t n = colon ? (size_t)(colon - name) : strlen(name);
  char* op = malloc(n + 1);
  if (!op) return o;
  memcpy(op, name, n);
  op[n] = '\0';
  o.oper = TF_GraphOperationByName(g, op);
  o.index = colon ? atoi(colon + 1) : 0;
  free(op);
  return o;
}

static void print_tensor(const char* key, const TF_Tensor* t) {
  printf("%s %d [", key, (int)TF_TensorType(t));
  int64_t count = 1;
  for (int d = 0; d < TF_NumDims(t); d++) {
    printf(d ? ",%lld" : "%lld", (long long)TF_Dim(t, d));
    count *= TF_Dim(t, d);
  }
  printf("]");
  const void* data = TF_TensorData(t);
  for (int64_t i = 0; i < count; i++) {
    switch (TF_TensorType(t)) {
      case TF_FLOAT: printf(" %.9g", ((const float*)data)[i]); break;
      case TF_DOUBLE: printf(" %.17g", ((const double*)data)[i]); break;
      case TF_INT32: printf(" %d", ((const int32_t*)data)[i]); break;
      case TF_INT64: printf(" %lld", (long long)((const int64_t*)data)[i]); break;
      case TF_STRING: {
        const TF_TString* s = (const TF_TString*)data + i;
        printf(" %.*s", (int)TF_StringGetSize(s), TF_StringGetDataPointer(s));
        break;
      }
      default: printf(" ?"); break;
    }
  }
  printf("\n");
}

static const Tensorflow__SignatureDef* find_signature(const Tensorflow__MetaGraphDef* mg,
                                                      const char* key) {
  for (size_t i = 0; i < mg->n_signature_def; i++)
    if (strcmp(mg->signature_def[i]->key, key) == 0) return mg->signature_def[i]->value;
  return NULL;
}

static int cmp_output_key(const void* a, const void* b) {
  const Tensorflow__SignatureDef__OutputsEntry* x = *(Tensorflow__SignatureDef__OutputsEntry* const*)a;
  const Tensorflow__SignatureDef__OutputsEntry* y = *(Tensorflow__SignatureDef__OutputsEntry* const*)b;
  return strcmp(x->key, y->key);
}

/* Feeds `inputs` (KEY=FILE.npy), fetches every output of `sig`, prints them. */
static int serve(TF_Session* sess, TF_Graph* g, const Tensorflow__SignatureDef* sig,
                 char** inputs, int ninputs, TF_Status* status) {
  int rc = 1;
  size_t nout = sig->n_outputs;
  TF_Output* feeds = calloc((size_t)ninputs + 1, sizeof(TF_Output));
  TF_Tensor** feed_vals = calloc((size_t)ninputs + 1, sizeof(TF_Tensor*));
  TF_Output* fetches = calloc(nout + 1, sizeof(TF_Output));
  TF_Tensor** fetch_vals = calloc(nout + 1, sizeof(TF_Tensor*));
  Tensorflow__SignatureDef__OutputsEntry** outs = calloc(nout + 1, sizeof(*outs));
  int nfed = 0;
  if (!feeds || !feed_vals || !fetches || !fetch_vals || !outs) goto done;
  for (int i = 0; i < ninputs; i++) {
    char* eq = strchr(inputs[i], '=');
    const Tensorflow__TensorInfo* info = NULL;
    for (size_t k = 0; eq && k < sig->n_inputs; k++)
      if (strncmp(sig->inputs[k]->key, inputs[i], (size_t)(eq - inputs[i])) == 0 &&
          sig->inputs[k]->key[eq - inputs[i]] == '\0')
        info = sig->inputs[k]->value;
    if (!info || info->encoding_case != TENSORFLOW__TENSOR_INFO__ENCODING_NAME) {
      fprintf(stderr, "%s: not an input of the signature (KEY=FILE.npy)\n", inputs[i]);
      goto done;
    }
    const char* why;
    feed_vals[nfed] = load_npy(eq + 1, &why);
    if (!feed_vals[nfed]) {
      fprintf(stderr, "%s: %s\n", eq + 1, why);
      goto done;
    }
    feeds[nfed] = tensor_by_name(g, info->name);
    if (!feeds[nfed++].oper) {
      fprintf(stderr, "the graph has no tensor %s\n", info->name);
      goto done;
    }
  }
  memcpy(outs, sig->outputs, nout * sizeof(*outs));
  qsort(outs, nout, sizeof(*outs), cmp_output_key);
  for (size_t k = 0; k < nout; k++) {
    fetches[k] = tensor_by_name(g, outs[k]->value->name);
    if (!fetches[k].oper) {
      fprintf(stderr, "the graph has no tensor %s\n", outs[k]->value->name);
      goto done;
    }
  }
  TF_SessionRun(sess, NULL, feeds, feed_vals, nfed, fetches, fetch_vals, (int)nout, NULL, 0,
                NULL, status);
  if (TF_GetCode(status) != TF_OK) {
    fprintf(stderr, "error: %s\n", TF_Message(status));
    goto done;
  }
  for (size_t k = 0; k < nout; k++) print_tensor(outs[k]->key, fetch_vals[k]);
  rc = 0;
done:
  for (int i = 0; feed_vals && i < ninputs; i++)
    if (feed_vals[i]) TF_DeleteTensor(feed_vals[i]);
  for (size_t k = 0; fetch_vals && k < nout; k++)
    if (fetch_vals[k]) TF_DeleteTensor(fetch_vals[k]);
  free(feeds);
  free(feed_vals);
  free(fetches);
  free(fetch_vals);
  free(outs);
  return rc;
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s EXPORT_DIR [SIGNATURE [INPUT_KEY=FILE.npy ...]]\n", argv[0]);
    return 2;
  }
  const char* sig_key = argc > 2 ? argv[2] : "serving_default";
  const char* tags[] = {"serve"};
  TF_Status* status = TF_NewStatus();
  TF_Graph* graph = TF_NewGraph();
  TF_Buffer* mg_buf = TF_NewBuffer();
  TF_SessionOptions* opts = TF_NewSessionOptions();
  TF_Session* sess =
      TF_LoadSessionFromSavedModel(opts, NULL, argv[1], tags, 1, graph, mg_buf, status);
  TF_DeleteSessionOptions(opts);
  Tensorflow__MetaGraphDef* mg = NULL;
  int rc = 1;
  if (!sess) {
    fprintf(stderr, "load failed: %s\n", TF_Message(status));
    goto done;
  }
  mg = tensorflow__meta_graph_def__unpack(NULL, mg_buf->length, mg_buf->data);
  const Tensorflow__SignatureDef* sig = mg ? find_signature(mg, sig_key) : NULL;
  if (!sig) {
    fprintf(stderr, "no signature %s in the MetaGraphDef\n", sig_key);
    goto done;
  }
  rc = serve(sess, graph, sig, argv + 3, argc - 3, status);
done:
  if (mg) tensorflow__meta_graph_def__free_unpacked(mg, NULL);
  if (sess) {
    TF_CloseSession(sess, status);
    TF_DeleteSession(sess, status);
  }
  TF_DeleteBuffer(mg_buf);
  TF_DeleteGraph(graph);
  TF_DeleteStatus(status);
  return rc;
}
