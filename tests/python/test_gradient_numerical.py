"""A float64 numerical check of every gradient, over the gradient golden cases
(tests/fixtures/goldens/<family>/grads.json): for each case whose differentiated inputs are
float64, finite and small, the symbolic gradient of L = sum_j(output_j * w_j) (the same
weights as the goldens) with respect to each input element must equal the central difference
(L(x + h) - L(x - h)) / 2h. Elements where the function is not smooth at the sample point (a
kink of Relu or Max, a tie, a step of Floor) are recognised by the forward and backward
differences disagreeing, and skipped there: a numerical derivative means nothing at such a
point.
Cases whose op is not differentiable in TensorFlow, with a float32 output, or in EXCLUDED are
skipped."""
import glob
import json
import os

import numpy as np
import pytest

import minitf as tf
from test_goldens import _build, _decode
from test_gradient_goldens import weights

GOLDEN_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                          "fixtures", "goldens")
MAX_ELEMENTS = 512  # per differentiated input (5 runs per element)
H = 1e-5
# Ops whose TensorFlow gradient leaves out a path on purpose (minitf's equals TensorFlow's):
EXCLUDED = {
    # d/d labels ignores the gradient flowing into the second output (the backprop)
    "SoftmaxCrossEntropyWithLogits",
}


def _cases():
    params = []
    for path in sorted(glob.glob(os.path.join(GOLDEN_DIR, "*", "grads.json"))):
        d = os.path.dirname(path)
        with open(path) as f:
            grads = json.load(f)
        with open(os.path.join(d, "cases.json")) as f:
            cases = {c["name"]: c for c in json.load(f)["cases"]}
        for rec in grads["cases"]:
            case = cases[rec["name"]]
            if rec.get("no_gradient") or "run_error" in rec:
                continue
            floats = [s for s in case["inputs"] if s["dtype"] in ("float32", "float64") and
                      not s["const"]]
            if not floats or any(s["dtype"] != "float64" for s in floats):
                continue
            outs = [o["dtype"] for o in case["outputs"] if o["dtype"] in ("float32", "float64")]
            if "float32" in outs or case["op"] in EXCLUDED:
                continue  # a float32 output rounds L far above what a difference quotient needs
            params.append(pytest.param(d, case, id="%s/%s" % (grads["family"], rec["name"])))
    return params


_NPZ = {}


def _arrays(d):
    if d not in _NPZ:
        _NPZ[d] = np.load(os.path.join(d, "arrays.npz"))
    return _NPZ[d]


@pytest.mark.parametrize("directory,case", _cases())
def test_gradient_matches_central_differences(directory, case):
    arrays = _arrays(directory)
    g = tf.Graph()
    with g.as_default():
        op, feeds = _build(case, arrays)
        terms = []
        for j, t in enumerate(op.outputs):
            if t.dtype.name not in ("float32", "float64"):
                continue
            shape = _decode(arrays, case["outputs"][j]["key"], case["outputs"][j]["dtype"]).shape
            w = tf.constant(weights(shape, t.dtype.as_numpy_dtype, j))
            terms.append(tf.reduce_sum(tf.cast(t, tf.float64) * tf.cast(w, tf.float64)))
        if not terms:
            pytest.skip("no float output")
        loss = tf.add_n(terms)
        xs = [x for x in feeds if x.dtype == tf.float64]
        grads = tf.gradients(loss, xs)
        checked = 0
        with tf.Session(graph=g) as sess:
            for x, gx in zip(xs, grads):
                base = np.array(feeds[x], dtype=np.float64)
                if base.size > MAX_ELEMENTS or not np.all(np.isfinite(base)):
                    continue
                if gx is None:
                    continue
                symbolic = np.asarray(sess.run(tf.convert_to_tensor(gx), feeds)).reshape(-1)

                def loss_at(flat):
                    fd = dict(feeds)
                    fd[x] = flat.reshape(base.shape)
                    return float(sess.run(loss, fd))

                flat = base.reshape(-1)
                at = loss_at(flat)
                for i in range(flat.size):
                    hi, lo = flat.copy(), flat.copy()
                    hi[i] += H
                    lo[i] -= H
                    forward, backward = (loss_at(hi) - at) / H, (at - loss_at(lo)) / H
                    central = (forward + backward) / 2
                    hi[i], lo[i] = flat[i] + H / 10, flat[i] - H / 10
                    finer = (loss_at(hi) - loss_at(lo)) / (H / 5)
                    scale = max(1.0, abs(central))
                    # Where f is smooth the one-sided slopes differ by about H f'' and the
                    # central ones at H and H/10 agree; at a kink or a tie the one-sided slopes
                    # differ by O(1), at a jump the central ones grow as 1/H.
                    if not np.isfinite([forward, backward, finer]).all() or \
                            abs(forward - backward) > 1e-3 * scale or \
                            abs(central - finer) > 1e-4 * scale:
                        continue
                    assert abs(symbolic[i] - central) <= 1e-5 * scale, (
                        "d loss / d %s[%d]: symbolic %r, numerical %r" %
                        (x.op.name, i, symbolic[i], central))
                    checked += 1
    if checked == 0:
        pytest.skip("no smooth element to check")
