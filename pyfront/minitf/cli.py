"""Command line: ``python -m minitf {demo,run,inspect}``.

* ``demo [--no-train] [--steps N]`` runs the seed programs, then the embedded frozen MLP on its
    397 test digits, printing accuracy and the largest absolute difference from TensorFlow's
    logits, then trains the digits MLP and a small CNN from scratch (tqdm progress bar), prints
    their test accuracy, freezes the MLP and writes its loss curve to build/demo_logs.
* ``run [GRAPH.pb] --feed NAME=FILE.npy ... --fetch NAME ...`` runs any binary GraphDef (default:
    the embedded MLP, fed its test digits).
* ``run SAVED_MODEL_DIR --signature serving_default --input x=FILE.npy [--tag_set serve]
    [--outdir DIR]`` loads a SavedModel's MetaGraph (tags comma-separated), runs one
    signature and prints each output (and writes ``DIR/<output key>.npy``), like
    ``saved_model_cli run``.
* ``inspect SAVED_MODEL_DIR [--tag_set serve]`` prints a SavedModel's tag sets and each
    signature's inputs and outputs (dtype, shape, tensor name) and method name, like
    ``saved_model_cli show --all``.
* ``inspect GRAPH.pb`` lists a GraphDef's ops, its placeholders with dtypes and shapes, and the
    outputs nothing consumes (the likely fetches); ``--dot OUT.dot`` / ``--png OUT.png`` also
    draw it (name scopes as clusters; PNG through the optional ``graphviz`` package).

Everything goes through the public frontend (``tf.import_graph_def``, ``tf.Session``), hence
through the SWIG module and the C API.
"""

import argparse
import collections
import os
import sys

import numpy as np

DATA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "digits_mlp")
DEFAULT_GRAPH = os.path.join(DATA_DIR, "graph.pb")


def _tf():
    import minitf

    return minitf.compat.v1


def load_graph_def(path):
    """Parses a binary GraphDef file into a ``tf.GraphDef`` message.

    Raises:
        OSError: the file cannot be read.
        minitf.errors.InvalidArgumentError: the bytes are not a GraphDef.
    """
    tf = _tf()
    with open(path, "rb") as f:
        data = f.read()
    graph_def = tf.GraphDef()
    try:
        graph_def.ParseFromString(data)
    except Exception as e:  # protobuf's DecodeError
        raise tf.errors.InvalidArgumentError(
            None, None, "%s is not a binary GraphDef: %s" % (path, e)
        )
    return graph_def


def _seed_programs(tf, out):
    """Seed 000 segment 1 and the seed 004 program, exactly as written there."""
    with tf.Graph().as_default():
        a = tf.constant(3.0, dtype=tf.float32)
        b = tf.constant(4.0)  # also tf.float32 implicitly
        total = a + b
        print(a, file=out)
        print(b, file=out)
        print(total, file=out)
        with tf.Session() as sess:
            result = sess.run(total)
            print(result, type(result), type(total), file=out)
    with tf.Graph().as_default():
        a = tf.constant(15)
        b = tf.constant(5)
        prod = tf.multiply(a, b)
        total = tf.add(a, b)
        res = tf.divide(prod, total)
        with tf.Session() as sess:
            print(sess.run(res), file=out)


def demo(out=None, train=True, steps=600, logdir=None):
    """Runs the seed programs and the embedded digits MLP, then (train=True) trains the digits
    MLP and CNN from scratch (minitf/training_demo.py); returns a dict of results."""
    out = out or sys.stdout
    tf = _tf()
    print("== seed programs", file=out)
    _seed_programs(tf, out)
    print("== frozen digits MLP (%s)" % os.path.relpath(DEFAULT_GRAPH), file=out)
    io = np.load(os.path.join(DATA_DIR, "io.npz"))
    labels = np.load(os.path.join(DATA_DIR, "labels.npy"))
    x = io["feed:x:0"]
    graph_def = load_graph_def(DEFAULT_GRAPH)
    with tf.Graph().as_default() as g:
        tf.import_graph_def(graph_def, name="")
        with tf.Session(graph=g) as sess:
            logits, pred = sess.run(["logits:0", "pred:0"], feed_dict={"x:0": x})
    accuracy = float(np.mean(pred == labels))
    tf_accuracy = float(np.mean(io["fetch:pred:0"] == labels))
    max_diff = float(np.max(np.abs(logits - io["fetch:logits:0"])))
    print("digits: %d test samples" % len(x), file=out)
    print("accuracy: minitf %.4f, TensorFlow %.4f" % (accuracy, tf_accuracy), file=out)
    print("max |logits - TensorFlow logits|: %.3g" % max_diff, file=out)
    print(
        "predictions identical to TensorFlow's: %s" % bool(np.all(pred == io["fetch:pred:0"])),
        file=out,
    )
    result = {"accuracy": accuracy, "tf_accuracy": tf_accuracy, "max_diff": max_diff}
    if train:
        from minitf import training_demo
        print("== training from scratch with minitf (scikit-learn's digits, batch %d, Adam)"
              % training_demo.BATCH, file=out)
        result["trained"] = training_demo.demo(out, steps=steps, logdir=logdir)
    return result


