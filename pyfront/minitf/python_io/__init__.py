"""tf.compat.v1.python_io: TFRecord files (minitf.io.tf_record)."""
from minitf.io.tf_record import (  # noqa: F401
    TFRecordCompressionType, TFRecordOptions, TFRecordWriter, tf_record_iterator)
