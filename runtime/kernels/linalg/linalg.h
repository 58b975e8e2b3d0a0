/* The parts of the linalg op family (runtime/kernels/linalg_ops.c registers
 * them all from mt_register_linalg_ops, gradients from
 * mt_register_linalg_grads). */
#ifndef MINITF_RUNTIME_KERNELS_LINALG_LINALG_H_
#define MINITF_RUNTIME_KERNELS_LINALG_LINALG_H_

/* MatrixBandPart, MatrixDiag*, MatrixDiagPart*, MatrixSetDiag*, Diag,
 * DiagPart, Cross (diag_ops.c). */
void mt_register_linalg_diag_ops(void);
void mt_register_linalg_diag_grads(void);

/* Cholesky, MatrixInverse, MatrixDeterminant, LogMatrixDeterminant,
 * MatrixSolve, MatrixTriangularSolve, Qr, Svd, SelfAdjointEigV2
 * (lapack_ops.c, over the LAPACK of scipy-openblas32). */
void mt_register_linalg_lapack_ops(void);
void mt_register_linalg_lapack_grads(void);

#endif