def _parse_feed(spec):
    name, sep, path = spec.partition("=")
    if not sep:
        raise SystemExit("--feed wants NAME=FILE.npy, got %r" % spec)
    return name, np.load(path)


def run(graph_path, feeds, fetches, out=None):
    """Imports the GraphDef at graph_path, runs fetches with feeds; returns the fetched arrays."""
    out = out or sys.stdout
    tf = _tf()
    graph_def = load_graph_def(graph_path)
    with tf.Graph().as_default() as g:
        tf.import_graph_def(graph_def, name="")
        with tf.Session(graph=g) as sess:
            values = sess.run(list(fetches), feed_dict=dict(feeds))
    np.set_printoptions(threshold=20, edgeitems=3)
    for name, value in zip(fetches, values):
        value = np.asarray(value)
        print("%s: shape=%s dtype=%s" % (name, value.shape, value.dtype), file=out)
        print(value, file=out)
    return values


def inspect(graph_path, out=None):
    """Prints ops by type, placeholders (dtype, shape) and unconsumed outputs of a GraphDef."""
    out = out or sys.stdout
    tf = _tf()
    graph_def = load_graph_def(graph_path)
    with tf.Graph().as_default() as g:
        tf.import_graph_def(graph_def, name="")
    ops = g.get_operations()
    counts = collections.Counter(op.type for op in ops)
    print("%s: %d ops" % (graph_path, len(ops)), file=out)
    for op_type, n in sorted(counts.items()):
        print("  %-28s %d" % (op_type, n), file=out)
    print("placeholders:", file=out)
    for op in ops:
        if op.type in ("Placeholder", "PlaceholderWithDefault"):
            t = op.outputs[0]
            print("  %s  dtype=%s shape=%s" % (t.name, t.dtype.name, t.shape), file=out)
    print("likely outputs:", file=out)
    skip = {"Const", "NoOp", "Placeholder", "Assert", "VarHandleOp"}
    for op in ops:
        if op.type in skip:
            continue
        for t in op.outputs:
            if not t.consumers():
                print("  %s  dtype=%s shape=%s" % (t.name, t.dtype.name, t.shape), file=out)


def _tags(tag_set):
    return [t for t in tag_set.split(",") if t] if tag_set else []


def _shape_str(shape_proto):
    if shape_proto.unknown_rank:
        return "unknown_rank"
    # saved_model_cli joins the sizes: "(-1)" for one dimension, no tuple comma
    return "(%s)" % ", ".join(str(d.size) for d in shape_proto.dim)


def _print_tensor_info(kind, key, info, out):
    from minitf.core.framework import types_pb2
    print("    %s['%s'] tensor_info:" % (kind, key), file=out)
    print("        dtype: %s" % types_pb2.DataType.Name(info.dtype), file=out)
    print("        shape: %s" % _shape_str(info.tensor_shape), file=out)
    if info.WhichOneof("encoding") == "coo_sparse":
        c = info.coo_sparse
        print("        values: %s" % c.values_tensor_name, file=out)
        print("        indices: %s" % c.indices_tensor_name, file=out)
        print("        dense_shape: %s" % c.dense_shape_tensor_name, file=out)
    else:
        print("        name: %s" % info.name, file=out)


