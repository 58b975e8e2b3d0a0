/* V1 checkpoints through the C API (run with leak checking by make
 * asan-ctest): Restore / RestoreSlice / RestoreV2 of the files real
 * TensorFlow wrote (tests/fixtures/checkpoints/v1/raw), Save and SaveSlices
 * round trips with strings, the error paths (each must free what it
 * allocated), and every bit of TF's sliced file flipped in turn. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctest.h"
#include "ctest_graph.h"

#define RAW "tests/fixtures/checkpoints/v1/raw/"

static TF_Operation* str1(TF_Graph* g, const char* name, const char* v) {
  return cst(g, name, strings(NULL, 0, &v));
}

static TF_Operation* strn(TF_Graph* g, const char* name, int n, const char* const* v) {
  return cst(g, name, strings(D(n), 1, v));
}

/* Runs `op`'s outputs 0..n-1 (or the op as a target when n == 0). */
static int run_op(TF_Graph* g, TF_Operation* op, int n, TF_Tensor** out) {
  TF_Session* sess = TF_NewSession(g, NULL, S);
  TF_Output fetch[8];
  for (int i = 0; i < n; i++) fetch[i] = (TF_Output){op, i}, out[i] = NULL;
  const TF_Operation* targets[1] = {op};
  TF_SessionRun(sess, NULL, NULL, NULL, 0, fetch, out, n, n ? NULL : targets, n ? 0 : 1, NULL,
                S);
  TF_Status* s2 = TF_NewStatus();
  TF_CloseSession(sess, s2);
  TF_DeleteSession(sess, s2);
  TF_DeleteStatus(s2);
  return TF_GetCode(S) == TF_OK;
}

/* Restore or RestoreSlice (spec != NULL) of one tensor; NULL on error. */
static TF_Tensor* restore1(const char* pattern, const char* name, const char* spec,
                           TF_DataType dt) {
  TF_Graph* g = TF_NewGraph();
  TF_OperationDescription* d = TF_NewOperation(g, spec ? "RestoreSlice" : "Restore", "r");
  TF_AddInput(d, (TF_Output){str1(g, "p", pattern), 0});
  TF_AddInput(d, (TF_Output){str1(g, "n", name), 0});
  if (spec) TF_AddInput(d, (TF_Output){str1(g, "s", spec), 0});
  TF_SetAttrType(d, "dt", dt);
  TF_Operation* op = TF_FinishOperation(d, S);
  TF_Tensor* out = NULL;
  if (op) run_op(g, op, 1, &out);
  TF_DeleteGraph(g);
  return out;
}

static int restore_v2(const char* prefix, int n, const char* const* names,
                      const TF_DataType* dts, TF_Tensor** out) {
  static const char* const specs[8] = {"", "", "", "", "", "", "", ""};
  TF_Graph* g = TF_NewGraph();
  TF_OperationDescription* d = TF_NewOperation(g, "RestoreV2", "r");
  TF_AddInput(d, (TF_Output){str1(g, "p", prefix), 0});
  TF_AddInput(d, (TF_Output){strn(g, "n", n, names), 0});
  TF_AddInput(d, (TF_Output){strn(g, "s", n, specs), 0});
  TF_SetAttrTypeList(d, "dtypes", dts, n);
  TF_Operation* op = TF_FinishOperation(d, S);
  int ok = op && run_op(g, op, n, out);
  TF_DeleteGraph(g);
  return ok;
}

static const float W[12] = {-2, -1.5, -1, -0.5, 0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5};

static void test_restore_tf_files(void) {
  TF_Tensor* t = restore1(RAW "slices", "w", NULL, TF_FLOAT);
  CHECK(t && shape_is(t, 2, D(4, 3)) && floats_are(t, 12, W, 0));
  if (t) TF_DeleteTensor(t);
  t = restore1(RAW "slices", "w", "4 3 1,2:0,2", TF_FLOAT);
  CHECK(t && shape_is(t, 2, D(2, 2)) && FLOATS(t, 0, -0.5, 0, 1, 1.5));
  if (t) TF_DeleteTensor(t);
  t = restore1(RAW "shard-?\?\?\?\?-of-00002", "b", NULL, TF_INT64); /* no trigraphs */
  CHECK(t && shape_is(t, 2, D(1, 2)) && ((int64_t*)TF_TensorData(t))[1] == 4);
  if (t) TF_DeleteTensor(t);
  t = restore1(RAW "dtypes", "s", NULL, TF_STRING);
  CHECK(t && TF_Dim(t, 0) == 4 && TF_StringGetSize((TF_TString*)TF_TensorData(t) + 3) == 300);
  if (t) TF_DeleteTensor(t);
  /* Errors: each frees what it made. */
  CHECK(!restore1(RAW "slices", "nope", NULL, TF_FLOAT));
  CHECK_CODE(S, TF_NOT_FOUND);
  CHECK(!restore1(RAW "slices", "i", NULL, TF_FLOAT));
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK(!restore1(RAW "slices", "w", "5 3 0,1:-", TF_FLOAT));
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK(!restore1(RAW "nothing-here", "w", NULL, TF_FLOAT));
  CHECK_CODE(S, TF_NOT_FOUND);
  CHECK(!restore1("tests/fixtures/checkpoints/basic/model.index", "w", NULL, TF_FLOAT));
  CHECK_CODE(S, TF_INTERNAL); /* a table, but a V2 index: no V1 meta */
  /* RestoreV2's V1 path: the first output is set, then the second fails. */
  const char* names[] = {"w", "i"};
  TF_DataType dts[] = {TF_FLOAT, TF_INT64};
  TF_Tensor* out[2];
  CHECK(!restore_v2(RAW "slices", 2, names, dts, out));
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  dts[1] = TF_INT32;
  CHECK(restore_v2(RAW "slices", 2, names, dts, out));
  CHECK(out[1] && *(int32_t*)TF_TensorData(out[1]) == 7);
  for (int i = 0; i < 2; i++)
    if (out[i]) TF_DeleteTensor(out[i]);
}

