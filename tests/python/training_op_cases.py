"""Every optimizer update op (TensorFlow's training_ops: Apply*, ResourceApply*, SparseApply*,
ResourceSparseApply*) run ten steps on fixed tensors, written so the same code runs on
TensorFlow 2.21 (tf.compat.v1) and on minitf. The gradients are fixed per step (not computed
from the variable), so the two engines see the same inputs at every step and only the update
arithmetic is compared. tools/gen_training_ops_expected.py records TensorFlow's values
(tests/fixtures/training_ops_expected.json); tests/python/test_training_ops.py replays them.

A case: (name, op base name, slot input names, scalar values by input name (a value or a
function of the step), attrs). Each base name runs in every form TensorFlow has.
"""
import numpy as np

SHAPE = (4, 3)
ROWS = [3, 0, 2]  # the rows a sparse update names (each once: TF's sparse kernels update
                  # rows in parallel, so repeated rows have no fixed order there)


def _beta_power(beta):
    return lambda step: beta ** (step + 1)


CASES = [
    ("gd", "GradientDescent", [], {"alpha": 0.1}, {}),
    ("proximal_gd", "ProximalGradientDescent", [], {"alpha": 0.1, "l1": 0.05, "l2": 0.02}, {}),
    ("proximal_gd_l2", "ProximalGradientDescent", [], {"alpha": 0.1, "l1": 0.0, "l2": 0.02}, {}),
    ("adadelta", "Adadelta", ["accum", "accum_update"],
     {"lr": 1.0, "rho": 0.9, "epsilon": 1e-3}, {}),
    ("adagrad", "Adagrad", ["accum"], {"lr": 0.1}, {}),
    ("adagrad_no_slots", "Adagrad", ["accum"], {"lr": 0.1}, {"update_slots": False}),
    ("adagrad_v2", "AdagradV2", ["accum"], {"lr": 0.1, "epsilon": 1e-3}, {}),
    ("proximal_adagrad", "ProximalAdagrad", ["accum"], {"lr": 0.1, "l1": 0.05, "l2": 0.02}, {}),
    ("proximal_adagrad_l2", "ProximalAdagrad", ["accum"], {"lr": 0.1, "l1": 0.0, "l2": 0.02}, {}),
    ("adagrad_da", "AdagradDA", ["gradient_accumulator", "gradient_squared_accumulator"],
     {"lr": 0.1, "l1": 0.01, "l2": 0.02, "global_step": lambda step: step + 1}, {}),
    ("adagrad_da_l2", "AdagradDA", ["gradient_accumulator", "gradient_squared_accumulator"],
     {"lr": 0.1, "l1": 0.0, "l2": 0.02, "global_step": lambda step: step + 1}, {}),
    ("ftrl", "Ftrl", ["accum", "linear"], {"lr": 0.1, "l1": 0.05, "l2": 0.02, "lr_power": -0.5},
     {}),
    ("ftrl_power", "Ftrl", ["accum", "linear"],
     {"lr": 0.1, "l1": 0.05, "l2": 0.02, "lr_power": -0.3}, {}),
    ("ftrl_linear_by_lr", "Ftrl", ["accum", "linear"],
     {"lr": 0.1, "l1": 0.05, "l2": 0.02, "lr_power": -0.5}, {"multiply_linear_by_lr": True}),
    ("ftrl_v2", "FtrlV2", ["accum", "linear"],
     {"lr": 0.1, "l1": 0.05, "l2": 0.02, "l2_shrinkage": 0.01, "lr_power": -0.5}, {}),
    ("ftrl_v2_power_by_lr", "FtrlV2", ["accum", "linear"],
     {"lr": 0.1, "l1": 0.05, "l2": 0.02, "l2_shrinkage": 0.01, "lr_power": -0.3},
     {"multiply_linear_by_lr": True}),
    ("momentum", "Momentum", ["accum"], {"lr": 0.1, "momentum": 0.9}, {}),
    ("nesterov", "Momentum", ["accum"], {"lr": 0.1, "momentum": 0.9}, {"use_nesterov": True}),
    ("keras_momentum", "KerasMomentum", ["accum"], {"lr": 0.1, "momentum": 0.9}, {}),
    ("keras_nesterov", "KerasMomentum", ["accum"], {"lr": 0.1, "momentum": 0.9},
     {"use_nesterov": True}),
    ("adam", "Adam", ["m", "v"],
     {"beta1_power": _beta_power(0.9), "beta2_power": _beta_power(0.999), "lr": 0.01,
      "beta1": 0.9, "beta2": 0.999, "epsilon": 1e-7}, {}),
    ("adam_nesterov", "Adam", ["m", "v"],
     {"beta1_power": _beta_power(0.9), "beta2_power": _beta_power(0.999), "lr": 0.01,
      "beta1": 0.9, "beta2": 0.999, "epsilon": 1e-7}, {"use_nesterov": True}),
    ("adam_amsgrad", "AdamWithAmsgrad", ["m", "v", "vhat"],
     {"beta1_power": _beta_power(0.9), "beta2_power": _beta_power(0.999), "lr": 0.01,
      "beta1": 0.9, "beta2": 0.999, "epsilon": 1e-7}, {}),
    ("ada_max", "AdaMax", ["m", "v"],
     {"beta1_power": _beta_power(0.9), "lr": 0.01, "beta1": 0.9, "beta2": 0.999,
      "epsilon": 1e-7}, {}),
    ("rms_prop", "RMSProp", ["ms", "mom"],
     {"lr": 0.01, "rho": 0.9, "momentum": 0.5, "epsilon": 1e-6}, {}),
    ("centered_rms_prop", "CenteredRMSProp", ["mg", "ms", "mom"],
     {"lr": 0.01, "rho": 0.9, "momentum": 0.5, "epsilon": 1e-6}, {}),
    ("add_sign", "AddSign", ["m"], {"lr": 0.1, "alpha": 1.0, "sign_decay": 0.5, "beta": 0.9},
     {}),
    ("power_sign", "PowerSign", ["m"],
     {"lr": 0.1, "logbase": float(np.e), "sign_decay": 0.5, "beta": 0.9}, {}),
]

