#!/usr/bin/env python3
"""Checks that protos written by minitf parse and run in real TensorFlow.

Developer tool (needs `tensorflow`, e.g. /opt/tfvenv/bin/python); never a
runtime or test dependency. The C test tests/c/test_graphdef.c writes the
files it checks into build/:

  build/graphdef_test_digits.pb    digits MLP, imported then re-exported
  build/graphdef_test_options.pb   seed graph imported twice with prefixes,
                                   input mapping, control deps, devices
  build/graphdef_test_oplist.pb    TF_GetAllOpList()

Usage:
  check_graphdef_in_tf.py GRAPH.pb [--npz IO.npz] [--fetch NAME:0 ...]
  check_graphdef_in_tf.py --oplist OPLIST.pb

With --npz, feeds the `feed:<tensor>` arrays and compares the `fetch:<tensor>`
arrays (what TensorFlow itself computed on the original graph) with what
TensorFlow computes on our re-exported graph. Exit status 0 when everything
parses, imports, runs and matches.
"""
import argparse
import sys

import numpy as np


def check_oplist(path):
    from tensorflow.core.framework import op_def_pb2

    ops = op_def_pb2.OpList()
    ops.ParseFromString(open(path, "rb").read())
    print(f"{path}: OpList with {len(ops.op)} ops parses in TensorFlow")
    # Compare each signature with TensorFlow's own registration.
    from tensorflow.python.framework import op_def_registry

    def arg_sig(a):
        return (a.name, a.type, a.type_attr, a.number_attr, a.type_list_attr, a.is_ref)

    def attr_sig(a):
        return (a.name, a.type, a.default_value.SerializeToString(deterministic=True)
                if a.HasField("default_value") else None)

    differ = 0
    for op in ops.op:
        tf_op = op_def_registry.get(op.name)
        if tf_op is None:
            print(f"  {op.name}: not a TensorFlow op")
            continue
        ours = ([arg_sig(a) for a in op.input_arg], [arg_sig(a) for a in op.output_arg],
                sorted(attr_sig(a) for a in op.attr), op.is_stateful, op.is_commutative)
        theirs = ([arg_sig(a) for a in tf_op.input_arg], [arg_sig(a) for a in tf_op.output_arg],
                  sorted(attr_sig(a) for a in tf_op.attr), tf_op.is_stateful,
                  tf_op.is_commutative)
        if ours != theirs:
            differ += 1
            labels = ("inputs", "outputs", "attrs", "is_stateful", "is_commutative")
            for label, a, b in zip(labels, ours, theirs):
                if a != b:
                    print(f"  {op.name} {label} differ:\n    minitf: {a}\n    tf:     {b}")
    print(f"  {len(ops.op) - differ} of {len(ops.op)} signatures match TensorFlow's")
    return 0


def check_graph(path, npz, fetches):
    import tensorflow as tf

    gd = tf.compat.v1.GraphDef()
    gd.ParseFromString(open(path, "rb").read())
    print(f"{path}: GraphDef with {len(gd.node)} nodes, producer {gd.versions.producer}, "
          f"min_consumer {gd.versions.min_consumer}")
    g = tf.Graph()
    with g.as_default():
        tf.compat.v1.import_graph_def(gd, name="")
    feeds, want = {}, {}
    if npz:
        io = np.load(npz)
        for key in io.files:
            kind, name = key.split(":", 1)
            (feeds if kind == "feed" else want)[name] = io[key]
        fetches = list(want) + list(fetches)
    failed = 0
    with tf.compat.v1.Session(graph=g) as sess:
        got = sess.run(fetches, {g.get_tensor_by_name(k): v for k, v in feeds.items()})
    for name, value in zip(fetches, got):
        if name in want:
            ok = np.allclose(value, want[name], rtol=1e-5, atol=1e-5)
            failed += not ok
            print(f"  {name}: {'matches' if ok else 'DIFFERS from'} TensorFlow's reference")
        else:
            print(f"  {name} = {value}")
    return 1 if failed else 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("path")
    p.add_argument("--npz")
    p.add_argument("--fetch", nargs="*", default=[])
    p.add_argument("--oplist", action="store_true")
    a = p.parse_args()
    if a.oplist:
        return check_oplist(a.path)
    return check_graph(a.path, a.npz, a.fetch)


if __name__ == "__main__":
    sys.exit(main())
