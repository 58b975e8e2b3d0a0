/* Special functions in double precision, shared by the special-function kernels
 * (special_ops.c) and any kernel that needs them. Float, half and bfloat16 inputs are
 * evaluated through these and rounded once, so they are at least as accurate as
 * TensorFlow's Eigen/Cephes float versions. Domain conventions (NaN, inf at poles) are
 * TensorFlow 2.21's, as its goldens show (tests/fixtures/special_math_expected.json).
 * All functions are pure and thread-safe. */
#ifndef MINITF_RUNTIME_KERNELS_SPECIAL_MATH_H_
#define MINITF_RUNTIME_KERNELS_SPECIAL_MATH_H_

double mt_lgamma(double x);
double mt_digamma(double x);
double mt_erfinv(double y);
double mt_ndtri(double p);
/* exp(-|x|) I0(x), exp(-|x|) I1(x), I0(x), I1(x): modified Bessel functions. */
double mt_bessel_i0e(double x);
double mt_bessel_i1e(double x);
double mt_bessel_i0(double x);
double mt_bessel_i1(double x);
/* Regularized lower / upper incomplete gamma P(a, x), Q(a, x). */
double mt_igamma(double a, double x);
double mt_igammac(double a, double x);
/* d P(a, x) / da. */
double mt_igamma_grad_a(double a, double x);
/* Hurwitz zeta(x, q) = sum_k (q + k)^-x. */
double mt_zeta(double x, double q);
/* n-th derivative of digamma (n a non-negative integer, else NaN). */
double mt_polygamma(double n, double x);
/* Regularized incomplete beta I_x(a, b). */
double mt_betainc(double a, double b, double x);

#endif
