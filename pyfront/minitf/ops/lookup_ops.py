"""Lookup tables (TensorFlow 2.21's ops/lookup_ops.py as tf.compat.v1.lookup sees it in graph
mode): StaticHashTable (HashTable), StaticVocabularyTable, KeyValueTensorInitializer,
TextFileInitializer, TextFileIndex, experimental.MutableHashTable, and
initialize_all_tables. Tables are session resources made by HashTableV2 /
MutableHashTableV2 and filled by LookupTableImportV2 / InitializeTableFromTextFileV2 (C
kernels in runtime/kernels/lookup_ops.c); each initializer op goes into
GraphKeys.TABLE_INITIALIZERS, so tf.tables_initializer() runs them."""
import uuid

from minitf.framework import constant_op, dtypes, ops
from minitf.framework.op_def_library import apply_op


class TextFileIndex:
    """Special column indices of TextFileInitializer: WHOLE_LINE (-2), the line itself;
    LINE_NUMBER (-1), the line's number from 0 (tf.lookup.TextFileIndex)."""
    WHOLE_LINE = -2
    LINE_NUMBER = -1


def _check_table_dtypes(table, key_dtype, value_dtype):
    if key_dtype.base_dtype != table.key_dtype:
        raise TypeError(f"Invalid key dtype for table, expected {table.key_dtype} but got "
                        f"{key_dtype}.")
    if value_dtype.base_dtype != table.value_dtype:
        raise TypeError(f"Invalid value dtype for table, expected {table.value_dtype} but got "
                        f"{value_dtype}.")


class LookupInterface:
    """What every table has: key_dtype, value_dtype, name, size(), lookup()."""

    def __init__(self, key_dtype, value_dtype):
        self._key_dtype = dtypes.as_dtype(key_dtype)
        self._value_dtype = dtypes.as_dtype(value_dtype)

    @property
    def key_dtype(self):
        return self._key_dtype

    @property
    def value_dtype(self):
        return self._value_dtype

    @property
    def name(self):
        return "LookupInterface"

    @property
    def resource_handle(self):
        return self._resource_handle

    def _keys_tensor(self, keys):
        if not isinstance(keys, ops.Tensor) and not hasattr(keys, "dense_shape"):
            keys = ops.convert_to_tensor(keys, dtype=self._key_dtype)
        key_tensor = keys.values if hasattr(keys, "dense_shape") else keys
        if key_tensor.dtype.base_dtype != self._key_dtype:
            raise TypeError(f"Dtype of argument `keys` must be {self._key_dtype}, received: "
                            f"{key_tensor.dtype}")
        return keys, key_tensor

    def _find(self, keys, default_value, name, scope_values):
        keys, key_tensor = self._keys_tensor(keys)
        with ops.name_scope(name, "%s_Lookup" % self.name, scope_values + [key_tensor]):
            values = apply_op("LookupTableFindV2", table_handle=self.resource_handle,
                              keys=key_tensor, default_value=default_value).outputs[0]
        values.set_shape(key_tensor.shape)
        if hasattr(keys, "dense_shape"):
            from minitf.framework.sparse_tensor import SparseTensor
            return SparseTensor(keys.indices, values, keys.dense_shape)
        return values

    def size(self, name=None):
        """Number of entries, an int64 scalar (op LookupTableSizeV2)."""
        with ops.name_scope(name, "%s_Size" % self.name, [self.resource_handle]):
            return apply_op("LookupTableSizeV2", table_handle=self.resource_handle).outputs[0]


class KeyValueTensorInitializer:
    """Fills a table with keys[i] -> values[i] (tf.lookup.KeyValueTensorInitializer): keys
    and values are tensors (or anything convert_to_tensor takes) of one shape. Its
    initialize(table) is a LookupTableImportV2 in TABLE_INITIALIZERS; at run time a key
    given twice with different values is FailedPreconditionError, unequal shapes
    InvalidArgumentError ("Expected shape [2] for value, got [1]")."""

    def __init__(self, keys, values, key_dtype=None, value_dtype=None, name=None):
        self._keys = ops.convert_to_tensor(keys, dtype=key_dtype, name="keys")
        self._values = ops.convert_to_tensor(values, dtype=value_dtype, name="values")
        self._name = name if name is not None else "key_value_init"
        self.key_dtype = self._keys.dtype
        self.value_dtype = self._values.dtype

    @property
    def _shared_name(self):
        return None

    def initialize(self, table):
        """The op that fills `table` (added to GraphKeys.TABLE_INITIALIZERS)."""
        _check_table_dtypes(table, self._keys.dtype, self._values.dtype)
        with ops.name_scope(self._name, values=(table.resource_handle, self._keys,
                                                self._values)):
            init_op = apply_op("LookupTableImportV2", table_handle=table.resource_handle,
                               keys=self._keys, values=self._values)
        ops.add_to_collection(ops.GraphKeys.TABLE_INITIALIZERS, init_op)
        return init_op


