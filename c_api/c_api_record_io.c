/* TFRecord readers and writers of the C API (tensorflow/c/record_io.h): the
 * runtime's record_io under opaque names. */
#include "tensorflow/c/record_io.h"

#include <stdlib.h>

#include "runtime/record_io.h"
#include "runtime/status.h"

struct MT_RecordWriter {
  mt_record_writer* w;
};
struct MT_RecordReader {
  mt_record_reader* r;
};

/* Fills the options TFRecordOptions set over the compression's defaults. */
static void apply_options(mt_zlib_options* o, const int64_t* values, int n) {
  int* fields[] = {&o->flush_mode,        &o->input_buffer_size, &o->output_buffer_size,
                   &o->window_bits,       &o->compression_level, &o->compression_method,
                   &o->mem_level,         &o->compression_strategy};
  for (int i = 0; i < n && i < 8; i++)
    if (values[i] != MT_RECORD_OPTION_DEFAULT) *fields[i] = (int)values[i];
}

MT_RecordWriter* MT_NewRecordWriter(const char* path, const char* compression_type,
                                    const int64_t* values, int num_values, TF_Status* status) {
  mt_record_compression c;
  if (!mt_record_compression_parse(compression_type, &c, status)) return NULL;
  mt_zlib_options o;
  mt_zlib_options_default(c, &o);
  apply_options(&o, values, num_values);
  MT_RecordWriter* h = mt_calloc(1, sizeof(*h), status);
  if (!h) return NULL;
  h->w = mt_record_writer_open(path, c, &o, status);
  if (!h->w) {
    free(h);
    return NULL;
  }
  return h;
}

void MT_RecordWriterWrite(MT_RecordWriter* writer, const void* value, size_t length,
                          TF_Status* status) {
  mt_record_writer_write(writer->w, value, length, status);
}

void MT_RecordWriterFlush(MT_RecordWriter* writer, TF_Status* status) {
  mt_record_writer_flush(writer->w, status);
}

void MT_RecordWriterClose(MT_RecordWriter* writer, TF_Status* status) {
  mt_record_writer_close(writer->w, status);
}

void MT_DeleteRecordWriter(MT_RecordWriter* writer) {
  if (!writer) return;
  mt_record_writer_free(writer->w);
  free(writer);
}

MT_RecordReader* MT_NewRecordReader(const char* path, const char* compression_type,
                                    size_t buffer_size, TF_Status* status) {
  mt_record_compression c;
  if (!mt_record_compression_parse(compression_type, &c, status)) return NULL;
  MT_RecordReader* h = mt_calloc(1, sizeof(*h), status);
  if (!h) return NULL;
  h->r = mt_record_reader_open(path, c, buffer_size, status);
  if (!h->r) {
    free(h);
    return NULL;
  }
  return h;
}

int MT_RecordReaderNext(MT_RecordReader* reader, const char** data, size_t* length,
                        TF_Status* status) {
  return mt_record_reader_next(reader->r, data, length, status);
}

uint64_t MT_RecordReaderOffset(MT_RecordReader* reader) {
  return mt_record_reader_offset(reader->r);
}

void MT_DeleteRecordReader(MT_RecordReader* reader) {
  if (!reader) return;
  mt_record_reader_free(reader->r);
  free(reader);
}