# The forms TensorFlow defines for each base name (the others do not exist there).
_DENSE_ONLY = {"GradientDescent", "Adam", "AdaMax", "AddSign", "PowerSign"}
_RESOURCE_ONLY = {"KerasMomentum", "AdamWithAmsgrad"}


def forms(base):
    """The op types of `base`: [(op type, is_ref, is_sparse)]."""
    out = []
    for sparse in (False, True):
        if sparse and base in _DENSE_ONLY | {"AdamWithAmsgrad"}:
            continue
        for ref in (True, False):
            if ref and base in _RESOURCE_ONLY:
                continue
            out.append((("Resource" if not ref else "") + ("Sparse" if sparse else "") +
                        "Apply" + base, ref, sparse))
    return out


def initial(k, dtype):
    """Initial value of input k (0 = var, then the slots): fixed, positive for slots (the
    accumulators must be), with ms > mg^2 for centered RMSProp."""
    x = np.arange(np.prod(SHAPE), dtype=np.float64).reshape(SHAPE)
    if k == 0:
        return (np.sin(x) * 0.5).astype(dtype)
    return (0.2 + 0.1 * k + 0.05 * np.abs(np.cos(x + k))).astype(dtype)


def grad_at(step, rows, dtype):
    n = rows if rows is not None else SHAPE[0]
    x = np.arange(n * SHAPE[1], dtype=np.float64).reshape(n, SHAPE[1])
    return (np.sin(1.3 * x + step) * 0.7).astype(dtype)


RECORDED = (0, 1, 4, 9)  # the steps whose values are recorded (after 1, 2, 5 and 10 updates)


def run(tf, op_type, ref, sparse, slots, scalars, attrs, dtype, steps=10):
    """Values of the variable and each slot after the RECORDED steps: {"var": [...], ...}."""
    g = tf.Graph()
    with g.as_default():
        names = ["var"] + list(slots)
        variables = [tf.Variable(initial(k, dtype), name=n, use_resource=not ref)
                     for k, n in enumerate(names)]
        tf_dtype = tf.as_dtype(dtype)
        n = len(ROWS) if sparse else None
        grad = tf.placeholder(tf_dtype, [n or SHAPE[0], SHAPE[1]], name="grad")
        feeds = {}
        kwargs = {n: (v if ref else v.handle) for n, v in zip(names, variables)}
        for key, value in scalars.items():
            ph = tf.placeholder(tf.int64 if key == "global_step" else tf_dtype, [], name=key)
            kwargs[key] = ph
            feeds[key] = (ph, value)
        kwargs["delta" if op_type.endswith("GradientDescent") and not sparse else "grad"] = grad
        if sparse:
            kwargs["indices"] = tf.constant(ROWS, dtype=tf.int32)
        kwargs.update(attrs)
        update = getattr(tf.raw_ops, op_type)(**kwargs)
        out = {n: [] for n in names}
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for step in range(steps):
                fd = {grad: grad_at(step, n, dtype)}
                for ph, value in feeds.values():
                    fd[ph] = value(step) if callable(value) else value
                sess.run(update, fd)
                if step not in RECORDED:
                    continue
                for name, value in zip(names, sess.run(variables)):
                    out[name].append(np.asarray(value).tolist())
    return out


DTYPES = ("float32", "float64", "float16")


def all_runs(tf):
    """{"<case>/<op type>/<dtype>": run(...)} for every case, form and float dtype; a run
    TensorFlow cannot do (no kernel for the dtype) is {"error": its exception's class}."""
    out = {}
    for name, base, slots, scalars, attrs in CASES:
        for op_type, ref, sparse in forms(base):
            for dtype in DTYPES:
                key = "%s/%s/%s" % (name, op_type, dtype)
                try:
                    out[key] = run(tf, op_type, ref, sparse, slots, scalars, attrs, dtype)
                except Exception as e:  # noqa: BLE001 - recorded for the test to see
                    out[key] = {"error": type(e).__name__}
    return out