def inspect_saved_model(export_dir, tag_set=None, out=None):
    """Prints the tag sets of a SavedModel and, for each MetaGraph (or the one tagged
    tag_set), every signature's inputs and outputs with dtypes, shapes and tensor names,
    and its method name."""
    out = out or sys.stdout
    from minitf.saved_model import loader
    saved_model = loader.parse_saved_model(export_dir)
    print("The given SavedModel contains the following tag-sets:", file=out)
    for mg in saved_model.meta_graphs:
        print(", ".join("'%s'" % t for t in mg.meta_info_def.tags), file=out)
    graphs = saved_model.meta_graphs
    if tag_set:
        graphs = [loader.SavedModelLoader(export_dir).get_meta_graph_def_from_tags(
            _tags(tag_set))]
    for mg in graphs:
        print("", file=out)
        print("MetaGraphDef with tag-set: '%s' contains the following SignatureDefs:"
              % ", ".join(mg.meta_info_def.tags), file=out)
        for key in sorted(mg.signature_def):
            sig = mg.signature_def[key]
            print("", file=out)
            print("signature_def['%s']:" % key, file=out)
            print("  The given SavedModel SignatureDef contains the following input(s):",
                  file=out)
            for k in sorted(sig.inputs):
                _print_tensor_info("inputs", k, sig.inputs[k], out)
            print("  The given SavedModel SignatureDef contains the following output(s):",
                  file=out)
            for k in sorted(sig.outputs):
                _print_tensor_info("outputs", k, sig.outputs[k], out)
            print("  Method name is: %s" % sig.method_name, file=out)


def _parse_inputs(specs):
    """{input key: ndarray} from "key=FILE.npy" items (and "a=F;b=G" lists)."""
    feeds = {}
    for spec in specs:
        for item in [x for x in spec.split(";") if x]:
            key, sep, path = item.partition("=")
            if not sep or not key:
                raise ValueError("--input wants KEY=FILE.npy, got %r" % item)
            feeds[key] = np.load(path)
    return feeds


def run_saved_model(export_dir, signature, inputs, tag_set="serve", outdir=None, out=None):
    """Loads the MetaGraph tagged tag_set, runs `signature` fed {input key: ndarray};
    prints each output and returns {output key: ndarray}.

    Raises ValueError naming the available signatures (or inputs) for a key the MetaGraph
    lacks, and the loader's errors (OSError, RuntimeError) for a bad directory or tags.
    """
    out = out or sys.stdout
    tf = _tf()
    with tf.Graph().as_default() as g, tf.Session(graph=g) as sess:
        mg = tf.saved_model.loader.load(sess, _tags(tag_set), export_dir)
        if signature not in mg.signature_def:
            raise ValueError("signature %r not found in the MetaGraph with tags %r; it has: %s"
                             % (signature, tag_set, ", ".join(sorted(mg.signature_def)) or
                                "no signatures"))
        sig = mg.signature_def[signature]
        unknown = sorted(set(inputs) - set(sig.inputs))
        if unknown:
            raise ValueError("signature %r has no input %s; its inputs are: %s"
                             % (signature, ", ".join(repr(k) for k in unknown),
                                ", ".join(sorted(sig.inputs))))
        feed = {}
        for key, value in inputs.items():
            info = sig.inputs[key]
            if info.WhichOneof("encoding") != "name":
                raise ValueError("input %r is not a dense tensor" % key)
            feed[info.name] = value
        keys = sorted(sig.outputs)
        fetches = [tf.saved_model.utils.get_tensor_from_tensor_info(sig.outputs[k])
                   for k in keys]
        values = sess.run(fetches, feed_dict=feed)
    result = dict(zip(keys, values))
    np.set_printoptions(threshold=20, edgeitems=3)
    for key in keys:
        value = result[key]
        print("Result for output key %s:" % key, file=out)
        print(value, file=out)
        if outdir:
            os.makedirs(outdir, exist_ok=True)
            path = os.path.join(outdir, key + ".npy")
            np.save(path, np.asarray(value))
            print("Output %s is saved to %s" % (key, path), file=out)
    return result


