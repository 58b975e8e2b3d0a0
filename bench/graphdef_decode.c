/* GraphDef decoding: what the importer uses (runtime/graphdef_decode.c, mt_graph_def_parse:
 * nesting check, protoc-c's unpack into an arena, conversion into the runtime's
 * node/attr/tensor structs) beside protoc-c's plain unpack alone (tensorflow__graph_def__unpack
 * with malloc: bytes -> protobuf-c structs, no conversion), and the whole TF_GraphImportGraphDef
 * for scale, on the GraphDefs in tests/fixtures. Medians of interleaved samples, same run.
 * (Until the importer moved onto the generated codec, "decode" was a hand-written wire
 * decoder; docs/DESIGN.md has the figures before and after.)
 *
 *   make bench-graphdef     (builds build/bench/graphdef_decode and runs it from the repo root)
 *
 * Figures only; never part of the tests. The runtime is linked in statically (the decoder
 * is hidden inside libc_api.so). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "minitf/core/framework/graph.pb-c.h"
#include "runtime/graphdef.h"
#include "tensorflow/c/c_api.h"

static const char* const FIXTURES[] = {
    "tests/fixtures/seed_examples/graph.pb",     "tests/fixtures/models/tf1_dynamic/graph.pb",
    "tests/fixtures/models/tf1_control_flow/graph.pb",
    "tests/fixtures/models/tf2_control_flow/graph.pb",
    "tests/fixtures/digits_mlp/graph.pb",         "tests/fixtures/models/keras_cnn/graph.pb",
};

#define SAMPLES 31

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_double(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return x < y ? -1 : x > y;
}

static double median(double* v, int n) {
  qsort(v, (size_t)n, sizeof(double), cmp_double);
  return v[n / 2];
}

static uint8_t* read_file(const char* path, size_t* len) {
  FILE* f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t* buf = malloc((size_t)n + 1);
  if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  *len = (size_t)n;
  return buf;
}

static int decode(const uint8_t* data, size_t len, TF_Status* s) {
  mt_graph_def gd;
  int ok = mt_graph_def_parse(data, len, &gd, s);
  if (ok) mt_graph_def_clear(&gd);
  return ok;
}

static int generated(const uint8_t* data, size_t len) {
  Tensorflow__GraphDef* gd = tensorflow__graph_def__unpack(NULL, len, data);
  if (gd) tensorflow__graph_def__free_unpacked(gd, NULL);
  return gd != NULL;
}

static int import(const uint8_t* data, size_t len, TF_Status* s) {
  TF_Graph* g = TF_NewGraph();
  TF_Buffer b = {data, len, NULL};
  TF_GraphImportGraphDef(g, &b, NULL, s);
  TF_DeleteGraph(g);
  return TF_GetCode(s) == TF_OK;
}

int main(void) {
  TF_Status* s = TF_NewStatus();
  printf("GraphDef decode, us per GraphDef: medians of %d interleaved samples, the median\n"
         "same-sample ratio, and each side's fastest sample (least disturbed)\n", SAMPLES);
  printf("%-46s %7s %6s %9s %9s %8s %9s %9s %9s\n", "fixture", "bytes", "nodes", "decode",
         "unpack", "unp/dec", "dec min", "unp min", "import");
  for (size_t f = 0; f < sizeof FIXTURES / sizeof *FIXTURES; f++) {
    size_t len = 0;
    uint8_t* data = read_file(FIXTURES[f], &len);
    Tensorflow__GraphDef* probe = data ? tensorflow__graph_def__unpack(NULL, len, data) : NULL;
    if (!probe || !decode(data, len, s) || !import(data, len, s)) {
      fprintf(stderr, "%s: %s\n", FIXTURES[f], probe ? TF_Message(s) : "unreadable");
      return 1;
    }
    size_t nodes = probe->n_node;
    tensorflow__graph_def__free_unpacked(probe, NULL);
    /* enough repetitions that one sample takes ~5 ms */
    int reps = 1;
    for (double t0 = now(); now() - t0 < 0.005; reps *= 2)
      for (int r = 0; r < reps; r++) decode(data, len, s);
    double th[SAMPLES], tg[SAMPLES], ti[SAMPLES];
    for (int k = 0; k < SAMPLES; k++) {
      double t0 = now();
      for (int r = 0; r < reps; r++) decode(data, len, s);
      double t1 = now();
      for (int r = 0; r < reps; r++) generated(data, len);
      double t2 = now();
      for (int r = 0; r < reps / 8 + 1; r++) import(data, len, s);
      double t3 = now();
      th[k] = (t1 - t0) / reps * 1e6;
      tg[k] = (t2 - t1) / reps * 1e6;
      ti[k] = (t3 - t2) / (reps / 8 + 1) * 1e6;
    }
    double rt[SAMPLES]; /* same-sample ratios */
    for (int k = 0; k < SAMPLES; k++) rt[k] = tg[k] / th[k];
    double mh = median(th, SAMPLES), mg = median(tg, SAMPLES), mi = median(ti, SAMPLES);
    double mr = median(rt, SAMPLES); /* sorts th/tg too: [0] is each side's best */
    printf("%-46s %7zu %6zu %9.2f %9.2f %8.2f %9.2f %9.2f %9.2f\n", FIXTURES[f], len, nodes,
           mh, mg, mr, th[0], tg[0], mi);
    free(data);
  }
  TF_DeleteStatus(s);
  return 0;
}
