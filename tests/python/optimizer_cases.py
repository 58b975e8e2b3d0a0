"""Ten steps of every tf.train optimizer on a fixed problem, written against the TF1 API so the
same code runs on TensorFlow 2.21 and on minitf, for ref and resource variables, dense and
sparse gradients:

    loss = sum(A/2 (w - TW)^2) + sum(B/2 (b - TB)^2) + sum(C/2 (gather(e, IDS) - TE)^2)

w [3, 2] and b [2] get dense gradients from compute_gradients; e [5, 2] gets the IndexedSlices
C (gather(e, IDS) - TE) (IDS repeats row 4, so the optimizers' duplicate-summing path runs)
through apply_gradients. The gradient path is elementwise, so both engines feed the update
kernels bit-identical gradients and only the optimizers are compared. Each case returns the
variables' and slots' values after every step, the slot names and the optimizer's variables'
names. tools/gen_optimizer_expected.py runs them on TensorFlow
(tests/fixtures/optimizer_expected.json); tests/python/test_optimizers.py replays them."""
import numpy as np

TW = np.array([[1.0, 0.0], [0.0, 1.0], [2.0, -1.0]], np.float32)
A = np.array([[1.0, 2.0], [0.5, 1.5], [3.0, 0.25]], np.float32)
TB = np.array([0.5, -0.5], np.float32)
B = np.array([2.0, 0.75], np.float32)
IDS = np.array([4, 0, 4, 2], np.int32)
TE = np.array([[1.0, -1.0], [0.5, 0.5], [-0.5, 2.0], [0.25, 0.0]], np.float32)
C = np.array([[1.0, 0.5], [2.0, 1.0], [0.5, 1.5], [1.0, 1.0]], np.float32)

OPTIMIZERS = {
    "sgd": lambda tf, step: tf.train.GradientDescentOptimizer(0.05),
    "momentum": lambda tf, step: tf.train.MomentumOptimizer(0.05, 0.9),
    "nesterov": lambda tf, step: tf.train.MomentumOptimizer(0.05, 0.9, use_nesterov=True),
    "adam": lambda tf, step: tf.train.AdamOptimizer(0.1),
    "adagrad": lambda tf, step: tf.train.AdagradOptimizer(0.3, initial_accumulator_value=0.2),
    "adagrad_da": lambda tf, step: tf.train.AdagradDAOptimizer(
        0.3, step, l1_regularization_strength=0.01, l2_regularization_strength=0.02),
    "adadelta": lambda tf, step: tf.train.AdadeltaOptimizer(1.0, rho=0.9, epsilon=1e-4),
    "rmsprop": lambda tf, step: tf.train.RMSPropOptimizer(0.05, decay=0.8, momentum=0.5),
    "rmsprop_centered": lambda tf, step: tf.train.RMSPropOptimizer(0.05, decay=0.8,
                                                                   momentum=0.5, centered=True),
    "ftrl": lambda tf, step: tf.train.FtrlOptimizer(0.3, l1_regularization_strength=0.01,
                                                    l2_regularization_strength=0.02),
    "ftrl_shrinkage": lambda tf, step: tf.train.FtrlOptimizer(
        0.3, learning_rate_power=-0.6, l1_regularization_strength=0.01,
        l2_regularization_strength=0.02, l2_shrinkage_regularization_strength=0.05, beta=0.1),
    "proximal_gd": lambda tf, step: tf.train.ProximalGradientDescentOptimizer(
        0.05, l1_regularization_strength=0.01, l2_regularization_strength=0.02),
    "proximal_adagrad": lambda tf, step: tf.train.ProximalAdagradOptimizer(
        0.3, l1_regularization_strength=0.01, l2_regularization_strength=0.02),
}


def run(tf, name, ref=False, steps=10):
    g = tf.Graph()
    with g.as_default():
        use_resource = not ref
        step = tf.train.get_or_create_global_step()
        w = tf.Variable(np.arange(6, dtype=np.float32).reshape(3, 2) / 10 - 0.2, name="w",
                        use_resource=use_resource)
        b = tf.Variable(np.array([0.1, -0.1], np.float32), name="b", use_resource=use_resource)
        e = tf.Variable(np.arange(10, dtype=np.float32).reshape(5, 2) / 5 - 1, name="e",
                        use_resource=use_resource)
        dense_loss = (tf.reduce_sum(0.5 * A * tf.square(w - TW)) +
                      tf.reduce_sum(0.5 * B * tf.square(b - TB)))
        rows = tf.gather(e, IDS) - TE
        loss = dense_loss + tf.reduce_sum(0.5 * C * tf.square(rows))
        opt = OPTIMIZERS[name](tf, step)
        grads_and_vars = opt.compute_gradients(dense_loss, var_list=[w, b])
        sparse = tf.IndexedSlices(C * rows, tf.constant(IDS), tf.shape(e))
        train = opt.apply_gradients(grads_and_vars + [(sparse, e)], global_step=step)
        slots = {s: [opt.get_slot(v, s) for v in (w, b, e)] for s in opt.get_slot_names()}
        out = {"slot_names": opt.get_slot_names(),
               "slot_vars": {s: [v.op.name for v in vs] for s, vs in slots.items()},
               "opt_vars": sorted(v.op.name for v in opt.variables()), "steps": [],
               "nodes": sorted("%s %s" % (op.name, op.type) for op in g.get_operations())}
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for _ in range(steps):
                l = sess.run(loss)
                sess.run(train)
                values = sess.run({"w": w, "b": b, "e": e,
                                   **{"%s/%d" % (s, i): v for s, vs in slots.items()
                                      for i, v in enumerate(vs)}})
                out["steps"].append({"loss": float(l),
                                     **{k: np.asarray(v).tolist() for k, v in values.items()}})
            out["global_step"] = int(sess.run(step))
    return out


def all_runs(tf):
    return {"%s/%s" % (name, "ref" if ref else "resource"): run(tf, name, ref)
            for name in OPTIMIZERS for ref in (False, True)}
