/* Frozen GraphDefs with control flow written by real TensorFlow 2.21
 * (tools/gen_frozen_control_flow.py -> tests/fixtures/models/
 * tf{1,2}_control_flow/): TF_GraphImportGraphDef then TF_SessionRun with
 * TensorFlow's feeds gives TensorFlow's outputs (io.txt), for the TF2 form
 * (While/If with a function library) and the TF1 form (Enter/Merge/...);
 * TF_GraphToGraphDef gives back the library TensorFlow wrote byte for
 * byte. */
#include <math.h>
#include <stdint.h>

#include "ctest.h"
#include "tensorflow/c/c_api.h"

#define MAX_T 8
#define MAX_V 64

typedef struct io_tensor {
  char name[128];
  TF_DataType dtype;
  int rank;
  int64_t dims[4];
  int n;
  double v[MAX_V];
} io_tensor;

typedef struct io_run {
  int nfeeds, nfetches;
  io_tensor feeds[MAX_T], fetches[MAX_T];
} io_run;

/* Reads io.txt ("run k" / "feed|fetch name dtype rank dims... values..."). */
static int read_runs(const char* path, io_run* runs, int max) {
  FILE* f = fopen(path, "r");
  if (!f) return -1;
  int nruns = 0;
  char kind[16], dtype[16];
  while (fscanf(f, "%15s", kind) == 1) {
    if (!strcmp(kind, "run")) {
      int k;
      if (fscanf(f, "%d", &k) != 1 || nruns == max) break;
      memset(&runs[nruns++], 0, sizeof(io_run));
      continue;
    }
    io_run* r = &runs[nruns - 1];
    io_tensor* t = !strcmp(kind, "feed") ? &r->feeds[r->nfeeds++] : &r->fetches[r->nfetches++];
    if (fscanf(f, "%127s %15s %d", t->name, dtype, &t->rank) != 3) break;
    t->dtype = !strcmp(dtype, "float32") ? TF_FLOAT : TF_INT32;
    t->n = 1;
    for (int d = 0; d < t->rank; d++) {
      long long v;
      if (fscanf(f, "%lld", &v) != 1) break;
      t->dims[d] = v;
      t->n *= (int)v;
    }
    for (int k = 0; k < t->n && k < MAX_V; k++)
      if (fscanf(f, "%lf", &t->v[k]) != 1) break;
  }
  fclose(f);
  return nruns;
}

/* "name:idx" -> output of g. */
static TF_Output output_named(TF_Graph* g, const char* tensor) {
  char op[128];
  snprintf(op, sizeof op, "%s", tensor);
  char* colon = strrchr(op, ':');
  int idx = 0;
  if (colon) {
    idx = atoi(colon + 1);
    *colon = '\0';
  }
  TF_Output o = {TF_GraphOperationByName(g, op), idx};
  return o;
}

static TF_Tensor* make_tensor(const io_tensor* t) {
  size_t es = t->dtype == TF_FLOAT ? sizeof(float) : sizeof(int32_t);
  TF_Tensor* out = TF_AllocateTensor(t->dtype, t->dims, t->rank, es * (size_t)t->n);
  for (int k = 0; k < t->n; k++) {
    if (t->dtype == TF_FLOAT) ((float*)TF_TensorData(out))[k] = (float)t->v[k];
    else ((int32_t*)TF_TensorData(out))[k] = (int32_t)t->v[k];
  }
  return out;
}

static int matches(const TF_Tensor* got, const io_tensor* want) {
  if (!got || TF_TensorType(got) != want->dtype || TF_NumDims(got) != want->rank) return 0;
  for (int d = 0; d < want->rank; d++)
    if (TF_Dim(got, d) != want->dims[d]) return 0;
  for (int k = 0; k < want->n; k++) {
    double v = want->dtype == TF_FLOAT ? ((const float*)TF_TensorData(got))[k]
                                       : ((const int32_t*)TF_TensorData(got))[k];
    if (fabs(v - want->v[k]) > 1e-6 + 2e-6 * fabs(want->v[k])) return 0;
  }
  return 1;
}

