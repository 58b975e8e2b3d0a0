import tensorflow as tf1
tf = tf1.compat.v1
tf.disable_eager_execution()
g = tf.Graph()
print(g.as_graph_def().versions, "|", g.graph_def_versions, "|", g.as_graph_def())
with g.as_default():
    c = tf.constant(1.0)
    print(g.as_graph_def(from_version=0).node[0].name if g.as_graph_def(from_version=0).node else None, len(g.as_graph_def(from_version=1).node), len(g.as_graph_def(from_version=2).node))
    d = tf.constant(1.0)
    print(len(g.as_graph_def(from_version=1).node), len(g.as_graph_def(from_version=2).node), g.version)
