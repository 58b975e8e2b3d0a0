"""The global step (tf.compat.v1.train.get_global_step / create_global_step /
get_or_create_global_step / global_step)."""
from minitf.framework import dtypes, ops


def get_global_step(graph=None):
    """The global step variable of graph (the GLOBAL_STEP collection, else the tensor named
    "global_step:0"), or None. TypeError when that collection holds more than one."""
    graph = graph or ops.get_default_graph()
    found = graph.get_collection(ops.GraphKeys.GLOBAL_STEP)
    if len(found) == 1:
        return found[0]
    if len(found) > 1:
        raise TypeError("Multiple tensors in global_step collection.")
    try:
        return graph.get_tensor_by_name("global_step:0")
    except KeyError:
        return None


def create_global_step(graph=None):
    """A new int64 scalar non-trainable variable "global_step" starting at 0, in the
    GLOBAL_VARIABLES and GLOBAL_STEP collections. ValueError if one exists."""
    from minitf.ops import variable_scope
    from minitf.ops.init_ops import zeros_initializer
    graph = graph or ops.get_default_graph()
    if get_global_step(graph) is not None:
        raise ValueError("\"global_step\" already exists.")
    with graph.as_default(), graph.name_scope(None):
        return variable_scope.get_variable(
            ops.GraphKeys.GLOBAL_STEP, shape=[], dtype=dtypes.int64,
            initializer=zeros_initializer(), trainable=False,
            collections=[ops.GraphKeys.GLOBAL_VARIABLES, ops.GraphKeys.GLOBAL_STEP])


def get_or_create_global_step(graph=None):
    """get_global_step, creating it first when absent."""
    graph = graph or ops.get_default_graph()
    step = get_global_step(graph)
    return step if step is not None else create_global_step(graph)


def global_step(sess, global_step_tensor):
    """The value of the global step as a Python int (tf.compat.v1.train.global_step)."""
    return int(sess.run(global_step_tensor))
