/* TF_LoadSessionFromSavedModel on the SavedModel TF 2.21's TF1 builder wrote
 * (tests/fixtures/saved_model_c, tools/gen_saved_model_c_fixture.py): serving the signature
 * gives TF's outputs, the asset path is fed to the init op, the returned MetaGraphDef decodes
 * with the generated codec; bad input (missing dir, tags, variables, corrupt or truncated
 * saved_model.pb, non-empty graph) gives TF's codes and messages and leaves the graph empty. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ctest.h"
#include "minitf/core/protobuf/saved_model.pb-c.h"
#include "tensorflow/c/c_api.h"

#define FIX "tests/fixtures/saved_model_c/mlp"

/* TF's outputs for X (tests/fixtures/saved_model_c/expected.json). */
static const float X[6] = {1.0f, -2.0f, 0.5f, 0.25f, 0.75f, -1.5f};
static const float LOGITS[6] = {0.6850000619888306f, -0.1900000274181366f, 0.1250000149011612f,
                                0.6425000429153442f, -0.6449999809265137f, -0.7099999785423279f};
static const float PROBS[6] = {0.5030001997947693f, 0.20968163013458252f, 0.28731822967529297f,
                               0.6516556143760681f, 0.17983074486255646f, 0.16851355135440826f};

static TF_Session* load(const char* dir, const char* const* tags, int ntags, TF_Graph* g,
                        TF_Buffer* mg, TF_Status* s) {
  TF_SessionOptions* opts = TF_NewSessionOptions();
  TF_Session* sess = TF_LoadSessionFromSavedModel(opts, NULL, dir, tags, ntags, g, mg, s);
  TF_DeleteSessionOptions(opts);
  return sess;
}

static void close_session(TF_Session* sess) {
  TF_Status* s = TF_NewStatus();
  TF_CloseSession(sess, s);
  TF_DeleteSession(sess, s);
  TF_DeleteStatus(s);
}

static int graph_size(TF_Graph* g) {
  size_t pos = 0;
  int n = 0;
  while (TF_GraphNextOperation(g, &pos)) n++;
  return n;
}

static TF_Output out_of(TF_Graph* g, const char* op, int i) {
  return (TF_Output){TF_GraphOperationByName(g, op), i};
}

static const Tensorflow__SignatureDef* signature(const Tensorflow__MetaGraphDef* mg,
                                                 const char* key) {
  for (size_t i = 0; i < mg->n_signature_def; i++)
    if (strcmp(mg->signature_def[i]->key, key) == 0) return mg->signature_def[i]->value;
  return NULL;
}

static const char* sig_output(const Tensorflow__SignatureDef* sig, const char* key) {
  for (size_t i = 0; sig && i < sig->n_outputs; i++)
    if (strcmp(sig->outputs[i]->key, key) == 0) return sig->outputs[i]->value->name;
  return NULL;
}

