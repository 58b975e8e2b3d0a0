import tensorflow as tf1
tf = tf1.compat.v1
tf.disable_eager_execution()
g = tf.Graph()
with g.as_default():
    a = tf.constant(1.0, name="a")
    with g.device("/cpu:0"):
        p = tf.constant(1.0, name="p")
    with g.device("/gpu:1"):
        with tf.colocate_with(p):
            c6 = tf.constant(1.0, name="c6")
    print(repr(c6.op.device))
    with g._attr_scope({"_n": lambda node_def: tf.AttrValue(s=node_def.name.encode())}):
        q2 = tf.identity(a, name="q2")
    print(q2.op.get_attr("_n"))
    with tf.container("c") as name: print(name)