static void test_save_round_trip(void) {
  char dir[] = "/tmp/minitf_v1_XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char path[64];
  snprintf(path, sizeof path, "%s/ck", dir);
  TF_Graph* g = TF_NewGraph();
  const char* words[] = {"", "checkpoint", "v1"};
  const char* names[] = {"z_words", "a_w", "a_w"};
  const char* specs[] = {"", "4 3 0,2:-", "4 3 2,2:-"};
  TF_OperationDescription* d = TF_NewOperation(g, "SaveSlices", "save");
  TF_AddInput(d, (TF_Output){str1(g, "f", path), 0});
  TF_AddInput(d, (TF_Output){strn(g, "n", 3, names), 0});
  TF_AddInput(d, (TF_Output){strn(g, "s", 3, specs), 0});
  TF_Output data[3] = {{strn(g, "words", 3, words), 0},
                       {cst(g, "top", tensor(TF_FLOAT, D(2, 3), 2, W)), 0},
                       {cst(g, "bottom", tensor(TF_FLOAT, D(2, 3), 2, W + 6)), 0}};
  TF_AddInputList(d, data, 3);
  TF_Operation* save = TF_FinishOperation(d, S);
  CHECK_OK(S);
  CHECK(save && run_op(g, save, 0, NULL));
  TF_DeleteGraph(g);
  TF_Tensor* t = restore1(path, "a_w", NULL, TF_FLOAT);
  CHECK(t && shape_is(t, 2, D(4, 3)) && floats_are(t, 12, W, 0));
  if (t) TF_DeleteTensor(t);
  t = restore1(path, "z_words", NULL, TF_STRING);
  CHECK(t && TF_StringGetSize((TF_TString*)TF_TensorData(t) + 1) == 10);
  if (t) TF_DeleteTensor(t);
  /* Unsupported dtype and a missing directory: errors, nothing left behind. */
  g = TF_NewGraph();
  d = TF_NewOperation(g, "Save", "bad");
  TF_AddInput(d, (TF_Output){str1(g, "f", path), 0});
  TF_AddInput(d, (TF_Output){strn(g, "n", 1, names), 0});
  TF_Output u32[1] = {{cst(g, "u", tensor(TF_UINT32, D(1), 1, (uint32_t[]){5})), 0}};
  TF_AddInputList(d, u32, 1);
  TF_Operation* bad = TF_FinishOperation(d, S);
  CHECK(bad && !run_op(g, bad, 0, NULL));
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  TF_DeleteGraph(g);
  g = TF_NewGraph();
  d = TF_NewOperation(g, "Save", "nodir");
  TF_AddInput(d, (TF_Output){str1(g, "f", "/nonexistent_minitf_dir/x"), 0});
  TF_AddInput(d, (TF_Output){strn(g, "n", 1, names), 0});
  TF_Output one[1] = {{CF(g, "one", NULL, 0, 1.0f), 0}};
  TF_AddInputList(d, one, 1);
  TF_Operation* nodir = TF_FinishOperation(d, S);
  CHECK(nodir && !run_op(g, nodir, 0, NULL));
  CHECK_CODE(S, TF_NOT_FOUND);
  TF_DeleteGraph(g);
  unlink(path);
  CHECK(rmdir(dir) == 0); /* only the renamed file was there */
}

static uint8_t* slurp(const char* path, size_t* n) {
  FILE* f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  *n = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t* b = malloc(*n);
  if (fread(b, 1, *n, f) != *n) *n = 0;
  fclose(f);
  return b;
}

/* Every bit position of TF's sliced file: DataLoss or the right values. */
static void test_bit_flips(void) {
  size_t n = 0;
  uint8_t* src = slurp(RAW "slices", &n);
  CHECK(src && n > 100);
  char path[] = "/tmp/minitf_v1_flip_XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  close(fd);
  const char* names[] = {"w", "i"};
  const TF_DataType dts[] = {TF_FLOAT, TF_INT32};
  int losses = 0, right = 0;
  for (size_t pos = 0; src && pos < n; pos++) {
    src[pos] ^= (uint8_t)(1u << (pos % 8));
    FILE* f = fopen(path, "wb");
    fwrite(src, 1, n, f);
    fclose(f);
    src[pos] ^= (uint8_t)(1u << (pos % 8));
    TF_Tensor* out[2];
    if (restore_v2(path, 2, names, dts, out)) {
      right += floats_are(out[0], 12, W, 0) && *(int32_t*)TF_TensorData(out[1]) == 7;
      TF_DeleteTensor(out[0]);
      TF_DeleteTensor(out[1]);
    } else {
      losses += TF_GetCode(S) == TF_DATA_LOSS;
    }
  }
  CHECK(losses + right == (int)n); /* nothing else: no wrong value, no other error */
  CHECK(losses > (int)n - 40);     /* only the footer's padding goes unread */
  unlink(path);
  free(src);
}

int main(void) {
  S = TF_NewStatus();
  test_restore_tf_files();
  test_save_round_trip();
  test_bit_flips();
  TF_DeleteStatus(S);
  CTEST_END();
}
