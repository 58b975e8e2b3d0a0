"""tf.linalg (filled by the linalg op family)."""
from minitf.ops.math_ops import matmul  # noqa: F401

# --- linalg ---
from minitf.ops.linalg_ops import einsum, matmul  # noqa: F401,E402
from minitf.ops.linalg_ops import (  # noqa: F401,E402
    adjoint, cholesky, cholesky_solve, cross, det, diag_part as tensor_diag_part, eigh,
    eigvalsh, eye, inv, logdet, lstsq, matrix_rank, matrix_transpose, matvec, norm,
    normalize, pinv, qr, slogdet, solve, svd, tensor_diag, tensordot, trace, transpose,
    triangular_solve)
from minitf.ops.linalg_ops import matrix_band_part as band_part  # noqa: F401,E402
from minitf.ops.linalg_ops import matrix_diag as diag  # noqa: F401,E402
from minitf.ops.linalg_ops import matrix_diag_part as diag_part  # noqa: F401,E402
from minitf.ops.linalg_ops import matrix_set_diag as set_diag  # noqa: F401,E402
from minitf.ops.clip_ops import global_norm  # noqa: F401,E402