class TextFileInitializer:
    """Fills a table from a text file, one entry per line (tf.lookup.TextFileInitializer):
    key and value are column `key_index` / `value_index` of the line split at `delimiter`,
    or TextFileIndex.WHOLE_LINE (the line) or LINE_NUMBER (its number, plus
    value_index_offset for values); only the first `vocab_size` lines when given.

    ValueError at construction for indices < -2, a LINE_NUMBER that is not int64, a
    WHOLE_LINE that is neither integer nor string, or vocab_size <= 0. At run time
    (op InitializeTableFromTextFileV2): NotFoundError for a missing file,
    InvalidArgumentError for a line without the column ("Invalid number of columns in
    ... line 0 (...) : expected at least 6 got 2"), a field that does not parse ("Field x
    in line 0 is not a valid int64."), or fewer lines than vocab_size."""

    def __init__(self, filename, key_dtype, key_index, value_dtype, value_index,
                 vocab_size=None, delimiter="\t", name=None, value_index_offset=0):
        key_dtype = dtypes.as_dtype(key_dtype)
        value_dtype = dtypes.as_dtype(value_dtype)
        for what, idx, dt in (("key", key_index, key_dtype), ("value", value_index,
                                                                value_dtype)):
            if idx < -2:
                raise ValueError(f"`{what}_index` should be >= -2, received: {idx}.")
            if idx == TextFileIndex.LINE_NUMBER and dt != dtypes.int64:
                raise ValueError(f"`{what}_dtype` must be int64 if `{what}_index` is "
                                 f"{TextFileIndex.LINE_NUMBER}, received: {dt}")
            if (idx == TextFileIndex.WHOLE_LINE and not dt.is_integer
                    and dt != dtypes.string):
                raise ValueError(f"`{what}_dtype` should be either integer or string for "
                                 f"`{what}_index` {TextFileIndex.WHOLE_LINE}, received: "
                                 f"{dt}")
        if vocab_size is not None and vocab_size <= 0:
            raise ValueError(f"`vocab_size` should be > 0, received: {vocab_size}")
        # TF 2 wraps the name in a trackable Asset, whose graph-mode form is a Const
        # named asset_path at the graph's root scope, made here.
        self._filename_arg = filename
        if isinstance(filename, ops.Tensor):
            self._filename = filename
        else:
            with ops.get_default_graph().name_scope(None):
                self._filename = constant_op.constant(filename, dtypes.string,
                                                      name="asset_path")
        self._key_index = key_index
        self._value_index = value_index
        self._vocab_size = vocab_size
        self._delimiter = delimiter
        self._name = name
        self._offset = value_index_offset
        self.key_dtype = key_dtype
        self.value_dtype = value_dtype

    @property
    def _shared_name(self):
        parts = [self._filename_arg]
        if self._vocab_size:
            parts.append("%d" % self._vocab_size)
        parts += [str(self._key_index), str(self._value_index)]
        if self._offset:
            parts.append(str(self._offset))
        return "hash_table_" + "_".join(str(p) for p in parts)

    def initialize(self, table):
        """The op that fills `table` (added to GraphKeys.TABLE_INITIALIZERS; a constant
        file name also goes into GraphKeys.ASSET_FILEPATHS)."""
        _check_table_dtypes(table, self.key_dtype, self.value_dtype)
        with ops.name_scope(self._name, "text_file_init", (table.resource_handle,)):
            filename = ops.convert_to_tensor(self._filename, dtypes.string,
                                             name="asset_filepath")
            init_op = apply_op(
                "InitializeTableFromTextFileV2", table_handle=table.resource_handle,
                filename=filename, key_index=self._key_index, value_index=self._value_index,
                vocab_size=-1 if self._vocab_size is None else self._vocab_size,
                delimiter=self._delimiter, offset=self._offset)
        ops.add_to_collection(ops.GraphKeys.TABLE_INITIALIZERS, init_op)
        if constant_op.is_constant(filename):
            ops.add_to_collection(ops.GraphKeys.ASSET_FILEPATHS, filename)
        return init_op


