"""tf.compat.v1.lookup: tables (see minitf.ops.lookup_ops)."""
from minitf.lookup import experimental  # noqa: F401
from minitf.ops.lookup_ops import (  # noqa: F401
    KeyValueTensorInitializer, StaticHashTable, StaticVocabularyTable, TextFileIndex,
    TextFileInitializer)
