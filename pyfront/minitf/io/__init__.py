"""tf.io (tf.compat.v1.io): the parts minitf has — byte decoders, tensor (de)serialization,
base64, file ops and tf.io.gfile."""
from minitf.io import gfile  # noqa: F401
from minitf.ops.parsing_ops import (  # noqa: F401
    decode_base64, decode_raw, encode_base64, matching_files, parse_tensor, read_file,
    serialize_tensor, write_file)

# --- queues (tf.io aliases of tf.queue) and match_filenames_once ---
from minitf.ops.data_flow_ops import (  # noqa: F401,E402
    PaddingFIFOQueue, PriorityQueue, QueueBase, RandomShuffleQueue)
from minitf.training.input import match_filenames_once  # noqa: F401,E402

# --- TFRecord files ---
from minitf.io.tf_record import (  # noqa: F401,E402
    TFRecordCompressionType, TFRecordOptions, TFRecordWriter, tf_record_iterator)