class StaticHashTable(LookupInterface):
    """A table filled once by `initializer`, then read-only (tf.lookup.StaticHashTable,
    TF1's HashTable): op HashTableV2 with a shared name (the initializer's, else
    hash_table_<uuid>), its initializer op in TABLE_INITIALIZERS.

    lookup(keys): values of keys' shape (a SparseTensor's values looked up), default_value
    for absent keys (op LookupTableFindV2); TypeError for keys of another dtype;
    FailedPreconditionError at run time before initialization ("Table not
    initialized."). size(), export() (keys and values, ops LookupTableSizeV2 /
    LookupTableExportV2). experimental_is_anonymous is not available
    (NotImplementedError)."""

    def __init__(self, initializer, default_value, name=None, experimental_is_anonymous=False):
        if experimental_is_anonymous:
            raise NotImplementedError("minitf has no AnonymousHashTable")
        super().__init__(initializer.key_dtype, initializer.value_dtype)
        self._initializer = initializer
        self._shared_name = initializer._shared_name or "hash_table_%s" % (uuid.uuid4(),)
        self._name = name or "hash_table"
        self._default_value = ops.convert_to_tensor(default_value, dtype=self._value_dtype)
        self._default_value.shape.merge_with([])
        self._resource_handle = apply_op(
            "HashTableV2", shared_name=self._shared_name, key_dtype=self._key_dtype,
            value_dtype=self._value_dtype, name=self._name).outputs[0]
        self._table_name = self._resource_handle.op.name.split("/")[-1]
        self._init_op = initializer.initialize(self)
        self._value_shape = self._default_value.shape

    @property
    def name(self):
        return self._table_name

    @property
    def default_value(self):
        return self._default_value

    @property
    def initializer(self):
        return self._init_op

    @property
    def init(self):
        return self._init_op

    def lookup(self, keys, name=None):
        """Looks `keys` up (see the class docstring)."""
        return self._find(keys, self._default_value, name,
                          [self.resource_handle, self._default_value])

    def export(self, name=None):
        """(keys, values) of every entry, in no particular order."""
        with ops.name_scope(name, "%s_Export" % self.name, [self.resource_handle]):
            op = apply_op("LookupTableExportV2", table_handle=self.resource_handle,
                          Tkeys=self._key_dtype, Tvalues=self._value_dtype)
        keys, values = op.outputs
        values.set_shape(keys.shape.concatenate(self._value_shape))
        return keys, values


HashTable = StaticHashTable


class StaticVocabularyTable(LookupInterface):
    """String (or int64) keys to int64 ids: the initializer's ids for known keys, and
    vocab_size + Fingerprint64(key) % num_oov_buckets for the others
    (tf.lookup.StaticVocabularyTable; a StaticHashTable with default -1, then
    StringToHashBucketFast, AddV2 and SelectV2, as TF builds it). size() is the table's
    size plus num_oov_buckets. ValueError for num_oov_buckets <= 0; TypeError for an
    initializer whose keys are not int64/string or whose values are not int64."""

    def __init__(self, initializer, num_oov_buckets, lookup_key_dtype=None, name=None,
                 experimental_is_anonymous=False):
        if num_oov_buckets <= 0:
            raise ValueError("`num_oov_buckets` must be > 0; use StaticHashTable.")
        if name:
            name = name.rstrip("/")
        if initializer:
            if lookup_key_dtype is None:
                lookup_key_dtype = initializer.key_dtype
            if initializer.key_dtype not in (dtypes.int64, dtypes.string):
                raise TypeError("Invalid `key_dtype`, expected one of %s, but got %s." % (
                    (dtypes.int64, dtypes.string), initializer.key_dtype))
            if initializer.key_dtype.is_integer != lookup_key_dtype.is_integer:
                raise TypeError("Invalid `key_dtype`, expected %s but got %s." % (
                    "integer" if lookup_key_dtype.is_integer else "non-integer",
                    initializer.key_dtype))
            if initializer.value_dtype != dtypes.int64:
                raise TypeError("Invalid `value_dtype`, expected %s but got %s." % (
                    dtypes.int64, initializer.value_dtype))
            self._table = StaticHashTable(initializer, default_value=-1,
                                          experimental_is_anonymous=experimental_is_anonymous)
            name = name or self._table.name
        else:
            lookup_key_dtype = dtypes.string
            self._table = None
            name = name or "hash_bucket"
        lookup_key_dtype = dtypes.as_dtype(lookup_key_dtype)
        if not lookup_key_dtype.is_integer and lookup_key_dtype != dtypes.string:
            raise TypeError(f"Invalid `key_dtype`, expected integer or string, got "
                            f"{lookup_key_dtype}")
        self._num_oov_buckets = num_oov_buckets
        self._table_name = name.split("/")[-1] if name is not None else None
        super().__init__(lookup_key_dtype, dtypes.int64)

    @property
    def name(self):
        return self._table_name

    @property
    def resource_handle(self):
        return self._table.resource_handle if self._table else None

    def size(self, name=None):
        """Known keys plus num_oov_buckets (int64 scalar)."""
        with ops.name_scope(name, "%s_Size" % self.name):
            if self._table:
                tsize = self._table.size()
            else:
                tsize = ops.convert_to_tensor(0, dtype=dtypes.int64)
            return tsize + self._num_oov_buckets

    def lookup(self, keys, name=None):
        """int64 ids of keys' shape (see the class docstring)."""
        from minitf.ops import math_ops, string_ops
        keys, values = self._keys_tensor(keys)
        with ops.name_scope(name, "%s_Lookup" % self.name):
            if self._table and self._table.key_dtype.base_dtype == dtypes.int64:
                values = math_ops.cast(values, dtypes.int64)
            # (TF opens name_scope(None, "hash_bucket") here, which adds no scope.)
            as_str = values if values.dtype == dtypes.string else string_ops.as_string(values)
            buckets = string_ops.string_to_hash_bucket_fast(
                as_str, num_buckets=self._num_oov_buckets, name="hash_bucket")
            if self._table:
                ids = self._table.lookup(values)
                buckets = math_ops.add(buckets, self._table.size())
                is_id_non_default = math_ops.not_equal(ids, self._table.default_value)
                ids = math_ops.where_v2(is_id_non_default, ids, buckets)
            else:
                ids = buckets
        if hasattr(keys, "dense_shape"):
            from minitf.framework.sparse_tensor import SparseTensor
            return SparseTensor(keys.indices, ids, keys.dense_shape)
        return ids


