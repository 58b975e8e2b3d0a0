"""minitf's own protobuf descriptor pool.

The generated *_pb2 modules (tools/gen_protos.sh) register TensorFlow's
message types (package `tensorflow`) here rather than in protobuf's default
pool, so importing real TensorFlow in the same process does not clash.
"""
from google.protobuf import descriptor_pool

POOL = descriptor_pool.DescriptorPool()
