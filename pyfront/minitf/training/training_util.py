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


GLOBAL_STEP_READ_KEY = "global_step_read_op_cache"


def assert_global_step(global_step_tensor):
    """TypeError unless global_step_tensor is an integer scalar Variable or Tensor
    (tf.compat.v1.train.assert_global_step)."""
    from minitf.ops import variables
    if not isinstance(global_step_tensor, (variables.Variable, ops.Tensor)):
        raise TypeError('Existing "global_step" must be a Variable or Tensor: %s.'
                        % global_step_tensor)
    if not global_step_tensor.dtype.base_dtype.is_integer:
        raise TypeError('Existing "global_step" does not have integer type: %s'
                        % global_step_tensor.dtype)
    shape = global_step_tensor.get_shape()
    if shape.ndims != 0 and shape.is_fully_defined():
        raise TypeError('Existing "global_step" is not scalar: %s' % shape)


def _get_global_step_read(graph=None):
    """The cached "global_step/add:0" read of the global step, or None."""
    graph = graph or ops.get_default_graph()
    found = graph.get_collection(GLOBAL_STEP_READ_KEY)
    if len(found) > 1:
        raise RuntimeError("There are multiple items in collection {}. There should be only "
                           "one.".format(GLOBAL_STEP_READ_KEY))
    return found[0] if found else None


def _get_or_create_global_step_read(graph=None):
    """A tensor reading the global step that the hooks fetch: as TensorFlow, under
    "global_step/" a cond on IsVariableInitialized (the read, else the initial value) plus
    0, so it is a copy and never fails on an uninitialized step. None without a step."""
    from minitf.ops import control_flow_ops, state_ops, variables
    graph = graph or ops.get_default_graph()
    read = _get_global_step_read(graph)
    if read is not None:
        return read
    step = get_global_step(graph)
    if step is None:
        return None
    with graph.as_default() as g, g.name_scope(None):
        with g.name_scope(step.op.name + "/"):
            if isinstance(step, variables.Variable):
                value = control_flow_ops.cond(state_ops.is_variable_initialized(step),
                                              step.read_value, lambda: step.initial_value)
            else:
                value = step
            ops.add_to_collection(GLOBAL_STEP_READ_KEY, value + 0)
    return _get_global_step_read(graph)


def _increment_global_step(increment, graph=None):
    """assign_add(global_step, increment) after the cached read (TensorFlow's helper)."""
    from minitf.ops import state_ops
    graph = graph or ops.get_default_graph()
    step = get_global_step(graph)
    if step is None:
        raise ValueError("Global step tensor should be created by "
                         "tf.train.get_or_create_global_step before calling increment.")
    read = _get_or_create_global_step_read(graph)
    with graph.as_default() as g, g.name_scope(None):
        with g.name_scope(step.op.name + "/"):
            with ops.control_dependencies([read]):
                return state_ops.assign_add(step, increment)


def write_graph(graph_or_graph_def, logdir, name, as_text=True):
    """tf.io.write_graph (training_util.write_graph in TensorFlow)."""
    from minitf.train import write_graph as _write
    return _write(graph_or_graph_def, logdir, name, as_text=as_text)
