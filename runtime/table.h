/* TensorFlow's sorted string table (tsl/lib/io/table*.cc, the LevelDB table
 * format), which holds a V2 checkpoint's `.index` file.
 *
 * File layout: data blocks, an (empty) metaindex block, an index block, and
 * a 48-byte footer. A block is a run of prefix-compressed entries
 * (varint32 shared, varint32 unshared, varint32 value length, key suffix,
 * value), a restart point every 16 entries (1 in the index block) where the
 * full key is stored, the restart offsets as fixed32, their count as
 * fixed32, then a 5-byte trailer: compression type (0 none, 1 snappy) and
 * the masked CRC32C of the block and the type byte. The index block maps a
 * key >= every key of a data block (and < every key of the next) to that
 * block's handle (varint64 offset, varint64 size). The footer is the
 * metaindex and index handles padded to 40 bytes and the magic number
 * 0xdb4775248b80fb57 as two little-endian fixed32.
 *
 * The builder makes the bytes TensorFlow's TableBuilder makes for the same
 * keys (block size 256 KiB, no compression, as BundleWriter writes them).
 * The reader checks every block's CRC and decodes every entry of the file up
 * front (index files are small), so a lookup cannot fail later; malformed
 * input gives TF_DATA_LOSS with TensorFlow's words. Snappy blocks are
 * decompressed by a small decoder here (TensorFlow reads them; it writes
 * bundles uncompressed).
 *
 * Thread-safety: a builder or table is used by one thread at a time; a
 * finished table is read-only and may be shared. */
#ifndef MINITF_RUNTIME_TABLE_H_
#define MINITF_RUNTIME_TABLE_H_

#include <stddef.h>
#include <stdint.h>
#include "runtime/proto.h"
#include "tensorflow/c/tf_status.h"

#define MT_TABLE_MAGIC 0xdb4775248b80fb57ull
#define MT_TABLE_FOOTER_LEN 48
#define MT_TABLE_BLOCK_SIZE 262144

typedef struct mt_block_builder {
  mt_pb_writer buf;
  uint32_t* restarts;
  size_t nrestarts, cap_restarts;
  int counter, interval;
  char* last_key;
  size_t last_len, last_cap;
  int failed;
} mt_block_builder;

typedef struct mt_table_builder {
  mt_pb_writer out; /* the file's bytes */
  mt_block_builder data, index;
  size_t block_size;
  char* last_key;
  size_t last_len, last_cap;
  int64_t nentries;
  int pending_index; /* a flushed block awaits its index entry */
  uint64_t pending_off, pending_size;
  int failed;
} mt_table_builder;

/* `block_size` 0 = TensorFlow's 256 KiB (tests pass small sizes to make
 * many blocks). Keys must be added in strictly increasing bytewise order. */
void mt_table_builder_init(mt_table_builder* b, size_t block_size);
void mt_table_add(mt_table_builder* b, const void* key, size_t klen, const void* val,
                  size_t vlen);
/* Writes the metaindex, index and footer and hands over the file's bytes
 * (free() them). Returns 0 with TF_RESOURCE_EXHAUSTED when memory ran out.
 * The builder is freed either way. */
int mt_table_finish(mt_table_builder* b, uint8_t** data, size_t* len, TF_Status* s);
void mt_table_builder_free(mt_table_builder* b);

typedef struct mt_table_entry {
  const uint8_t* key; /* into the table's key arena */
  size_t klen;
  const uint8_t* val; /* into the table's block copies */
  size_t vlen;
} mt_table_entry;

typedef struct mt_table {
  int64_t n; /* entries, in increasing key order */
  mt_table_entry* entries;
  uint8_t** chunks; /* owned allocations: decoded blocks and keys */
  size_t nchunks, cap_chunks;
} mt_table;

/* Decodes a whole table file. On error returns 0 with TF_DATA_LOSS (the
 * message is TensorFlow's, e.g. "block checksum mismatch"; callers add the
 * file name) and leaves *t empty. */
int mt_table_open(const uint8_t* file, size_t n, mt_table* t, TF_Status* s);
/* Same, taking over `file` (a malloc'd buffer, freed with the table or on
 * error) instead of copying it: for tables that hold tensor data (V1
 * checkpoints). */
int mt_table_open_owned(uint8_t* file, size_t n, mt_table* t, TF_Status* s);
void mt_table_free(mt_table* t);
/* Index of the first entry with key >= `key`, or t->n. */
int64_t mt_table_seek(const mt_table* t, const void* key, size_t klen);
/* The entry with exactly `key`, or NULL. */
const mt_table_entry* mt_table_get(const mt_table* t, const void* key, size_t klen);

/* Snappy decompression of one block (exposed for tests): returns a
 * malloc'd buffer of *out_len bytes, or NULL with TF_DATA_LOSS
 * "corrupted compressed block contents". */
uint8_t* mt_snappy_uncompress(const uint8_t* in, size_t n, size_t* out_len, TF_Status* s);

#endif
