/* Device placement checks (runtime/placement.c). */
#ifndef MINITF_RUNTIME_PLACEMENT_H_
#define MINITF_RUNTIME_PLACEMENT_H_

#include "tensorflow/c/tf_status.h"

/* 1 when `device` (a NodeDef device string, "" or NULL for none) can name one of this
 * runtime's `cpus` devices, /job:localhost/replica:0/task:0/device:CPU:<0..cpus-1>: each
 * part given (job, replica, task, device type and index) must match; index "*" matches. */
int mt_device_is_local(const char* device, int cpus);

/* 1 when `device` is local; else 0 with TF_INVALID_ARGUMENT in `s`, TensorFlow's placer
 * message naming `node` and listing the devices. Thread-safe (no state). */
int mt_check_device(const char* node, const char* device, int cpus, TF_Status* s);

#endif  // MINITF_RUNTIME_PLACEMENT_H_