static void test_serve(void) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_Buffer* buf = TF_NewBuffer();
  const char* tags[] = {"serve"};
  TF_Session* sess = load(FIX, tags, 1, g, buf, s);
  CHECK_OK(s);
  CHECK(sess != NULL);
  CHECK(graph_size(g) > 20);
  Tensorflow__MetaGraphDef* mg =
      tensorflow__meta_graph_def__unpack(NULL, buf->length, (const uint8_t*)buf->data);
  CHECK(mg != NULL);
  if (!sess || !mg) goto done;
  CHECK(mg->meta_info_def && mg->meta_info_def->n_tags == 1 &&
        strcmp(mg->meta_info_def->tags[0], "serve") == 0);
  const Tensorflow__SignatureDef* sig = signature(mg, "serving_default");
  CHECK(sig && strcmp(sig->method_name, "tensorflow/serving/predict") == 0);
  CHECK(sig && sig->n_inputs == 1 && strcmp(sig->inputs[0]->value->name, "x:0") == 0);
  CHECK(sig && strcmp(sig_output(sig, "logits"), "logits:0") == 0);
  CHECK(sig && strcmp(sig_output(sig, "probs"), "probs:0") == 0);
  CHECK(mg->saver_def && strcmp(mg->saver_def->restore_op_name, "save/restore_all") == 0);

  /* What a server asks next: the session's devices. */
  TF_DeviceList* devs = TF_SessionListDevices(sess, s);
  CHECK_OK(s);
  CHECK(TF_DeviceListCount(devs) == 1);
  CHECK(strcmp(TF_DeviceListName(devs, 0, s), "/job:localhost/replica:0/task:0/device:CPU:0") == 0);
  CHECK(strcmp(TF_DeviceListType(devs, 0, s), "CPU") == 0);
  CHECK(TF_DeviceListMemoryBytes(devs, 0, s) == 268435456);
  CHECK(TF_DeviceListIncarnation(devs, 0, s) != 0);
  CHECK_OK(s);
  CHECK(TF_DeviceListName(devs, 1, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(strcmp(TF_Message(s), "index out of bounds") == 0);
  TF_DeleteDeviceList(devs);

  int64_t dims[2] = {2, 3};
  TF_Tensor* x = TF_AllocateTensor(TF_FLOAT, dims, 2, sizeof(X));
  memcpy(TF_TensorData(x), X, sizeof(X));
  TF_Output in = out_of(g, "x", 0);
  TF_Output outs[2] = {out_of(g, "logits", 0), out_of(g, "probs", 0)};
  TF_Tensor* vals[2] = {NULL, NULL};
  TF_SessionRun(sess, NULL, &in, &x, 1, outs, vals, 2, NULL, 0, NULL, s);
  CHECK_OK(s);
  for (int k = 0; k < 2 && vals[0] && vals[1]; k++) {
    const float* got = TF_TensorData(vals[k]);
    const float* want = k ? PROBS : LOGITS;
    for (int i = 0; i < 6; i++) CHECK_NEAR(got[i], want[i], 1e-6);
    TF_DeleteTensor(vals[k]);
  }
  TF_DeleteTensor(x);

  /* The init op assigned the fed asset path to vocab_path. */
  const char* path_name = sig_output(signature(mg, "vocab"), "path");
  CHECK(path_name && strcmp(path_name, "Identity:0") == 0);
  TF_Output p = out_of(g, "Identity", 0);
  TF_Tensor* pv = NULL;
  TF_SessionRun(sess, NULL, NULL, NULL, 0, &p, &pv, 1, NULL, 0, NULL, s);
  CHECK_OK(s);
  if (pv) {
    const TF_TString* ts = TF_TensorData(pv);
    const char* want = FIX "/assets/vocab.txt";
    CHECK(TF_StringGetSize(ts) == strlen(want) &&
          memcmp(TF_StringGetDataPointer(ts), want, strlen(want)) == 0);
    TF_DeleteTensor(pv);
  }
done:
  if (mg) tensorflow__meta_graph_def__free_unpacked(mg, NULL);
  if (sess) close_session(sess);
  TF_DeleteBuffer(buf);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

/* The second MetaGraphDef, tags {train, gpu} given in another order and twice. */
static void test_tag_set(void) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  const char* tags[] = {"gpu", "train", "gpu"};
  TF_Session* sess = load(FIX, tags, 3, g, NULL, s);
  CHECK_OK(s);
  if (sess) {
    /* Restored: the kernel's first element is TF's. */
    TF_Operation* read = TF_GraphOperationByName(g, "layer1/w/Read/ReadVariableOp");
    CHECK(read != NULL);
    TF_Output o = {read, 0};
    TF_Tensor* v = NULL;
    if (read) TF_SessionRun(sess, NULL, NULL, NULL, 0, &o, &v, 1, NULL, 0, NULL, s);
    CHECK_OK(s);
    if (v) {
      CHECK_NEAR(((const float*)TF_TensorData(v))[0], 0.2f, 0);
      TF_DeleteTensor(v);
    }
    close_session(sess);
  }
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

static void expect_error(const char* dir, const char* const* tags, int ntags, TF_Code code,
                         const char* msg) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_Buffer* buf = TF_NewBuffer();
  TF_Session* sess = load(dir, tags, ntags, g, buf, s);
  CHECK(sess == NULL);
  CHECK_CODE(s, code);
  if (msg && strcmp(TF_Message(s), msg) != 0) {
    fprintf(stderr, "want message: %s\n got message: %s\n", msg, TF_Message(s));
    CHECK(0);
  }
  CHECK(graph_size(g) == 0);
  CHECK(buf->data == NULL);
  if (sess) close_session(sess);
  TF_DeleteBuffer(buf);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

static void test_missing(void) {
  const char* serve[] = {"serve"};
  expect_error("tests/fixtures/saved_model_c/nope", serve, 1, TF_NOT_FOUND,
               "Could not find SavedModel .pb or .pbtxt at supplied export directory path: "
               "tests/fixtures/saved_model_c/nope. Check that the directory exists and that "
               "you have the right permissions for accessing it.");
  const char* bad[] = {"serve", "gpu", "serve"};
  expect_error(FIX, bad, 3, TF_NOT_FOUND,
               "Could not find meta graph def matching supplied tags: { serve gpu }. To "
               "inspect available tag-sets in the SavedModel, please use the SavedModel CLI: "
               "`saved_model_cli`");
  expect_error(FIX, NULL, 0, TF_NOT_FOUND,
               "Could not find meta graph def matching supplied tags: {  }. To "
               "inspect available tag-sets in the SavedModel, please use the SavedModel CLI: "
               "`saved_model_cli`");
}

static void test_non_empty_graph(void) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_OperationDescription* d = TF_NewOperation(g, "NoOp", "already_here");
  TF_FinishOperation(d, s);
  const char* serve[] = {"serve"};
  TF_Session* sess = load(FIX, serve, 1, g, NULL, s);
  CHECK(sess == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(strcmp(TF_Message(s), "Graph is non-empty.") == 0);
  CHECK(graph_size(g) == 1);
  TF_DeleteGraph(g);
  /* A non-empty output buffer. */
  g = TF_NewGraph();
  TF_Buffer* buf = TF_NewBufferFromString("x", 1);
  sess = load(FIX, serve, 1, g, buf, s);
  CHECK(sess == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(graph_size(g) == 0);
  TF_DeleteBuffer(buf);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

/* ---- copies of the fixture in a temporary directory ---- */

static int write_file(const char* path, const void* data, size_t n) {
  FILE* f = fopen(path, "wb");
  if (!f) return 0;
  int ok = fwrite(data, 1, n, f) == n;
  return fclose(f) == 0 && ok;
}

static int copy_file(const char* from, const char* to) {
  size_t n = 0;
  char* data = ctest_read_file(from, &n);
  int ok = data && write_file(to, data, n);
  free(data);
  return ok;
}

static char tmp_root[64];

static void path_in(char* out, size_t cap, const char* rel) {
  snprintf(out, cap, "%s/%s", tmp_root, rel);
}

static void make_copy(int with_index, int with_data) {
  char p[256];
  path_in(p, sizeof p, "assets");
  mkdir(p, 0755);
  path_in(p, sizeof p, "variables");
  mkdir(p, 0755);
  path_in(p, sizeof p, "assets/vocab.txt");
  CHECK(copy_file(FIX "/assets/vocab.txt", p));
  path_in(p, sizeof p, "saved_model.pb");
  CHECK(copy_file(FIX "/saved_model.pb", p));
  path_in(p, sizeof p, "variables/variables.index");
  if (with_index) CHECK(copy_file(FIX "/variables/variables.index", p));
  else unlink(p);
  path_in(p, sizeof p, "variables/variables.data-00000-of-00001");
  if (with_data) CHECK(copy_file(FIX "/variables/variables.data-00000-of-00001", p));
  else unlink(p);
}

static void test_missing_variables(void) {
  const char* serve[] = {"serve"};
  /* No variables at all: TF loads without restoring; reading a variable then fails. */
  make_copy(0, 0);
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_Session* sess = load(tmp_root, serve, 1, g, NULL, s);
  CHECK_OK(s);
  if (sess) {
    TF_Output o = out_of(g, "layer1/w/Read/ReadVariableOp", 0);
    TF_Tensor* v = NULL;
    TF_SessionRun(sess, NULL, NULL, NULL, 0, &o, &v, 1, NULL, 0, NULL, s);
    CHECK(TF_GetCode(s) != TF_OK && v == NULL);
    close_session(sess);
  }
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
  /* An index without its data file: the restore op's error, the graph left empty. */
  make_copy(1, 0);
  expect_error(tmp_root, serve, 1, TF_NOT_FOUND, NULL);
}

/* Every truncation and a spread of bit flips of saved_model.pb: an error status or a load,
 * never a crash (ASan build). */
static void test_corrupt_pb(void) {
  const char* serve[] = {"serve"};
  size_t n = 0;
  char* pb = ctest_read_file(FIX "/saved_model.pb", &n);
  CHECK(pb != NULL);
  if (!pb) return;
  make_copy(1, 1);
  char p[256];
  path_in(p, sizeof p, "saved_model.pb");
  write_file(p, "\xff\xff\xff", 3);
  char want[400];
  snprintf(want, sizeof want, "Can't parse %s as binary proto", p);
  expect_error(tmp_root, serve, 1, TF_DATA_LOSS, want);
  int loads = 0, errors = 0;
  for (size_t cut = 1; cut < n; cut += 61) {
    write_file(p, pb, cut);
    TF_Status* s = TF_NewStatus();
    TF_Graph* g = TF_NewGraph();
    TF_Session* sess = load(tmp_root, serve, 1, g, NULL, s);
    if (sess) {
      close_session(sess);
      loads++;
    } else {
      errors++;
      CHECK(graph_size(g) == 0);
    }
    TF_DeleteGraph(g);
    TF_DeleteStatus(s);
  }
  for (size_t bit = 3; bit < 8 * n; bit += 397) {
    pb[bit / 8] ^= (char)(1 << (bit % 8));
    write_file(p, pb, n);
    pb[bit / 8] ^= (char)(1 << (bit % 8));
    TF_Status* s = TF_NewStatus();
    TF_Graph* g = TF_NewGraph();
    TF_Session* sess = load(tmp_root, serve, 1, g, NULL, s);
    if (sess) {
      close_session(sess);
      loads++;
    } else {
      errors++;
      CHECK(TF_GetCode(s) != TF_OK && graph_size(g) == 0);
    }
    TF_DeleteGraph(g);
    TF_DeleteStatus(s);
  }
  CHECK(errors > 100); /* truncations cut messages short */
  printf("corrupt saved_model.pb: %d loads, %d errors\n", loads, errors);
  free(pb);
}


/* saved_model.pbtxt (text format, as TF's builder writes it with save(as_text=True)) parses
 * to the same MetaGraphDef as saved_model.pb: the text of the binary fixture is written by
 * tools/gen_saved_model_c_fixture.py beside it. */
static void test_pbtxt(void) {
  const char* serve[] = {"serve"};
  TF_Status* s = TF_NewStatus();
  TF_Buffer* from_pb = TF_NewBuffer();
  TF_Buffer* from_txt = TF_NewBuffer();
  TF_Graph* g1 = TF_NewGraph();
  TF_Graph* g2 = TF_NewGraph();
  TF_Session* a = load(FIX, serve, 1, g1, from_pb, s);
  CHECK_OK(s);
  TF_Session* b = load("tests/fixtures/saved_model_c/mlp_pbtxt", serve, 1, g2, from_txt, s);
  CHECK_OK(s);
  size_t n = 0;
  char* want = ctest_read_file("tests/fixtures/saved_model_c/meta_graph_serve.pb", &n);
  CHECK(want && n > 1000 && from_txt->length == n && memcmp(from_txt->data, want, n) == 0);
  CHECK(from_pb->length == n); /* the same fields; map entries in the file's order */
  free(want);
  if (b) {
    int64_t dims[2] = {2, 3};
    TF_Tensor* x = TF_AllocateTensor(TF_FLOAT, dims, 2, sizeof(X));
    memcpy(TF_TensorData(x), X, sizeof(X));
    TF_Output in = out_of(g2, "x", 0), out = out_of(g2, "probs", 0);
    TF_Tensor* v = NULL;
    TF_SessionRun(b, NULL, &in, &x, 1, &out, &v, 1, NULL, 0, NULL, s);
    CHECK_OK(s);
    for (int i = 0; v && i < 6; i++) CHECK_NEAR(((const float*)TF_TensorData(v))[i], PROBS[i], 1e-6);
    if (v) TF_DeleteTensor(v);
    TF_DeleteTensor(x);
  }
  if (a) close_session(a);
  if (b) close_session(b);
  TF_DeleteGraph(g1);
  TF_DeleteGraph(g2);
  TF_DeleteBuffer(from_pb);
  TF_DeleteBuffer(from_txt);
  TF_DeleteStatus(s);
}

/* A text SavedModel whose op list carries full types (ArgDef.experimental_full_type, on
 * Shape's output), as TF 2.21 writes it (tests/fixtures/full_type/,
 * tools/gen_full_type_fixtures.py): y = (x @ ones([3, 2])) * batch. */
static void test_pbtxt_full_types(void) {
  const char* serve[] = {"serve"};
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_Session* sess = load("tests/fixtures/full_type/saved_model", serve, 1, g, NULL, s);
  CHECK_OK(s);
  if (sess) {
    /* x = [[1, 2, 3], [0.5, -1, 2]]: row sums 6 and 1.5, times the batch size 2 */
    static const float xv[6] = {1.0f, 2.0f, 3.0f, 0.5f, -1.0f, 2.0f};
    int64_t dims[2] = {2, 3};
    TF_Tensor* x = TF_AllocateTensor(TF_FLOAT, dims, 2, sizeof xv);
    memcpy(TF_TensorData(x), xv, sizeof xv);
    TF_Output in = out_of(g, "x", 0), out = out_of(g, "y", 0);
    TF_Tensor* v = NULL;
    TF_SessionRun(sess, NULL, &in, &x, 1, &out, &v, 1, NULL, 0, NULL, s);
    CHECK_OK(s);
    const float want[4] = {12.0f, 12.0f, 3.0f, 3.0f};
    for (int i = 0; v && i < 4; i++) CHECK_NEAR(((const float*)TF_TensorData(v))[i], want[i], 1e-6);
    if (v) TF_DeleteTensor(v);
    TF_DeleteTensor(x);
    close_session(sess);
  }
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

/* Malformed text: TF's DataLoss wording, never a crash (every truncation of a piece of the
 * text, and some syntax errors). */
static void test_bad_pbtxt(void) {
  const char* serve[] = {"serve"};
  char p[256], want[400];
  make_copy(1, 1);
  path_in(p, sizeof p, "saved_model.pb");
  unlink(p);
  path_in(p, sizeof p, "saved_model.pbtxt");
  snprintf(want, sizeof want, "Can't parse %s as text proto", p);
  const char* bad[] = {"meta_graphs {", "meta_graphs { nope: 1 }", "saved_model_schema_version: x",
                       "saved_model_schema_version: \"1\"", "meta_graphs { meta_info_def { tags: \"a }}",
                       "meta_graphs [ { } ", "meta_graphs { graph_def { node { attr { key: \"T\" "
                       "value { type: DT_NOPE } } } } }", "saved_model_schema_version: 99999999999999999999"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    write_file(p, bad[i], strlen(bad[i]));
    expect_error(tmp_root, serve, 1, TF_DATA_LOSS, want);
  }
  size_t n = 0;
  char* txt = ctest_read_file("tests/fixtures/saved_model_c/mlp_pbtxt/saved_model.pbtxt", &n);
  CHECK(txt != NULL);
  int errors = 0;
  for (size_t cut = 1; txt && cut < n; cut += 97) {
    write_file(p, txt, cut);
    TF_Status* s = TF_NewStatus();
    TF_Graph* g = TF_NewGraph();
    TF_Session* sess = load(tmp_root, serve, 1, g, NULL, s);
    if (sess) close_session(sess);
    else errors++;
    TF_DeleteGraph(g);
    TF_DeleteStatus(s);
  }
  CHECK(errors > 10);
  free(txt);
  unlink(p);
}

/* Text-format features TF's printer does not use but its parser reads: comments, lists,
 * <> brackets, ';' and ',' separators, single quotes, hex/octal escapes, adjacent strings,
 * enums by number, floats with an f suffix, exponents. A graph of two Consts and no saver. */
static void test_pbtxt_syntax(void) {
  static const char text[] =
      "# a hand-written SavedModel\n"
      "saved_model_schema_version: 0x1\n"
      "meta_graphs <\n"
      "  meta_info_def { tags: ['serve', \"ex\" 'tra'] tags: [] }\n"
      "  graph_def {\n"
      "    node { name: 'f' op: \"Const\"\n"
      "      attr { key: 'dtype' value { type: 1 } }\n"
      "      attr { key: \"value\" value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: 2 } }\n"
      "             float_val: [1.5f, -2.5e-1] } } } };\n"
      "    node { name: 's' op: 'Const' attr { key: 'dtype' value { type: DT_STRING } },\n"
      "      attr { key: 'value' value { tensor { dtype: DT_STRING tensor_shape { }\n"
      "             string_val: '\\x41\\102\\n\\'\\\"z' } } } }\n"
      "    versions { producer: 1987 }\n"
      "  }\n"
      ">\n";
  char p[256];
  make_copy(0, 0);
  path_in(p, sizeof p, "saved_model.pb");
  unlink(p);
  path_in(p, sizeof p, "saved_model.pbtxt");
  write_file(p, text, sizeof text - 1);
  const char* tags[] = {"extra", "serve"};
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_Session* sess = load(tmp_root, tags, 2, g, NULL, s);
  CHECK_OK(s);
  if (sess) {
    TF_Output outs[2] = {out_of(g, "f", 0), out_of(g, "s", 0)};
    TF_Tensor* v[2] = {NULL, NULL};
    TF_SessionRun(sess, NULL, NULL, NULL, 0, outs, v, 2, NULL, 0, NULL, s);
    CHECK_OK(s);
    if (v[0]) {
      const float* f = TF_TensorData(v[0]);
      CHECK(TF_Dim(v[0], 0) == 2 && f[0] == 1.5f && f[1] == -0.25f);
      TF_DeleteTensor(v[0]);
    }
    if (v[1]) {
      const TF_TString* ts = TF_TensorData(v[1]);
      CHECK(TF_StringGetSize(ts) == 6 && memcmp(TF_StringGetDataPointer(ts), "AB\n'\"z", 6) == 0);
      TF_DeleteTensor(v[1]);
    }
    close_session(sess);
  }
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
  unlink(p);
}

static void remove_tree(void) {
  const char* files[] = {"assets/vocab.txt", "variables/variables.index", "saved_model.pbtxt",
                         "variables/variables.data-00000-of-00001", "saved_model.pb"};
  char p[256];
  for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
    path_in(p, sizeof p, files[i]);
    unlink(p);
  }
  path_in(p, sizeof p, "assets");
  rmdir(p);
  path_in(p, sizeof p, "variables");
  rmdir(p);
  rmdir(tmp_root);
}

int main(void) {
  snprintf(tmp_root, sizeof tmp_root, "/tmp/mt_saved_model_XXXXXX");
  if (!mkdtemp(tmp_root)) return 2;
  test_serve();
  test_tag_set();
  test_missing();
  test_non_empty_graph();
  test_missing_variables();
  test_corrupt_pb();
  test_pbtxt();
  test_pbtxt_full_types();
  test_bad_pbtxt();
  test_pbtxt_syntax();
  remove_tree();
  CTEST_END();
}
