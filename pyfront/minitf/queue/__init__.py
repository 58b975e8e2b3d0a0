"""tf.queue (tf.compat.v1.queue): the queue classes."""
from minitf.ops.data_flow_ops import (  # noqa: F401
    FIFOQueue, PaddingFIFOQueue, PriorityQueue, QueueBase, RandomShuffleQueue)