class MutableHashTable(LookupInterface):
    """A table changed by insert / remove at run time (tf.lookup.experimental.
    MutableHashTable; ops MutableHashTableV2, LookupTableInsertV2, LookupTableRemoveV2,
    LookupTableFindV2, LookupTableExportV2). Scalar values only; the table is not
    saved in checkpoints by minitf (checkpoint is accepted and ignored)."""

    def __init__(self, key_dtype, value_dtype, default_value, name="MutableHashTable",
                 checkpoint=True, experimental_is_anonymous=False):
        if experimental_is_anonymous:
            raise NotImplementedError("minitf has no AnonymousMutableHashTable")
        super().__init__(key_dtype, value_dtype)
        self._default_value = ops.convert_to_tensor(default_value, dtype=self._value_dtype)
        self._name = name
        self._resource_handle = apply_op(
            "MutableHashTableV2", shared_name="", use_node_name_sharing=True,
            key_dtype=self._key_dtype, value_dtype=self._value_dtype, name=name).outputs[0]
        self._table_name = self._resource_handle.op.name.split("/")[-1]

    @property
    def name(self):
        return self._table_name

    def lookup(self, keys, dynamic_default_values=None, name=None):
        """Values of keys' shape, the default for absent keys."""
        dflt = (self._default_value if dynamic_default_values is None
                else ops.convert_to_tensor(dynamic_default_values, dtype=self._value_dtype))
        return self._find(keys, dflt, name, [self.resource_handle, dflt])

    def insert(self, keys, values, name=None):
        """Sets keys[i] -> values[i] (an op)."""
        keys = ops.convert_to_tensor(keys, self._key_dtype, name="keys")
        values = ops.convert_to_tensor(values, self._value_dtype, name="values")
        with ops.name_scope(name, "%s_lookup_table_insert" % self.name,
                            [self.resource_handle, keys, values]):
            return apply_op("LookupTableInsertV2", table_handle=self.resource_handle,
                            keys=keys, values=values)

    def remove(self, keys, name=None):
        """Removes keys (absent ones are ignored) (an op)."""
        keys = ops.convert_to_tensor(keys, self._key_dtype, name="keys")
        with ops.name_scope(name, "%s_lookup_table_remove" % self.name,
                            (self.resource_handle, keys, self._default_value)):
            return apply_op("LookupTableRemoveV2", table_handle=self.resource_handle,
                            keys=keys)

    def export(self, name=None):
        """(keys, values) of every entry, in no particular order."""
        with ops.name_scope(name, "%s_lookup_table_export_values" % self.name,
                            [self.resource_handle]):
            op = apply_op("LookupTableExportV2", table_handle=self.resource_handle,
                          Tkeys=self._key_dtype, Tvalues=self._value_dtype)
        return tuple(op.outputs)


def initialize_all_tables(name="init_all_tables"):
    """Deprecated name of tf.compat.v1.tables_initializer (same op)."""
    from minitf.ops.template import tables_initializer
    return tables_initializer(name)
