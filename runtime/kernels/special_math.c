/* Special functions in double precision (special_math.h). The methods are the textbook
 * ones: asymptotic series after upward recurrence (digamma), Halley refinement of a rational
 * first guess on libm's erf/erfc (erfinv, ndtri), power series and Hankel's asymptotic
 * expansion (Bessel I0/I1), the power series and Legendre's continued fraction with
 * Lentz's method (incomplete gamma), Euler-Maclaurin summation (Hurwitz zeta) and the
 * continued fraction of the incomplete beta function. */
#include "runtime/kernels/special_math.h"

#include <float.h>
#include <math.h>

#define EPS 1e-17
#define TINY 1e-300

double mt_lgamma(double x) {
  int sign;
  return lgamma_r(x, &sign);
}

/* psi(x) for x >= 10: log x - 1/(2x) - sum B_2k / (2k x^2k). */
static double digamma_asymptotic(double x) {
  static const double c[] = {1.0 / 12, -1.0 / 120, 1.0 / 252, -1.0 / 240, 1.0 / 132,
                             -691.0 / 32760, 1.0 / 12};
  const double z = 1 / (x * x);
  double s = 0;
  for (int k = (int)(sizeof c / sizeof c[0]) - 1; k >= 0; k--) s = s * z + c[k];
  return log(x) - 0.5 / x - s * z;
}

double mt_digamma(double x) {
  if (isnan(x) || x == -INFINITY) return NAN;
  if (x == INFINITY) return INFINITY;
  double reflection = 0;
  int reflected = 0;
  if (x <= 0) {
    if (x == floor(x)) return NAN; /* poles at 0, -1, -2, ... */
    /* psi(x) = psi(1 - x) - pi / tan(pi x); tan has period 1, so its argument is reduced
     * exactly to [-1/2, 1/2] (keeps tiny negative x exact). */
    reflection = M_PI / tan(M_PI * (x - nearbyint(x)));
    reflected = 1;
    x = 1 - x;
  }
  double w = 0;
  while (x < 10) {
    w += 1 / x;
    x += 1;
  }
  const double y = digamma_asymptotic(x) - w;
  return reflected ? y - reflection : y;
}

/* erfc^-1(q) for q in (0, 2]. */
static double erfcinv(double q) {
  if (q > 1) return -erfcinv(2 - q);
  const double t = sqrt(-2 * log(q / 2));
  double x = -0.70711 * ((2.30753 + t * 0.27061) / (1 + t * (0.99229 + t * 0.04481)) - t);
  for (int i = 0; i < 3; i++) {
    const double err = erfc(x) - q;
    x += err / (1.1283791670955126 * exp(-x * x) - x * err);
  }
  return x;
}

double mt_erfinv(double y) {
  if (isnan(y) || y < -1 || y > 1) return NAN;
  if (y == 1) return INFINITY;
  if (y == -1) return -INFINITY;
  const double a = fabs(y);
  double x;
  if (a > 0.5) {
    x = erfcinv(1 - a); /* 1 - a is exact here */
  } else {
    /* Halley on erf(x) = a from the series' first terms. */
    x = 0.88622692545275801 * a * (1 + 0.26179938779914941 * a * a);
    for (int i = 0; i < 4 && a > 0; i++) {
      const double f = erf(x) - a;
      x -= f / (1.1283791670955126 * exp(-x * x) + x * f);
    }
  }
  return y < 0 ? -x : x;
}

double mt_ndtri(double p) {
  if (isnan(p) || p < 0 || p > 1) return NAN;
  if (p == 0) return -INFINITY;
  if (p == 1) return INFINITY;
  /* Near the median ndtri(p) = sqrt 2 erfinv(2p - 1) (2p - 1 is exact there, and 0 at
   * 1/2); in the tails p = erfc(-x / sqrt 2) / 2, with 1 - p exact for p > 1/2. */
  if (p >= 0.25 && p <= 0.75) return M_SQRT2 * mt_erfinv(2 * p - 1);
  if (p < 0.5) return -M_SQRT2 * erfcinv(2 * p);
  return M_SQRT2 * erfcinv(2 * (1 - p));
}

/* sum_k (x^2/4)^k / (k! (k+nu)!) for nu = 0, 1 (times (x/2)^nu by the caller). */
static double bessel_series(double x, int nu) {
  const double q = x * x / 4;
  double term = 1, sum = 1;
  if (nu == 1) term = sum = 1; /* 1 / (0! 1!) */
  for (int k = 1; k < 500; k++) {
    term *= q / ((double)k * (double)(k + nu));
    sum += term;
    if (term < EPS * sum) break;
  }
  return sum;
}

/* e^-x I_nu(x) for large x > 0 (Hankel): 1/sqrt(2 pi x) sum_k t_k with
 * t_k = t_{k-1} (-(4 nu^2 - (2k-1)^2)) / (8 k x). */
