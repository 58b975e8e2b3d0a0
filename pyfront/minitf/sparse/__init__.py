"""tf.sparse (tf.compat.v1.sparse): SparseTensor and the sparse ops."""
from minitf.framework.sparse_tensor import SparseTensor  # noqa: F401
from minitf.ops.sparse_ops import sparse_add as add  # noqa: F401
from minitf.ops.sparse_ops import sparse_placeholder as placeholder  # noqa: F401
from minitf.ops.sparse_ops import sparse_reorder as reorder  # noqa: F401
from minitf.ops.sparse_ops import sparse_tensor_dense_matmul as matmul  # noqa: F401
from minitf.ops.sparse_ops import sparse_tensor_dense_matmul as sparse_dense_matmul  # noqa: F401
from minitf.ops.sparse_ops import sparse_tensor_to_dense as to_dense  # noqa: F401
