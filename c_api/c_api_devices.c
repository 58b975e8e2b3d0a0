/* TF_SessionListDevices and the TF_DeviceList accessors: a minitf session runs on one
 * device, the host CPU, named and described as TensorFlow's DirectSession lists its CPU. */
#include <stdlib.h>
#include <sys/random.h>

#include "runtime/status.h"
#include "tensorflow/c/c_api.h"

struct TF_DeviceList {
  int n;
  uint64_t incarnation;
};

/* TF's CPU device attributes: 256 MiB memory limit, a random non-zero incarnation. */
static const char CPU_NAME[] = "/job:localhost/replica:0/task:0/device:CPU:0";
#define CPU_MEMORY_BYTES ((int64_t)268435456)

TF_DeviceList* TF_SessionListDevices(TF_Session* session, TF_Status* status) {
  if (!session) {
    mt_status_setf(status, TF_INVALID_ARGUMENT, "session is null!");
    return NULL;
  }
  TF_DeviceList* l = malloc(sizeof *l);
  if (!l) {
    mt_status_setf(status, TF_RESOURCE_EXHAUSTED, "Out of memory");
    return NULL;
  }
  l->n = 1;
  l->incarnation = 0;
  while (l->incarnation == 0)
    if (getrandom(&l->incarnation, sizeof l->incarnation, 0) != sizeof l->incarnation)
      l->incarnation = (uint64_t)(uintptr_t)l | 1;
  TF_SetStatus(status, TF_OK, "");
  return l;
}

void TF_DeleteDeviceList(TF_DeviceList* list) { free(list); }

int TF_DeviceListCount(const TF_DeviceList* list) { return list ? list->n : 0; }

/* TF's checks, in its words. */
static int check_index(const TF_DeviceList* list, int index, TF_Status* status) {
  if (!list) {
    mt_status_setf(status, TF_INVALID_ARGUMENT, "list is null!");
    return 0;
  }
  if (index < 0 || index >= list->n) {
    mt_status_setf(status, TF_INVALID_ARGUMENT, "index out of bounds");
    return 0;
  }
  TF_SetStatus(status, TF_OK, "");
  return 1;
}

const char* TF_DeviceListName(const TF_DeviceList* list, int index, TF_Status* status) {
  return check_index(list, index, status) ? CPU_NAME : NULL;
}

const char* TF_DeviceListType(const TF_DeviceList* list, int index, TF_Status* status) {
  return check_index(list, index, status) ? "CPU" : NULL;
}

int64_t TF_DeviceListMemoryBytes(const TF_DeviceList* list, int index, TF_Status* status) {
  return check_index(list, index, status) ? CPU_MEMORY_BYTES : -1;
}

uint64_t TF_DeviceListIncarnation(const TF_DeviceList* list, int index, TF_Status* status) {
  return check_index(list, index, status) ? list->incarnation : 0;
}
