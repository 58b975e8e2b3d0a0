/* TensorFlow's tensor bundle (tensorflow/core/util/tensor_bundle): the V2
 * checkpoint format that SaveV2 writes and RestoreV2 reads.
 *
 * A bundle with prefix P is `P.index`, a sorted string table (table.h)
 * whose "" key holds a BundleHeaderProto (num_shards, endianness, version)
 * and whose other keys are tensor names holding BundleEntryProtos (dtype,
 * shape, shard_id, offset, size, masked crc32c of the bytes, slices), and
 * the data files `P.data-00000-of-0000N`. A tensor's bytes are its buffer
 * as is (little-endian); a string tensor is the varint64 length of each
 * element, the masked CRC32C of those lengths (taken over each length as a
 * 4-byte integer) as fixed32, then the bytes of each element. The entry's
 * crc32c covers everything written for that tensor, as TensorFlow's
 * BundleWriter computes it, so the files are byte-identical to TensorFlow's.
 *
 * Writes are atomic as TensorFlow's: data and index go to
 * `<name>.tempstate<random>` and are renamed when complete (data first,
 * then the index, so an index never names missing data).
 *
 * Errors are TensorFlow's codes and words: a missing key is TF_NOT_FOUND
 * "Key <name> not found in checkpoint"; a corrupt or truncated file is
 * TF_DATA_LOSS naming the file. Reading never allocates more than the files
 * hold (sizes are checked against the file before a tensor is allocated).
 *
 * Thread-safety: a writer or reader is used by one thread at a time. */
#ifndef MINITF_RUNTIME_BUNDLE_H_
#define MINITF_RUNTIME_BUNDLE_H_

#include <stdint.h>
#include "runtime/attr.h"
#include "runtime/table.h"
#include "runtime/tensor_slice.h"
#include "tensorflow/c/tf_status.h"



typedef struct mt_bundle_entry {
  TF_DataType dtype;
  mt_shape shape;
  int32_t shard_id;
  int64_t offset, size;
  uint32_t crc32c; /* as stored: masked */
  int nslices;
  mt_tensor_slice* slices; /* owned */
} mt_bundle_entry;

void mt_bundle_entry_clear(mt_bundle_entry* e);
/* `key` names the entry in the TF_DATA_LOSS "Entry for key <key> not
 * parseable." error. */
int mt_bundle_entry_decode(const void* data, size_t len, const char* key, mt_bundle_entry* e,
                           TF_Status* s);
void mt_bundle_entry_encode(mt_pb_writer* w, const mt_bundle_entry* e);

/* "<prefix>.index" and "<prefix>.data-%05d-of-%05d" (caller frees). */
char* mt_bundle_index_name(const char* prefix);
char* mt_bundle_data_name(const char* prefix, int shard, int nshards);

/* ---- writing ---- */
typedef struct mt_bundle_writer mt_bundle_writer;

/* Creates the prefix's directory (one level, as TensorFlow) and the
 * temporary data file. NULL + status on error. */
mt_bundle_writer* mt_bundle_writer_new(const char* prefix, TF_Status* s);
/* Appends `t` under `key` (TF_INVALID_ARGUMENT "Adding duplicate key: <key>"
 * for a key added before). */
int mt_bundle_writer_add(mt_bundle_writer* w, const char* key, const TF_Tensor* t, TF_Status* s);
/* Appends `t` as slice `slice` of a tensor of shape `full` saved under
 * `key` (a full slice is a plain add), as BundleWriter::AddSlice. */
int mt_bundle_writer_add_slice(mt_bundle_writer* w, const char* key, const mt_shape* full,
                               const mt_tensor_slice* slice, const TF_Tensor* t, TF_Status* s);
/* Writes the index and renames both files into place; frees the writer.
 * On error (also one left from add) the temporary files are removed. */
int mt_bundle_writer_finish(mt_bundle_writer* w, TF_Status* s);
/* Frees the writer and removes its temporary files. */
void mt_bundle_writer_abort(mt_bundle_writer* w);

/* The block size of index tables written from here on (0 = TensorFlow's
 * 256 KiB); for tests that need indexes of several blocks. Not
 * thread-safe with concurrent writers. */
void mt_bundle_set_index_block_size(size_t n);

/* ---- reading ---- */
typedef struct mt_bundle_reader mt_bundle_reader;

/* Reads and checks `<prefix>.index` (every block, the header). A missing
 * index is TF_NOT_FOUND. */
mt_bundle_reader* mt_bundle_reader_open(const char* prefix, TF_Status* s);
void mt_bundle_reader_free(mt_bundle_reader* r);
const mt_table* mt_bundle_reader_table(const mt_bundle_reader* r);
/* The entry of `key` (clear it with mt_bundle_entry_clear). */
int mt_bundle_reader_entry(mt_bundle_reader* r, const char* key, mt_bundle_entry* e,
                           TF_Status* s);
/* The whole tensor saved under `key` (assembled from its slices when it
 * was saved in slices). */
TF_Tensor* mt_bundle_reader_lookup(mt_bundle_reader* r, const char* key, TF_Status* s);
/* The slice `slice` of the tensor under `key` (shape: the slice's). */
TF_Tensor* mt_bundle_reader_lookup_slice(mt_bundle_reader* r, const char* key,
                                         const mt_tensor_slice* slice, TF_Status* s);

/* ---- merging (MergeV2Checkpoints) ---- */
/* Merges the bundles at `prefixes` into `merged`: renames their data files
 * to `merged.data-i-of-N`, writes `merged.index`, deletes the inputs'
 * index files. A missing input is skipped when allow_missing_files (and an
 * error when every one is missing). */
int mt_bundle_merge(const char* const* prefixes, int n, const char* merged,
                    int allow_missing_files, TF_Status* s);

/* ---- shape_and_slice specs ("4 5 0,2:-") ---- */
/* Parses TensorFlow's shape-and-slice string into the full shape, the slice
 * and the slice's shape (TF_INVALID_ARGUMENT with TensorFlow's words). */
int mt_parse_shape_and_slice(const char* spec, mt_shape* full, mt_tensor_slice* slice,
                             mt_shape* slice_shape, TF_Status* s);
/* The table key of a stored slice (TensorFlow's EncodeTensorNameSlice:
 * OrderedCode of 0, the name, the rank, then start and length per dim). */
char* mt_encode_tensor_name_slice(const char* name, const mt_tensor_slice* slice, size_t* len);

#endif
