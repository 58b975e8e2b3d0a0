"""Gradient goldens from real TensorFlow for the op golden cases (developer tool).

Usage: /opt/tfvenv/bin/python tools/goldens/gen_gradients.py FAMILY [FAMILY ...]
           [--skip-ops A,B] [--skip-cases NAME,NAME]

(--skip-ops / --skip-cases leave out what minitf does not differentiate yet; the closing
notes list them.)

For every case of tests/fixtures/goldens/<family>/cases.json that ran without error, this
rebuilds the op in TensorFlow 2.21 exactly as the case describes (placeholders of the inputs'
dtypes and static shapes, constants where the case has them) and records
``tf.gradients(float_outputs, float_inputs, grad_ys=[w_j])`` with fixed weights
``w_j = cos(arange(size) + j)`` shaped like output j: the gradient of
sum_j reduce_sum(output_j * w_j), through the op's own gradient only. float32/float64
inputs and outputs only; a case whose op TensorFlow cannot differentiate is recorded as
``"no_gradient"`` (minitf must raise LookupError too), an input TensorFlow returns None for as
null. Writes tests/fixtures/goldens/<family>/grads.json and grads.npz, replayed by
tests/python/test_gradient_goldens.py.
"""
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import golden_lib  # noqa: E402
from golden_lib import OUT_DIR, tf  # noqa: E402

FLOATS = ("float32", "float64")
TOL = {"float32": (1e-5, 1e-5), "float64": (1e-10, 1e-10)}


def weights(shape, dtype, j):
    n = int(np.prod(shape)) if len(shape) else 1
    return np.cos(np.arange(n, dtype=np.float64) + j).reshape(shape).astype(dtype)


def build(case, arrays):
    kwargs, feeds, float_inputs = {}, {}, []
    for spec in case["inputs"]:
        value = arrays[spec["key"]]
        if spec["dtype"] == "bfloat16" or spec["dtype"] == "string":
            return None
        if spec["const"]:
            t = tf.constant(value, dtype=tf.as_dtype(spec["dtype"]), name=spec["node"])
        else:
            t = tf.placeholder(tf.as_dtype(spec["dtype"]), value.shape, name=spec["node"])
            feeds[t] = value
        if spec["dtype"] in FLOATS and not spec["const"]:
            float_inputs.append((spec, t))
        if spec["list"]:
            kwargs.setdefault(spec["arg"], []).append(t)
        else:
            kwargs[spec["arg"]] = t
    kwargs.update({k: golden_lib._decode_attr(v) for k, v in case["attrs"].items()})
    out = getattr(tf.raw_ops, case["op"])(name="op", **kwargs)
    op = tf.get_default_graph().get_operation_by_name("op")
    del out
    return op, feeds, float_inputs


def gradient_case(case, arrays, out_arrays, idx):
    g = tf.Graph()
    with g.as_default():
        built = build(case, arrays)
        if built is None:
            return None
        op, feeds, float_inputs = built
        outs = [(j, t) for j, t in enumerate(op.outputs) if t.dtype.name in FLOATS]
        if not float_inputs or not outs:
            return None
        ys, grad_ys = [], []
        for j, t in outs:
            shape = arrays[case["outputs"][j]["key"]].shape
            ys.append(t)
            grad_ys.append(tf.constant(weights(shape, t.dtype.as_numpy_dtype, j)))
        record = {"name": case["name"], "op": case["op"]}
        try:
            grads = tf.gradients(ys, [t for _, t in float_inputs], grad_ys=grad_ys)
        except LookupError:
            record["no_gradient"] = True
            return record
        except (ValueError, TypeError, NotImplementedError):
            return None  # TensorFlow itself cannot build this gradient: nothing to compare
        fetch = [tf.convert_to_tensor(x) for x in grads if x is not None]
        with tf.Session() as sess:
            try:
                values = sess.run(fetch, feeds)
            except tf.errors.OpError as e:
                record["run_error"] = {"class": type(e).__name__,
                                       "match": golden_lib._first_line(e.message)}
                return record
        values = iter(values)
        record["grads"] = []
        for (spec, _), x in zip(float_inputs, grads):
            if x is None:
                record["grads"].append({"node": spec["node"], "key": None})
                continue
            key = "%d/grad/%s" % (idx, spec["node"])
            out_arrays[key] = np.asarray(next(values))
            rtol, atol = TOL[spec["dtype"]]
            # loosen with the case's own forward tolerance, if larger
            for o in case["outputs"]:
                rtol, atol = max(rtol, o["rtol"]), max(atol, o["atol"])
            record["grads"].append({"node": spec["node"], "key": key, "rtol": rtol,
                                    "atol": atol})
        return record


def main(argv):
    skip = set()
    families = []
    it = iter(argv)
    for a in it:
        if a in ("--skip-ops", "--skip-cases"):
            skip.update(next(it).split(","))
        else:
            families.append(a)
    for family in families:
        d = os.path.join(OUT_DIR, family)
        with open(os.path.join(d, "cases.json")) as f:
            meta = json.load(f)
        arrays = np.load(os.path.join(d, "arrays.npz"), allow_pickle=True)
        out_arrays, records = {}, []
        for idx, case in enumerate(meta["cases"]):
            if case["op"] in skip or case["name"] in skip or "construct_error" in case or \
                    "run_error" in case:
                continue
            if os.environ.get("GEN_GRADIENTS_VERBOSE"):
                print(case["name"], flush=True)
            rec = gradient_case(case, arrays, out_arrays, idx)
            if rec is not None:
                records.append(rec)
        with open(os.path.join(d, "grads.json"), "w") as f:
            json.dump({"tf_version": tf.__version__, "family": family, "cases": records}, f,
                      indent=1, sort_keys=True)
        np.savez_compressed(os.path.join(d, "grads.npz"), **out_arrays)
        print("%s: %d gradient cases (%d without gradient)" %
              (family, len(records), sum(1 for r in records if r.get("no_gradient"))))


if __name__ == "__main__":
    main(sys.argv[1:])
