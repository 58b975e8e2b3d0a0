/* TFRecord files for the Python frontend (tf.io.TFRecordWriter,
 * tf.io.tf_record_iterator): a thin C API over runtime/record_io.h, which
 * has the format, the compression and the error codes. A minitf extension
 * (TensorFlow's Python reaches its C++ RecordWriter/RecordReader through
 * pybind11). Each object is used by one thread at a time. */
#ifndef TENSORFLOW_C_RECORD_IO_H_
#define TENSORFLOW_C_RECORD_IO_H_

#include <stddef.h>
#include <stdint.h>

#include "tensorflow/c/c_api.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An option left to its default (TFRecordOptions' None). */
#define MT_RECORD_OPTION_DEFAULT (-9223372036854775807LL - 1)

typedef struct MT_RecordWriter MT_RecordWriter;
typedef struct MT_RecordReader MT_RecordReader;

/* Creates (truncates) `path` for records. `compression_type`: "", "ZLIB" or
 * "GZIP". `values`: up to 8 zlib options in TFRecordOptions' order
 * (flush_mode, input_buffer_size, output_buffer_size, window_bits,
 * compression_level, compression_method, mem_level, compression_strategy),
 * each a value or MT_RECORD_OPTION_DEFAULT; unused without compression.
 * Returns a writer the caller frees with MT_DeleteRecordWriter, or NULL:
 * TF_INVALID_ARGUMENT for a bad compression type or options, errno's code
 * (TF_NOT_FOUND, TF_PERMISSION_DENIED, ...) when the file cannot be created. */
TF_CAPI_EXPORT extern MT_RecordWriter* MT_NewRecordWriter(const char* path,
                                                          const char* compression_type,
                                                          const int64_t* values, int num_values,
                                                          TF_Status* status);

/* Appends one record (TF_FAILED_PRECONDITION once closed). */
TF_CAPI_EXPORT extern void MT_RecordWriterWrite(MT_RecordWriter* writer, const void* value,
                                                size_t length, TF_Status* status);

/* Writes buffered bytes to the file (a partial flush of the compressed stream). */
TF_CAPI_EXPORT extern void MT_RecordWriterFlush(MT_RecordWriter* writer, TF_Status* status);

/* Finishes the file; later closes do nothing. */
TF_CAPI_EXPORT extern void MT_RecordWriterClose(MT_RecordWriter* writer, TF_Status* status);

/* Closes (errors ignored) and frees; NULL is fine. */
TF_CAPI_EXPORT extern void MT_DeleteRecordWriter(MT_RecordWriter* writer);

/* Opens `path` to read records; `buffer_size` 0 for the default (256 KiB).
 * Returns a reader the caller frees with MT_DeleteRecordReader, or NULL
 * (TF_NOT_FOUND for a missing file, TF_INVALID_ARGUMENT for a bad type). */
TF_CAPI_EXPORT extern MT_RecordReader* MT_NewRecordReader(const char* path,
                                                          const char* compression_type,
                                                          size_t buffer_size, TF_Status* status);

/* The next record: 1 with *data/*length set (the reader's buffer, valid
 * until the next call), 0 at the end of the file, -1 with TF_DATA_LOSS (or
 * an I/O code) naming the file and offset. */
TF_CAPI_EXPORT extern int MT_RecordReaderNext(MT_RecordReader* reader, const char** data,
                                              size_t* length, TF_Status* status);

/* Offset of the next record in the uncompressed record stream. */
TF_CAPI_EXPORT extern uint64_t MT_RecordReaderOffset(MT_RecordReader* reader);

/* Closes and frees; NULL is fine. */
TF_CAPI_EXPORT extern void MT_DeleteRecordReader(MT_RecordReader* reader);

#ifdef __cplusplus
}
#endif

#endif
