/* Importing a fixture GraphDef in the C tests (shared by the loop tests). */
#ifndef MINITF_TESTS_CTEST_IMPORT_H_
#define MINITF_TESTS_CTEST_IMPORT_H_

#include <stdio.h>
#include <stdlib.h>

#include "ctest.h"
#include "tensorflow/c/c_api.h"

/* A new graph holding tests/fixtures/<dir>/<name>.pb; a missing file sets
 * TF_NOT_FOUND (with the path), an import error its own status. */
static inline TF_Graph* ctest_import_fixture(const char* dir, const char* name, TF_Status* s) {
  char path[256];
  snprintf(path, sizeof path, "tests/fixtures/%s/%s.pb", dir, name);
  size_t len = 0;
  char* data = ctest_read_file(path, &len);
  TF_Graph* g = TF_NewGraph();
  if (!data) {
    TF_SetStatus(s, TF_NOT_FOUND, path);
    return g;
  }
  TF_Buffer* buf = TF_NewBufferFromString(data, len);
  TF_ImportGraphDefOptions* o = TF_NewImportGraphDefOptions();
  TF_GraphImportGraphDef(g, buf, o, s);
  TF_DeleteImportGraphDefOptions(o);
  TF_DeleteBuffer(buf);
  free(data);
  return g;
}

/* Output `index` of the node called `name`. */
static inline TF_Output ctest_out(TF_Graph* g, const char* name, int index) {
  TF_Output o = {TF_GraphOperationByName(g, name), index};
  return o;
}

#endif