/* The bytes of top-level length-delimited field `num` of a message. */
static const uint8_t* field_bytes(const uint8_t* p, size_t len, int num, size_t* out_len) {
  size_t i = 0;
  while (i < len) {
    uint64_t key = 0, v = 0;
    for (int sh = 0; i < len; sh += 7) {
      key |= (uint64_t)(p[i] & 0x7f) << sh;
      if (!(p[i++] & 0x80)) break;
    }
    int wt = (int)(key & 7);
    if (wt == 0) {
      while (i < len && (p[i++] & 0x80)) {}
      continue;
    }
    if (wt != 2) return NULL;
    for (int sh = 0; i < len; sh += 7) {
      v |= (uint64_t)(p[i] & 0x7f) << sh;
      if (!(p[i++] & 0x80)) break;
    }
    if ((int)(key >> 3) == num) {
      *out_len = (size_t)v;
      return p + i;
    }
    i += (size_t)v;
  }
  return NULL;
}

static void test_form(const char* form, int check_library, TF_Status* s) {
  char path[256];
  snprintf(path, sizeof path, "tests/fixtures/models/%s/graph.pb", form);
  size_t len = 0;
  char* data = ctest_read_file(path, &len);
  CHECK(data != NULL);
  if (!data) return;
  TF_Graph* g = TF_NewGraph();
  TF_Buffer* buf = TF_NewBufferFromString(data, len);
  TF_ImportGraphDefOptions* o = TF_NewImportGraphDefOptions();
  TF_GraphImportGraphDef(g, buf, o, s);
  CHECK_OK(s);
  TF_DeleteImportGraphDefOptions(o);
  TF_DeleteBuffer(buf);

  static io_run runs[4];
  snprintf(path, sizeof path, "tests/fixtures/models/%s/io.txt", form);
  int nruns = read_runs(path, runs, 4);
  CHECK(nruns == 3);
  TF_SessionOptions* so = TF_NewSessionOptions();
  TF_Session* sess = TF_NewSession(g, so, s);
  for (int r = 0; r < nruns; r++) {
    TF_Output feeds[MAX_T], fetches[MAX_T];
    TF_Tensor* vals[MAX_T];
    TF_Tensor* got[MAX_T] = {0};
    for (int k = 0; k < runs[r].nfeeds; k++) {
      feeds[k] = output_named(g, runs[r].feeds[k].name);
      vals[k] = make_tensor(&runs[r].feeds[k]);
    }
    for (int k = 0; k < runs[r].nfetches; k++) fetches[k] = output_named(g, runs[r].fetches[k].name);
    TF_SessionRun(sess, NULL, feeds, vals, runs[r].nfeeds, fetches, got, runs[r].nfetches, NULL,
                  0, NULL, s);
    CHECK_OK(s);
    for (int k = 0; k < runs[r].nfetches; k++) {
      CHECK(matches(got[k], &runs[r].fetches[k]));
      if (got[k]) TF_DeleteTensor(got[k]);
    }
    for (int k = 0; k < runs[r].nfeeds; k++) TF_DeleteTensor(vals[k]);
  }
  if (check_library) {
    TF_Buffer* out = TF_NewBuffer();
    TF_GraphToGraphDef(g, out, s);
    CHECK_OK(s);
    size_t a_len = 0, b_len = 0;
    const uint8_t* a = field_bytes((const uint8_t*)data, len, 2, &a_len); /* GraphDef.library */
    const uint8_t* b = field_bytes(out->data, out->length, 2, &b_len);
    CHECK(a && b && a_len > 0 && a_len == b_len && memcmp(a, b, a_len) == 0);
    TF_DeleteBuffer(out);
  }
  TF_DeleteSession(sess, s);
  TF_DeleteSessionOptions(so);
  TF_DeleteGraph(g);
  free(data);
}

int main(void) {
  TF_Status* s = TF_NewStatus();
  test_form("tf2_control_flow", 1, s);
  test_form("tf1_control_flow", 0, s);
  TF_DeleteStatus(s);
  CTEST_END();
}
