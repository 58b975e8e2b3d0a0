#!/bin/sh
# Regenerates pyfront/minitf/core/**/*_pb2.py from the .proto files beside them.
# Developer tool (needs grpcio-tools); the generated modules are committed.
#
#   python3 -m venv /tmp/protovenv && /tmp/protovenv/bin/pip install grpcio-tools
#   PYTHON=/tmp/protovenv/bin/python tools/gen_protos.sh
#
# The generated modules register their descriptors in minitf's own pool
# (minitf/core/_pool.py) instead of protobuf's default pool, so minitf and
# real TensorFlow (same message names, package `tensorflow`) can be imported
# into one process. The messages are wire-compatible with TensorFlow's.
set -eu
PYTHON=${PYTHON:-python3}
cd "$(dirname "$0")/../pyfront"
PROTOS=$(ls minitf/core/framework/*.proto minitf/core/protobuf/*.proto minitf/core/util/*.proto minitf/core/example/*.proto minitf/training/*.proto)
"$PYTHON" -m grpc_tools.protoc -I. --python_out=. $PROTOS
for f in $(ls minitf/core/framework/*_pb2.py minitf/core/protobuf/*_pb2.py minitf/core/util/*_pb2.py minitf/core/example/*_pb2.py minitf/training/*_pb2.py); do
  sed -i -e 's/^from google.protobuf import descriptor_pool as _descriptor_pool$/from minitf.core import _pool as _descriptor_pool/' \
         -e 's/_descriptor_pool\.Default()/_descriptor_pool.POOL/' "$f"
done
echo "protoc: $("$PYTHON" -m grpc_tools.protoc --version)"