static double bessel_asymptotic(double x, int nu) {
  const double mu = 4.0 * nu * nu;
  double term = 1, sum = 1;
  for (int k = 1; k < 200; k++) {
    const double odd = 2.0 * k - 1;
    const double next = term * -(mu - odd * odd) / (8.0 * k * x);
    if (fabs(next) >= fabs(term)) break; /* the series started to diverge */
    term = next;
    sum += term;
    if (fabs(term) < EPS * fabs(sum)) break;
  }
  return sum / sqrt(2 * M_PI * x);
}

#define BESSEL_SWITCH 25.0

double mt_bessel_i0e(double x) {
  if (isnan(x)) return x;
  const double a = fabs(x);
  if (a == INFINITY) return 0;
  if (a <= BESSEL_SWITCH) return exp(-a) * bessel_series(a, 0);
  return bessel_asymptotic(a, 0);
}

double mt_bessel_i1e(double x) {
  if (isnan(x)) return x;
  const double a = fabs(x);
  double r;
  if (a == INFINITY)
    r = 0;
  else if (a <= BESSEL_SWITCH)
    r = exp(-a) * (a / 2) * bessel_series(a, 1);
  else
    r = bessel_asymptotic(a, 1);
  return x < 0 ? -r : r;
}

/* e^a * v without overflowing early: e^(a/2) (v e^(a/2)). */
static double scale_exp(double a, double v) {
  const double h = exp(a / 2);
  return h * (v * h);
}

double mt_bessel_i0(double x) {
  if (isnan(x)) return x;
  const double a = fabs(x);
  if (a <= BESSEL_SWITCH) return bessel_series(a, 0);
  return scale_exp(a, mt_bessel_i0e(a));
}

double mt_bessel_i1(double x) {
  if (isnan(x)) return x;
  const double a = fabs(x);
  const double r = a <= BESSEL_SWITCH ? (a / 2) * bessel_series(a, 1) : scale_exp(a, mt_bessel_i1e(a));
  return x < 0 ? -r : r;
}

/* log(x^a e^-x / Gamma(a)). */
static double igamma_log_prefactor(double a, double x) { return a * log(x) - x - mt_lgamma(a); }

/* P(a, x) by its power series (x < a + 1 or x <= 1). */
static double igamma_series(double a, double x) {
  double r = a, c = 1, sum = 1;
  for (int n = 0; n < 100000; n++) {
    r += 1;
    c *= x / r;
    sum += c;
    if (c <= EPS * sum) break;
  }
  return sum * exp(igamma_log_prefactor(a, x)) / a;
}

/* Q(a, x) by Legendre's continued fraction (modified Lentz). */
static double igammac_fraction(double a, double x) {
  double b = x + 1 - a, c = 1 / TINY, d = 1 / b, h = d;
  for (int i = 1; i < 100000; i++) {
    const double an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (fabs(d) < TINY) d = TINY;
    c = b + an / c;
    if (fabs(c) < TINY) c = TINY;
    d = 1 / d;
    const double del = d * c;
    h *= del;
    if (fabs(del - 1) < EPS) break;
  }
  return exp(igamma_log_prefactor(a, x)) * h;
}

double mt_igamma(double a, double x) {
  if (x == 0) return 0; /* TensorFlow: also for a NaN */
  if (isnan(a) || isnan(x)) return NAN;
  if (x < 0 || a <= 0) return NAN;
  if (isinf(a)) return 0;
  if (isinf(x)) return 1;
  if (x > 1 && x > a) return 1 - igammac_fraction(a, x);
  return igamma_series(a, x);
}

double mt_igammac(double a, double x) {
  if (isnan(a) || isnan(x)) return NAN;
  if (x < 0 || a <= 0) return NAN;
  if (isinf(a)) return isinf(x) ? 0 : 1;
  if (isinf(x)) return 0;
  if (x < 1 || x < a) return 1 - igamma_series(a, x);
  return igammac_fraction(a, x);
}

/* dP/da where P is summed by its series: e^-x sum_n x^(a+n) / Gamma(a+n+1) (log x -
 * psi(a+n+1)), with the terms' common ratio x / (a+n) and psi's recurrence. */
static double igamma_grad_a_series(double a, double x) {
  const double lx = log(x);
  double t = exp(a * lx - x - mt_lgamma(a + 1));
  double psi = mt_digamma(a + 1);
  double sum = t * (lx - psi);
  for (int n = 1; n < 1000000 && t != 0; n++) {
    const double an = a + n;
    psi += 1 / an;
    t *= x / an;
    const double term = t * (lx - psi);
    sum += term;
    if (an > x && fabs(term) <= EPS * fabs(sum)) break;
  }
  return sum;
}

/* -dQ/da where Q is the continued fraction exp(l) h: Lentz's iteration carried with its
 * derivative in a (forward mode), dQ/da = exp(l) (h dl/da + dh/da). */
