/* TensorFlow's V1 checkpoint format (tensorflow/core/util/tensor_slice_writer.cc,
 * tensor_slice_reader.cc, saved_tensor_slice.proto): what the Save, SaveSlices,
 * Restore and RestoreSlice ops write and read, and what RestoreV2 falls back to
 * when a prefix has no `.index`.
 *
 * A V1 checkpoint is one file per shard: a sorted string table (table.h) whose
 * "" key holds a SavedTensorSlices with the `meta` table of contents (per
 * tensor: name, shape, dtype, the slices saved) and VersionDef {producer 1},
 * and whose other keys, EncodeTensorNameSlice(name, slice) as in bundle.h,
 * each hold a SavedTensorSlices whose `data` is a SavedSlice {name, slice,
 * TensorProto with only the typed *_val field set}. Several files (a sharded
 * save) are read together through a glob pattern.
 *
 * The writer makes the bytes TensorFlow 2.21 makes for the same tensors
 * (tensors listed in the meta in the order they were added: the kernels add
 * them in name order, as TensorFlow's SaveTensors does) and writes them to
 * `<file>.tempstate<random>`, renamed into place when complete.
 *
 * Errors are TensorFlow's codes and words. Beyond TensorFlow, a record whose
 * values do not match its slice's size or whose bytes do not parse is
 * TF_DATA_LOSS naming the file (TensorFlow copies whatever is there), and
 * every table block's checksum is checked when a file is opened.
 *
 * Memory: a reader holds the files it opened (the table's copy of each);
 * a restore decodes a record straight into the output tensor when the slice
 * asked for is the one stored (the Saver's case). A writer keeps borrowed
 * tensors until finish and encodes one record at a time into the table.
 *
 * Thread-safety: a writer or reader is used by one thread at a time. */
#ifndef MINITF_RUNTIME_CHECKPOINT_V1_H_
#define MINITF_RUNTIME_CHECKPOINT_V1_H_

#include "runtime/bundle.h"

/* TensorFlow's MaxBytesPerElementOrZero: 0 for a dtype the V1 writer
 * cannot serialize. */
size_t mt_v1_max_bytes_per_element(TF_DataType dt);
/* The dtypes TensorFlow's Save/Restore kernels accept
 * (TF_CALL_SAVE_RESTORE_TYPES). */
int mt_v1_kernel_dtype(TF_DataType dt);

/* ---- writing ---- */
typedef struct mt_v1_writer mt_v1_writer;

mt_v1_writer* mt_v1_writer_new(const char* filename, TF_Status* s);
/* Adds `t` as slice `slice` of tensor `name` of shape `full` (a full slice
 * for a whole tensor). `t` is borrowed until finish/abort. Errors as
 * TensorSliceWriter::Add (TF_INTERNAL for a shape or dtype that differs from
 * an earlier slice of `name`, TF_INVALID_ARGUMENT for a record over 2 GiB or a
 * dtype it cannot serialize). */
int mt_v1_writer_add(mt_v1_writer* w, const char* name, const mt_shape* full,
                     const mt_tensor_slice* slice, const TF_Tensor* t, TF_Status* s);
/* Writes the file (temporary name, then renamed) and frees the writer. */
int mt_v1_writer_finish(mt_v1_writer* w, TF_Status* s);
void mt_v1_writer_abort(mt_v1_writer* w);

/* ---- reading ---- */
typedef struct mt_v1_reader mt_v1_reader;

/* Opens every file matching the glob `pattern` and reads their metas. NULL +
 * status: TF_NOT_FOUND "Unsuccessful TensorSliceReader constructor: Failed to
 * find any matching files for <pattern>", TF_DATA_LOSS "Unable to open table
 * file ..." for a file that is not a table, TF_INTERNAL for a missing meta or
 * slices that overlap or disagree, TF_INVALID_ARGUMENT for versions. */
mt_v1_reader* mt_v1_reader_open(const char* pattern, TF_Status* s);
void mt_v1_reader_free(mt_v1_reader* r);

/* Tensors, sorted by name. */
int mt_v1_reader_count(const mt_v1_reader* r);
/* The name of tensor i (borrowed) and its shape, dtype and slice count. */
const char* mt_v1_reader_info(const mt_v1_reader* r, int i, mt_shape* shape,
                              TF_DataType* dtype, int* nslices);
/* Index of tensor `name`, or -1. */
int mt_v1_reader_find(const mt_v1_reader* r, const char* name);
/* Copies slice `slice` (a full slice for the whole tensor) of tensor i into
 * `out`, a tensor of the slice's shape and the tensor's dtype.
 * TF_INVALID_ARGUMENT "Error copying slice data" when the saved slices do
 * not cover it or a record is missing (TensorFlow's words); TF_DATA_LOSS
 * naming the file for a record that does not parse or match its slice. */
int mt_v1_reader_copy(mt_v1_reader* r, int i, const mt_tensor_slice* slice, TF_Tensor* out,
                      TF_Status* s);

#endif
