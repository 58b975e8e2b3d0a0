"""tf.compat.v1.saved_model.main_op: the usual init op of a SavedModel."""
from minitf.framework import ops


def main_op():
    """A group of the global and local variables' initializers (and the table
    initializers, when the graph has any)."""
    from minitf.ops import control_flow_ops, variables
    init = variables.global_variables_initializer()
    init_local = variables.local_variables_initializer()
    tables = ops.get_collection(ops.GraphKeys.TABLE_INITIALIZERS)
    return control_flow_ops.group(init, init_local, *tables)


def main_op_with_restore(restore_op_name):
    """main_op() followed by the op named restore_op_name."""
    from minitf.ops import control_flow_ops
    with ops.control_dependencies([main_op()]):
        return control_flow_ops.group(restore_op_name)