static double igamma_grad_a_fraction(double a, double x) {
  double b = x + 1 - a, c = 1 / TINY, d = 1 / b, h = d;
  double db = -1, dc = 0, dd = -db * d * d, dh = dd;
  for (int i = 1; i < 100000; i++) {
    const double an = -i * (i - a), dan = i;
    b += 2;
    double nd = an * d + b, ndd = dan * d + an * dd + db;
    if (fabs(nd) < TINY) nd = TINY, ndd = 0;
    double nc = b + an / c, ndc = db + dan / c - an * dc / (c * c);
    if (fabs(nc) < TINY) nc = TINY, ndc = 0;
    d = 1 / nd;
    dd = -ndd * d * d;
    c = nc;
    dc = ndc;
    const double del = d * c, ddel = dd * c + d * dc;
    dh = dh * del + h * ddel;
    h *= del;
    if (fabs(del - 1) < EPS) break;
  }
  const double l = igamma_log_prefactor(a, x), dl = log(x) - mt_digamma(a);
  return -exp(l) * (h * dl + dh);
}

double mt_igamma_grad_a(double a, double x) {
  if (isnan(a) || isnan(x) || a <= 0 || x < 0) return NAN;
  if (x == 0 || isinf(x)) return 0;
  if (x > 1 && x > a) return igamma_grad_a_fraction(a, x);
  return igamma_grad_a_series(a, x);
}

/* B_2j / (2j)! for j = 1..12. */
static const double kBernoulliOverFactorial[] = {
    0.08333333333333333, -0.001388888888888889, 3.306878306878307e-05,
    -8.267195767195768e-07, 2.08767569878681e-08, -5.284190138687493e-10,
    1.3382536530684679e-11, -3.3896802963225827e-13, 8.586062056277845e-15,
    -2.174868698558062e-16, 5.5090028283602295e-18, -1.3954464685812522e-19,
};

double mt_zeta(double x, double q) {
  if (x == 1) return INFINITY; /* TensorFlow: also for a NaN q */
  if (isnan(x) || isnan(q)) return NAN;
  if (x < 1) return NAN;
  if (q <= 0) {
    /* A pole at q = 0, -1, ...: inf for even integer x, NaN else (Eigen's convention). */
    if (q == floor(q)) return isinf(x) || (x == floor(x) && fmod(x, 2) == 0) ? INFINITY : NAN;
    if (isinf(x)) return INFINITY; /* some |q + k| < 1 */
    if (x != floor(x)) return NAN; /* (q + k)^-x is complex */
  }
  /* Direct terms until q + n >= 10, then Euler-Maclaurin from a = q + n. */
  double s = 0, a = q;
  int n = 0;
  while (n < 9 || a <= 9) {
    const double b = pow(a, -x);
    s += b;
    a += 1;
    n++;
    if (fabs(b) <= EPS * fabs(s)) return s;
  }
  const double b = pow(a, -x);
  s += a * b / (x - 1) + b / 2;
  double rising = x, apow = b / a; /* x (x+1) ... (x+2j-2) and a^(-x-2j+1) */
  for (int j = 0; j < 12; j++) {
    const double term = kBernoulliOverFactorial[j] * rising * apow;
    s += term;
    if (fabs(term) <= EPS * fabs(s)) break;
    rising *= (x + 2 * j + 1) * (x + 2 * j + 2);
    apow /= a * a;
  }
  return s;
}

double mt_polygamma(double n, double x) {
  if (isnan(n) || isnan(x)) return NAN;
  if (n != floor(n) || n < 0) return NAN;
  if (n == 0) return mt_digamma(x);
  const double sign = fmod(n + 1, 2) == 0 ? 1 : -1;
  return sign * exp(mt_lgamma(n + 1)) * mt_zeta(n + 1, x);
}

/* The continued fraction of I_x(a, b) (modified Lentz). */
static double betacf(double a, double b, double x) {
  const double qab = a + b, qap = a + 1, qam = a - 1;
  double c = 1, d = 1 - qab * x / qap;
  if (fabs(d) < TINY) d = TINY;
  d = 1 / d;
  double h = d;
  for (int m = 1; m < 100000; m++) {
    const int m2 = 2 * m;
    double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (fabs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (fabs(c) < TINY) c = TINY;
    d = 1 / d;
    h *= d * c;
    aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (fabs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (fabs(c) < TINY) c = TINY;
    d = 1 / d;
    const double del = d * c;
    h *= del;
    if (fabs(del - 1) < EPS) break;
  }
  return h;
}

double mt_betainc(double a, double b, double x) {
  if (isnan(a) || isnan(b) || isnan(x)) return NAN;
  if (a <= 0 || b <= 0 || x < 0 || x > 1) return NAN;
  if (x == 0) return 0;
  if (x == 1) return 1;
  const double lbt = mt_lgamma(a + b) - mt_lgamma(a) - mt_lgamma(b) + a * log(x) + b * log1p(-x);
  if (x < (a + 1) / (a + b + 2)) return exp(lbt) * betacf(a, b, x) / a;
  return 1 - exp(lbt) * betacf(b, a, 1 - x) / b;
}
