/* TFRecord files: TensorFlow's record framing, read and written.
 *
 * A file is a sequence of records, each
 *     uint64 length (little endian)
 *     uint32 masked CRC32C of the 8 length bytes
 *     byte   data[length]
 *     uint32 masked CRC32C of the data
 * (masks from runtime/crc32c.h). With ZLIB or GZIP compression the whole
 * sequence is one zlib (RFC 1950) or gzip (RFC 1952) stream, made and read by
 * zlib; offsets then count bytes of the uncompressed stream, as TensorFlow's
 * do. The writer feeds zlib exactly as TensorFlow's ZlibOutputBuffer does
 * (same input buffering, flush points and options), so its files are byte
 * for byte TensorFlow's.
 *
 * Users: tf.io.TFRecordWriter / tf_record_iterator (through the C API's
 * MT_RecordWriter / MT_RecordReader), the event file writer, and the kernels
 * that read record files (TFRecordDataset, TFRecordReader). Typical reader
 * loop of a kernel:
 *
 *     mt_record_reader* r = mt_record_reader_open(path, MT_RECORD_GZIP, 256 << 10, st);
 *     const char* rec; size_t n;
 *     while (r && mt_record_reader_next(r, &rec, &n, st) == 1) use(rec, n);
 *     mt_record_reader_free(r);   // st is OK at a clean end of file
 *
 * Errors (TF_Status codes, messages name the file):
 *   TF_NOT_FOUND / TF_PERMISSION_DENIED ...  the file cannot be opened (errno's code);
 *   TF_DATA_LOSS  "truncated record at <offset>", "corrupted record at <offset>"
 *                 (bad length or data CRC), or a compressed stream zlib rejects;
 *   TF_INVALID_ARGUMENT  bad zlib options;
 *   TF_RESOURCE_EXHAUSTED  out of memory (a record length is checked against what
 *                 is left of an uncompressed file before anything is allocated).
 *
 * Thread-safety: a reader or writer is used by one thread at a time (the
 * caller serializes: a dataset iterator or a reader op holds its own lock);
 * distinct objects are independent. */
#ifndef MINITF_RUNTIME_RECORD_IO_H_
#define MINITF_RUNTIME_RECORD_IO_H_

#include <stddef.h>
#include <stdint.h>

#include "runtime/status.h"

/* TensorFlow's TFRecordCompressionType values. */
typedef enum {
  MT_RECORD_NONE = 0,
  MT_RECORD_ZLIB = 1,
  MT_RECORD_GZIP = 2,
} mt_record_compression;

/* Parses a compression_type string as TensorFlow's ops take it: "" (none),
 * "ZLIB" or "GZIP". Returns 1, or 0 and TF_INVALID_ARGUMENT for anything else. */
int mt_record_compression_parse(const char* s, mt_record_compression* out, TF_Status* status);

/* TensorFlow's ZlibCompressionOptions (the fields TFRecordOptions sets). */
typedef struct {
  int flush_mode;         /* deflate flush mode whenever the input buffer fills (Z_NO_FLUSH) */
  int input_buffer_size;  /* bytes buffered before deflate is called (256 KiB) */
  int output_buffer_size; /* deflate output buffered before a file write (256 KiB) */
  int window_bits;        /* 15 for ZLIB, 31 (15 + 16) for GZIP */
  int compression_level;  /* Z_DEFAULT_COMPRESSION */
  int compression_method; /* Z_DEFLATED */
  int mem_level;          /* 9 */
  int compression_strategy; /* Z_DEFAULT_STRATEGY */
} mt_zlib_options;

/* TensorFlow's defaults for `c` (ZlibCompressionOptions::DEFAULT() / GZIP()). */
void mt_zlib_options_default(mt_record_compression c, mt_zlib_options* out);

/* The 12-byte header (length + its masked CRC) and 4-byte footer (the
 * data's masked CRC) of one record. */
enum { MT_RECORD_HEADER_SIZE = 12, MT_RECORD_FOOTER_SIZE = 4 };
void mt_record_header(size_t len, unsigned char out[MT_RECORD_HEADER_SIZE]);
void mt_record_footer(const void* data, size_t len, unsigned char out[MT_RECORD_FOOTER_SIZE]);

/* ---------------------------------------------------------------- reader */

typedef struct mt_record_reader mt_record_reader;

/* Opens `path` for reading records. `buffer_size`: bytes read from the file
 * at a time (0: 256 KiB; TFRecordDataset's buffer_size). Returns a reader
 * owned by the caller (mt_record_reader_free), or NULL with `status` set
 * (TF_NOT_FOUND for a missing file, ...). */
mt_record_reader* mt_record_reader_open(const char* path, mt_record_compression c,
                                        size_t buffer_size, TF_Status* status);

/* Reads the next record. Returns 1 with *data/*len set to the record (a
 * buffer of the reader, valid until the next call or free), 0 at a clean end
 * of file (status OK), -1 on error (status set: TF_DATA_LOSS for corruption
 * or truncation, naming the file and the record's offset). After an error
 * the reader stays at the failed record: the next call reports it again. */
int mt_record_reader_next(mt_record_reader* r, const char** data, size_t* len,
                          TF_Status* status);

/* Offset of the next record in the (uncompressed) record stream: 0 at open,
 * then the end of the last record read. */
uint64_t mt_record_reader_offset(const mt_record_reader* r);

/* The path the reader was opened with (owned by the reader). */
const char* mt_record_reader_path(const mt_record_reader* r);

/* Closes the file and frees the reader (NULL is fine). */
void mt_record_reader_free(mt_record_reader* r);

/* ---------------------------------------------------------------- writer */

typedef struct mt_record_writer mt_record_writer;

/* Creates (truncates) `path` for writing records. `options`: NULL for
 * TensorFlow's defaults of `c`; ignored when c is MT_RECORD_NONE. Returns a
 * writer owned by the caller (mt_record_writer_free), or NULL with `status`
 * set (errno's code; TF_INVALID_ARGUMENT for options zlib refuses). */
mt_record_writer* mt_record_writer_open(const char* path, mt_record_compression c,
                                        const mt_zlib_options* options, TF_Status* status);

/* Appends one record. TF_FAILED_PRECONDITION after close; errno's code when
 * the file write fails. */
void mt_record_writer_write(mt_record_writer* w, const void* data, size_t len,
                            TF_Status* status);

/* Pushes what is buffered to the file (for compression: deflate with
 * Z_PARTIAL_FLUSH, as TensorFlow's Flush). A no-op after close. */
void mt_record_writer_flush(mt_record_writer* w, TF_Status* status);

/* Finishes the compressed stream and closes the file. A second close is a
 * no-op. */
void mt_record_writer_close(mt_record_writer* w, TF_Status* status);

/* Closes (ignoring errors) and frees the writer (NULL is fine). */
void mt_record_writer_free(mt_record_writer* w);

#endif
