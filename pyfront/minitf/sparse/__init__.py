"""tf.sparse (tf.compat.v1.sparse): SparseTensor and the sparse ops."""
from minitf.framework.sparse_tensor import SparseTensor  # noqa: F401
from minitf.ops.sparse_ops import sparse_add as add  # noqa: F401
from minitf.ops.sparse_ops import sparse_placeholder as placeholder  # noqa: F401
from minitf.ops.sparse_ops import sparse_reorder as reorder  # noqa: F401
from minitf.ops.sparse_ops import sparse_tensor_dense_matmul as matmul  # noqa: F401
from minitf.ops.sparse_ops import sparse_tensor_dense_matmul as sparse_dense_matmul  # noqa: F401
from minitf.ops.sparse_ops import sparse_tensor_to_dense as to_dense  # noqa: F401
from minitf.ops.sparse_ops import from_dense, sparse_mask as mask, sparse_merge as merge  # noqa: F401,E501
from minitf.ops.sparse_ops import sparse_expand_dims as expand_dims, sparse_eye as eye  # noqa: F401,E501
from minitf.ops.sparse_ops import sparse_reset_shape as reset_shape  # noqa: F401
from minitf.ops.sparse_ops import sparse_retain as retain  # noqa: F401
from minitf.ops.sparse_ops import sparse_to_indicator as to_indicator  # noqa: F401
from minitf.ops.sparse_ops import sparse_transpose as transpose  # noqa: F401
from minitf.ops.sparse_ops import sparse_reduce_max as reduce_max  # noqa: F401
from minitf.ops.sparse_ops import sparse_reduce_max_sparse as reduce_max_sparse  # noqa: F401
from minitf.ops.sparse_ops import sparse_reduce_sum_sparse as reduce_sum_sparse  # noqa: F401
from minitf.ops.sparse_ops import sparse_reshape as reshape  # noqa: F401
from minitf.ops.sparse_ops import sparse_concat as concat  # noqa: F401
from minitf.ops.sparse_ops import sparse_split as split  # noqa: F401
from minitf.ops.sparse_ops import sparse_reduce_sum as reduce_sum  # noqa: F401
from minitf.ops.sparse_ops import sparse_fill_empty_rows as fill_empty_rows  # noqa: F401
from minitf.ops.sparse_ops import sparse_slice as slice  # noqa: F401,A004
