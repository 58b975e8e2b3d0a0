"""Shared by the logging / assert / py_func tests: the TensorFlow fixture and helpers."""
import json
import os
import re

import minitf as tf

FIXTURE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures",
                       "logging_expected.json")
with open(FIXTURE) as f:
    TF = json.load(f)


def fresh(build):
    """A new graph with build(minitf) in it: (graph, result)."""
    g = tf.Graph()
    with g.as_default():
        return g, build(tf)


def run_message(e):
    """The runtime's message inside minitf's error text (as the generator extracts TF's)."""
    m = e.message
    if "Node: '" in m:
        m = m[m.index("Node: '"):]
        m = m[m.index("\n") + 1:]
    # the node lines (one per enclosing function call in minitf; TF inlines the If)
    return re.sub(r"(\n\t \[\[\{\{node [^}]*\}\}\]\])+$", "", m)


def tokens(s):
    return re.sub(r"pyfunc_\d+", "pyfunc_N", s)
