/* RunMetadata step stats: RunOptions parsing and NodeExecStats encoding. */
#include "runtime/step_stats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "minitf/core/protobuf/config.pb-c.h"
#include "runtime/proto.h"
#include "runtime/status.h"

void mt_step_stats_free(mt_step_stats* st) {
  if (!st) return;
  free(st->nodes);
  st->nodes = NULL;
  st->n = 0;
}

int64_t mt_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t mt_monotonic_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* RunOptions is decoded with the protoc-c codec generated from config.proto. Malformed bytes
 * are TF_SessionRun's "Unparseable RunOptions proto". */
static Tensorflow__RunOptions* run_options(const void* data, size_t len, TF_Status* s) {
  Tensorflow__RunOptions* o = tensorflow__run_options__unpack(NULL, len, data);
  if (!o) mt_status_setf(s, TF_INVALID_ARGUMENT, "Unparseable RunOptions proto");
  return o;
}

int mt_run_options_trace_level(const void* data, size_t len, TF_Status* s) {
  if (!data || len == 0) return 0;
  Tensorflow__RunOptions* o = run_options(data, len, s);
  if (!o) return -1;
  int level = (int)o->trace_level;
  tensorflow__run_options__free_unpacked(o, NULL);
  return level < 0 ? 0 : level;
}

int64_t mt_run_options_timeout_ms(const void* data, size_t len, TF_Status* s) {
  if (!data || len == 0) return 0;
  Tensorflow__RunOptions* o = run_options(data, len, s);
  if (!o) return -1;
  int64_t ms = o->timeout_in_ms;
  tensorflow__run_options__free_unpacked(o, NULL);
  return ms;
}

/* proto3 leaves zero scalars out; so does this writer. */
static void put_int64(mt_pb_writer* w, uint32_t num, int64_t v) {
  if (v != 0) mt_pb_put_int64_field(w, num, v);
}

/* "name = Type(in1, in2:1, ^ctl)", TensorFlow's timeline_label layout. */
static void put_label(mt_pb_writer* w, const TF_Operation* op) {
  size_t cap = strlen(op->name) + strlen(op->op_type) + 8;
  for (int i = 0; i < op->ninputs; i++) cap += strlen(op->inputs[i].oper->name) + 16;
  for (int i = 0; i < op->ncontrol_inputs; i++) cap += strlen(op->control_inputs[i]->name) + 4;
  char* buf = malloc(cap);
  if (!buf) {
    w->failed = 1;
    return;
  }
  size_t n = (size_t)snprintf(buf, cap, "%s = %s(", op->name, op->op_type);
  for (int i = 0; i < op->ninputs; i++) {
    const TF_Output* in = &op->inputs[i];
    n += (size_t)snprintf(buf + n, cap - n, in->index ? "%s%s:%d" : "%s%s", i ? ", " : "",
                          in->oper->name, in->index);
  }
  for (int i = 0; i < op->ncontrol_inputs; i++)
    n += (size_t)snprintf(buf + n, cap - n, "%s^%s", (i || op->ninputs) ? ", " : "",
                          op->control_inputs[i]->name);
  snprintf(buf + n, cap - n, ")");
  mt_pb_put_string_field(w, 8, buf);
  free(buf);
}

/* NodeExecStats (step_stats.proto): node_name 1, all_start_micros 2,
 * op_start_rel_micros 3, op_end_rel_micros 4, all_end_rel_micros 5,
 * timeline_label 8, scheduled_micros 9, all_start_nanos 13,
 * op_start_rel_nanos 14, op_end_rel_nanos 15, all_end_rel_nanos 16,
 * scheduled_nanos 17. */
static void put_node(mt_pb_writer* w, const mt_node_stats* ns) {
  mt_pb_writer sub = mt_pb_writer_make();
  mt_pb_put_string_field(&sub, 1, ns->op->name);
  put_int64(&sub, 2, ns->all_start_ns / 1000);
  put_int64(&sub, 3, ns->op_start_rel_ns / 1000);
  put_int64(&sub, 4, ns->op_end_rel_ns / 1000);
  put_int64(&sub, 5, ns->all_end_rel_ns / 1000);
  put_label(&sub, ns->op);
  put_int64(&sub, 9, ns->all_start_ns / 1000);
  put_int64(&sub, 13, ns->all_start_ns);
  put_int64(&sub, 14, ns->op_start_rel_ns);
  put_int64(&sub, 15, ns->op_end_rel_ns);
  put_int64(&sub, 16, ns->all_end_rel_ns);
  put_int64(&sub, 17, ns->all_start_ns);
  mt_pb_put_message(w, 2, &sub);
}

static void free_bytes(void* data, size_t len) {
  (void)len;
  free(data);
}

int mt_run_metadata_write(const mt_step_stats* st, TF_Buffer* out, TF_Status* s) {
  mt_pb_writer md = mt_pb_writer_make();
  if (st) {
    mt_pb_writer dev = mt_pb_writer_make(), steps = mt_pb_writer_make();
    /* DeviceStepStats: device 1, node_stats 2 */
    mt_pb_put_string_field(&dev, 1, "/job:localhost/replica:0/task:0/device:CPU:0");
    for (int i = 0; i < st->n; i++) put_node(&dev, &st->nodes[i]);
    mt_pb_put_message(&steps, 1, &dev);  /* StepStats.dev_stats */
    mt_pb_put_message(&md, 1, &steps);   /* RunMetadata.step_stats */
  }
  if (md.failed) {
    mt_pb_writer_free(&md);
    mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "OOM serializing RunMetadata");
    return -1;
  }
  size_t len = 0;
  uint8_t* bytes = mt_pb_writer_take(&md, &len);
  if (out->data_deallocator) out->data_deallocator((void*)out->data, out->length);
  out->data = bytes;
  out->length = len;
  out->data_deallocator = bytes ? free_bytes : NULL;
  return 0;
}
