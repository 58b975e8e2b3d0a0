/* Runs a frozen TensorFlow GraphDef through minitf's C API (the same calls
 * work against libtensorflow): imports GRAPH.pb, feeds a float32 .npy file
 * to an input tensor, fetches an output and prints, per row, the index of
 * its largest value (the predicted class).
 *
 *   run_graphdef GRAPH.pb INPUT.npy [input_op [output_op]]
 *
 * Defaults: input "x", output "probs". Plain C99; build with
 *   cc run_graphdef.c $(python -m minitf.sysconfig --cflags --libs)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensorflow/c/c_api.h"

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

#define MAX_RANK 8

/* Parses a little-endian float32 C-order .npy file (any rank up to
 * MAX_RANK). Returns the data (inside `file`, which the caller frees) or
 * NULL with a reason in *why. */
static float* parse_npy(char* file, size_t len, int64_t* dims, int* ndims, const char** why) {
  *why = "not a .npy file";
  if (len < 12 || memcmp(file, "\x93NUMPY", 6) != 0) return NULL;
  int v1 = file[6] == 1;
  size_t at = v1 ? 10 : 12;
  size_t hlen = (size_t)(unsigned char)file[8] | (size_t)(unsigned char)file[9] << 8;
  if (!v1) hlen |= (size_t)(unsigned char)file[10] << 16 | (size_t)(unsigned char)file[11] << 24;
  if (hlen > len - at) return NULL;
  char header[1024];
  size_t n = hlen < sizeof(header) - 1 ? hlen : sizeof(header) - 1;
  memcpy(header, file + at, n);
  header[n] = '\0';
  *why = "expected float32 ('<f4') data in C order";
  if (!strstr(header, "'<f4'") || strstr(header, "'fortran_order': True")) return NULL;
  char* shape = strstr(header, "'shape': (");
  *why = "malformed shape in the .npy header";
  if (!shape) return NULL;
  shape += 10;
  *ndims = 0;
  int64_t count = 1;
  while (*shape && *shape != ')') {
    if (*ndims == MAX_RANK) {
      *why = "rank above 8";
      return NULL;
    }
    char* end;
    long long d = strtoll(shape, &end, 10);
    if (end == shape || d < 0) return NULL;
    dims[(*ndims)++] = d;
    count *= d;
    shape = end;
    while (*shape == ',' || *shape == ' ') shape++;
  }
  *why = "file shorter than its shape";
  if ((uint64_t)count > (len - at - hlen) / 4) return NULL;
  return (float*)(file + at + hlen);
}

static void free_nothing(void* data, size_t len, void* arg) { (void)data; (void)len; (void)arg; }

int main(int argc, char** argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s GRAPH.pb INPUT.npy [input_op [output_op]]\n", argv[0]);
    return 2;
  }
  const char* in_name = argc > 3 ? argv[3] : "x";
  const char* out_name = argc > 4 ? argv[4] : "probs";
  size_t glen = 0, xlen = 0;
  char* gbytes = read_file(argv[1], &glen);
  char* xbytes = read_file(argv[2], &xlen);
  int64_t dims[MAX_RANK];
  int ndims = 0;
  const char* why = "cannot read the file";
  float* x = xbytes ? parse_npy(xbytes, xlen, dims, &ndims, &why) : NULL;
  if (!gbytes || !x) {
    if (!gbytes)
      fprintf(stderr, "cannot read %s\n", argv[1]);
    else
      fprintf(stderr, "%s: %s\n", argv[2], why);
    free(gbytes);
    free(xbytes);
    return 1;
  }

  TF_Status* status = TF_NewStatus();
  TF_Graph* graph = TF_NewGraph();
  TF_Buffer* def = TF_NewBufferFromString(gbytes, glen);
  TF_ImportGraphDefOptions* opts = TF_NewImportGraphDefOptions();
  TF_GraphImportGraphDef(graph, def, opts, status);
  TF_DeleteImportGraphDefOptions(opts);
  TF_DeleteBuffer(def);
  int rc = 1;
  TF_Session* sess = NULL;
  TF_Tensor* in = NULL;
  TF_Tensor* out = NULL;
  if (TF_GetCode(status) != TF_OK) {
    fprintf(stderr, "import failed: %s\n", TF_Message(status));
    goto done;
  }
  TF_Operation* in_op = TF_GraphOperationByName(graph, in_name);
  TF_Operation* out_op = TF_GraphOperationByName(graph, out_name);
  if (!in_op || !out_op) {
    fprintf(stderr, "no operation named %s\n", !in_op ? in_name : out_name);
    goto done;
  }
  sess = TF_NewSession(graph, NULL, status);
  if (TF_GetCode(status) != TF_OK) goto fail;
  size_t bytes = sizeof(float);
  for (int k = 0; k < ndims; k++) bytes *= (size_t)dims[k];
  in = TF_NewTensor(TF_FLOAT, dims, ndims, x, bytes, free_nothing, NULL);
  TF_Output feed = {in_op, 0};
  TF_Output fetch = {out_op, 0};
  TF_SessionRun(sess, NULL, &feed, &in, 1, &fetch, &out, 1, NULL, 0, NULL, status);
  if (TF_GetCode(status) != TF_OK) goto fail;
  if (TF_TensorType(out) != TF_FLOAT || TF_NumDims(out) != 2) {
    fprintf(stderr, "expected a float matrix from %s\n", out_name);
    goto done;
  }
  int64_t rows = TF_Dim(out, 0), cols = TF_Dim(out, 1);
  const float* p = TF_TensorData(out);
  for (int64_t r = 0; r < rows; r++) {
    int64_t best = 0;
    for (int64_t c = 1; c < cols; c++)
      if (p[r * cols + c] > p[r * cols + best]) best = c;
    printf("%lld\n", (long long)best);
  }
  rc = 0;
  goto done;
fail:
  fprintf(stderr, "error: %s\n", TF_Message(status));
done:
  TF_DeleteTensor(out);
  TF_DeleteTensor(in);
  if (sess) TF_DeleteSession(sess, status);
  TF_DeleteGraph(graph);
  TF_DeleteStatus(status);
  free(gbytes);
  free(xbytes);
  return rc;
}
