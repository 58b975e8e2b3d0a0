"""tf.strings (tf.compat.v1.strings): kernels in runtime/kernels/string_ops.c and
runtime/kernels/string/. The unicode_* functions are not here (they return RaggedTensors,
which minitf lacks)."""
from minitf.ops.logging_ops import string_format as format  # noqa: F401,A001
from minitf.ops.string_ops import join, regex_full_match, regex_replace  # noqa: F401
from minitf.ops.string_ops import (  # noqa: F401
    as_string, ngrams, reduce_join, string_bytes_split as bytes_split, string_length as length,
    string_lower as lower, string_strip as strip, string_to_hash_bucket as to_hash_bucket,
    string_to_hash_bucket_fast as to_hash_bucket_fast,
    string_to_hash_bucket_strong as to_hash_bucket_strong, string_to_number as to_number,
    string_upper as upper, strings_split_v1 as split, substr, unsorted_segment_join)