def draw(graph_path, dot_path=None, png_path=None):
    """Writes DOT text and/or a PNG of a GraphDef: name scopes as clusters,
    op types, dtypes and static shapes on the edges. Returns the exit
    status (2 with a message on stderr when PNG rendering is unavailable)."""
    if not dot_path and not png_path:
        return 0
    tf = _tf()
    from minitf.framework import graph_viz
    with tf.Graph().as_default() as g:
        tf.import_graph_def(load_graph_def(graph_path), name="")
    if dot_path:
        with open(dot_path, "w") as f:
            f.write(graph_viz.to_dot(g))
        print("wrote", dot_path)
    if png_path:
        try:
            data = graph_viz.render(g, "png")
        except graph_viz.GraphvizUnavailable as e:
            print("cannot write %s: %s" % (png_path, e), file=sys.stderr)
            return 2
        with open(png_path, "wb") as f:
            f.write(data)
        print("wrote", png_path)
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m minitf", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    p_demo = sub.add_parser("demo", help="seed programs, the embedded digits MLP, and training "
                                          "the digits MLP and CNN from scratch")
    p_demo.add_argument("--no-train", action="store_true", help="skip the training part")
    p_demo.add_argument("--steps", type=int, default=600, help="training steps per model")
    p_run = sub.add_parser("run", help="run a GraphDef, or a SavedModel's signature")
    p_run.add_argument("graph", nargs="?",
                       help="binary GraphDef (default: embedded MLP) or SavedModel directory")
    p_run.add_argument("--feed", action="append", default=[], metavar="NAME=FILE.npy")
    p_run.add_argument("--fetch", action="append", default=[], metavar="NAME")
    p_run.add_argument("--signature", "--signature_def", default="serving_default",
                       help="SavedModel: the signature to run (default serving_default)")
    p_run.add_argument("--input", "--inputs", action="append", default=[], dest="input",
                       metavar="KEY=FILE.npy", help="SavedModel: a signature input")
    p_run.add_argument("--tag_set", default="serve",
                       help="SavedModel: the MetaGraph's tags, comma-separated (serve)")
    p_run.add_argument("--outdir", help="SavedModel: write each output to OUTDIR/<key>.npy")
    p_ins = sub.add_parser("inspect", help="list a GraphDef's ops, inputs and outputs, or a "
                                           "SavedModel's tag sets and signatures")
    p_ins.add_argument("graph", nargs="?", default=DEFAULT_GRAPH)
    p_ins.add_argument("--tag_set", help="SavedModel: show only this MetaGraph")
    p_ins.add_argument("--dot", metavar="OUT.dot", help="write the graph as Graphviz DOT text")
    p_ins.add_argument("--png", metavar="OUT.png",
                       help="draw the graph as PNG (needs the graphviz package and dot)")
    args = parser.parse_args(argv)
    try:
        return _dispatch(args)
    except (OSError, ValueError, KeyError, TypeError, RuntimeError) as e:
        # a user's mistake (missing file, bad feed name or shape): one line, not a traceback
        print("minitf %s: error: %s" % (args.cmd, e), file=sys.stderr)
        return 2
    except Exception as e:  # minitf.errors.OpError and kin: the runtime's message
        if type(e).__module__.startswith("minitf"):
            print("minitf %s: %s: %s" % (args.cmd, type(e).__name__,
                                         getattr(e, "message", str(e))), file=sys.stderr)
            return 2
        raise


def _dispatch(args):
    if args.cmd == "demo":
        result = demo(train=not args.no_train, steps=args.steps,
                      logdir=os.path.join("build", "demo_logs"))
        ok = result["max_diff"] <= 1e-5 and result["accuracy"] == result["tf_accuracy"]
        if "trained" in result:
            ok = ok and result["trained"]["MLP"] >= 0.97
        return 0 if ok else 1
    if args.graph is not None and os.path.isdir(args.graph):
        if args.cmd == "inspect":
            inspect_saved_model(args.graph, args.tag_set)
            return 0
        run_saved_model(args.graph, args.signature, _parse_inputs(args.input), args.tag_set,
                        args.outdir)
        return 0
    if args.cmd == "inspect":
        inspect(args.graph)
        return draw(args.graph, args.dot, args.png)
    if args.graph is not None and not os.path.exists(args.graph):
        raise OSError("no such file: %s" % args.graph)
    feeds = [_parse_feed(f) for f in args.feed]
    graph = args.graph or DEFAULT_GRAPH
    if args.graph is None and not feeds:
        feeds = [("x:0", np.load(os.path.join(DATA_DIR, "io.npz"))["feed:x:0"])]
    fetches = args.fetch or (["probs:0"] if args.graph is None else [])
    if not fetches:
        raise SystemExit("--fetch NAME is required with a GRAPH")
    run(graph, feeds, fetches)
    return 0
