"""tf.compat.v1.train.Optimizer, the base of the TF1 optimizers (TensorFlow's
training/optimizer.py), over the C update kernels of runtime/kernels/training_ops.c.

As TensorFlow 1: `minimize` = `compute_gradients` (tf.gradients of the loss with respect to the
trainable variables) + `apply_gradients`, which creates the slots (in init scope), opens the
optimizer's name scope, and under "update_<var>" (colocated with the variable) applies each
gradient with the form the variable needs:

    ref variable,      dense gradient   _apply_dense            (Apply<Optimizer>)
    ref variable,      IndexedSlices    _apply_sparse_duplicate_indices -> _apply_sparse
    resource variable, dense gradient   _resource_apply_dense   (ResourceApply<Optimizer>)
    resource variable, IndexedSlices    _resource_apply_sparse_duplicate_indices
                                            -> _resource_apply_sparse

(the duplicate-index forms first sum the rows of repeated indices: Unique + UnsortedSegmentSum).
The updates are grouped by `_finish` into the returned op; with `global_step`, that op also adds
1 to it after the updates. Slots ("w/Adam", "w/Adam_1") and non-slot variables
("beta1_power") are named as TensorFlow names them, so checkpoints line up.
"""

from minitf.framework import dtypes, ops
from minitf.framework.indexed_slices import IndexedSlices, convert_to_tensor_or_indexed_slices
from minitf.framework.op_def_library import apply_op
from minitf.ops import (array_ops, control_flow_ops, gradients_impl, math_ops, state_ops,
                        variable_scope, variables)
from minitf.training import slot_creator

_FLOATS = (dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64)


def _var_key(var):
    """TensorFlow's key of a variable in the slot dicts: (graph, op name)."""
    return (var.op.graph, var.op.name)


def _is_resource(var):
    return isinstance(var, variables.ResourceVariable)


def _deduplicate_indexed_slices(values, indices):
    """(values summed per distinct index, the distinct indices), as TensorFlow."""
    unique_indices, new_index_positions = array_ops.unique(indices)
    summed_values = math_ops.unsorted_segment_sum(values, new_index_positions,
                                                  array_ops.shape(unique_indices)[0])
    return summed_values, unique_indices


class _RefVariableProcessor:
    def __init__(self, v):
        self._v = v

    def target(self):
        return self._v._ref()

    def update_op(self, optimizer, g):
        if isinstance(g, ops.Tensor):
            update_op = optimizer._apply_dense(g, self._v)
            if self._v.constraint is not None:
                with ops.control_dependencies([update_op]):
                    return self._v.assign(self._v.constraint(self._v))
            return update_op
        if self._v.constraint is not None:
            raise RuntimeError("Cannot use a constraint function on a sparse variable.")
        return optimizer._apply_sparse_duplicate_indices(g, self._v)


class _DenseResourceVariableProcessor:
    def __init__(self, v):
        self._v = v

    def target(self):
        return self._v

    def update_op(self, optimizer, g):
        if isinstance(g, IndexedSlices):
            if self._v.constraint is not None:
                raise RuntimeError("Cannot use a constraint function on a sparse variable.")
            return optimizer._resource_apply_sparse_duplicate_indices(g.values, self._v,
                                                                      g.indices)
        update_op = optimizer._resource_apply_dense(g, self._v)
        if self._v.constraint is not None:
            with ops.control_dependencies([update_op]):
                return self._v.assign(self._v.constraint(self._v))
        return update_op


def _get_processor(v):
    if _is_resource(v):
        return _DenseResourceVariableProcessor(v)
    if isinstance(v, variables.RefVariable):
        return _RefVariableProcessor(v)
    raise NotImplementedError("Trying to optimize unsupported type ", v)


class Optimizer:
    """Base class of the TF1 optimizers (tf.compat.v1.train.Optimizer).

    Subclasses implement _create_slots, _prepare, _apply_dense, _resource_apply_dense,
    _apply_sparse, _resource_apply_sparse (and optionally _finish). Raises ValueError for an
    empty name, as TensorFlow.
    """
    GATE_NONE = 0
    GATE_OP = 1
    GATE_GRAPH = 2

    def __init__(self, use_locking, name, use_own_namescope_for_non_slot_vars=False):
        if not name:
            raise ValueError("Must specify the optimizer name")
        self._use_locking = use_locking
        self._name = name
        # As TF: non-slot variables (Adam's beta1_power, ...) go under a root variable scope
        # of the optimizer's own (`Adam/beta1_power`) instead of the current name scope.
        self._use_own_namescope_for_non_slot_vars = use_own_namescope_for_non_slot_vars
        if use_own_namescope_for_non_slot_vars:
            with variable_scope.variable_scope(None, default_name=name) as vs:
                self._non_slot_variable_scope = vs
        self._slots = {}
        self._non_slot_dict = {}

    def get_name(self):
        return self._name

    def minimize(self, loss, global_step=None, var_list=None, gate_gradients=GATE_OP,
                 aggregation_method=None, colocate_gradients_with_ops=False, name=None,
                 grad_loss=None):
        """compute_gradients + apply_gradients: the op that runs one training step.

        Args as TensorFlow's Optimizer.minimize (loss: a scalar float Tensor; var_list:
        default the trainable variables; global_step: a variable incremented by the op).
        Raises ValueError("No gradients provided for any variable, ...") when no variable
        gets a gradient, ValueError("No variables to optimize.") when there are none."""
        grads_and_vars = self.compute_gradients(
            loss, var_list=var_list, gate_gradients=gate_gradients,
            aggregation_method=aggregation_method,
            colocate_gradients_with_ops=colocate_gradients_with_ops, grad_loss=grad_loss)
        vars_with_grad = [v for g, v in grads_and_vars if g is not None]
        if not vars_with_grad:
            raise ValueError(
                "No gradients provided for any variable, check your graph for ops that do not "
                "support gradients, between variables %s and loss %s." %
                ([str(v) for _, v in grads_and_vars], loss))
        return self.apply_gradients(grads_and_vars, global_step=global_step, name=name)

    def compute_gradients(self, loss, var_list=None, gate_gradients=GATE_OP,
                          aggregation_method=None, colocate_gradients_with_ops=False,
                          grad_loss=None):
        """[(gradient or None, variable)] for the trainable variables (or var_list, a list,
        tuple or dict of variables), as tf.compat.v1.train.Optimizer.compute_gradients.

        Raises ValueError for a bad gate_gradients, a non-float loss or variable, or no
        variables; the gradients are tf.gradients' (Tensor, IndexedSlices or None)."""
        if callable(loss):
            raise RuntimeError("`loss` passed to Optimizer.compute_gradients should be a "
                               "function when eager execution is enabled.")
        if gate_gradients not in (Optimizer.GATE_NONE, Optimizer.GATE_OP, Optimizer.GATE_GRAPH):
            raise ValueError("gate_gradients must be one of: Optimizer.GATE_NONE, "
                             "Optimizer.GATE_OP, Optimizer.GATE_GRAPH.  Not %s" % gate_gradients)
        self._assert_valid_dtypes([loss])
        if grad_loss is not None:
            self._assert_valid_dtypes([grad_loss])
        if var_list is None:
            var_list = variables.trainable_variables() + ops.get_collection(
                ops.GraphKeys.TRAINABLE_RESOURCE_VARIABLES)
        else:
            var_list = list(var_list.values()) if isinstance(var_list, dict) else list(var_list)
        processors = [_get_processor(v) for v in var_list]
        if not var_list:
            raise ValueError("No variables to optimize.")
        var_refs = [p.target() for p in processors]
        grads = gradients_impl.gradients(
            loss, var_refs, grad_ys=grad_loss,
            gate_gradients=(gate_gradients == Optimizer.GATE_OP),
            aggregation_method=aggregation_method,
            colocate_gradients_with_ops=colocate_gradients_with_ops)
        if gate_gradients == Optimizer.GATE_GRAPH:
            grads = control_flow_ops.tuple_(grads)
        grads_and_vars = list(zip(grads, var_list))
        self._assert_valid_dtypes([v for g, v in grads_and_vars if g is not None])
        return grads_and_vars

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        """The op applying each (gradient, variable) pair (tf.compat.v1.train.Optimizer.
        apply_gradients); with global_step, it also adds 1 to it after the updates.

        Raises ValueError("No variables provided.") for an empty list, ValueError("No
        gradients provided for any variable: ...") when all are None, TypeError for a gradient
        that is not a Tensor or IndexedSlices."""
        grads_and_vars = tuple(grads_and_vars)
        if not grads_and_vars:
            raise ValueError("No variables provided.")
        converted = []
        for g, v in grads_and_vars:
            if g is not None:
                try:
                    g = convert_to_tensor_or_indexed_slices(g)
                except (TypeError, ValueError):
                    raise TypeError("Gradient must be convertible to a Tensor or IndexedSlices, "
                                    "or None: %s" % g)
                if not isinstance(g, (ops.Tensor, IndexedSlices)):
                    raise TypeError("Gradient must be a Tensor, IndexedSlices, or None: %s" % g)
            converted.append((g, v, _get_processor(v)))
        var_list = [v for g, v, _ in converted if g is not None]
        if not var_list:
            raise ValueError("No gradients provided for any variable: %s." %
                             ([str(v) for _, v, _ in converted],))
        with var_list[0].graph.as_default(), ops.init_scope():
            self._create_slots(var_list)
        update_ops = []
        with ops.name_scope(name, self._name) as name:
            self._prepare()
            for grad, var, processor in converted:
                if grad is None:
                    continue
                with ops.name_scope("update_" + var.op.name), ops.colocate_with(var):
                    update_ops.append(processor.update_op(self, grad))
            if global_step is None:
                apply_updates = self._finish(update_ops, name)
            else:
                with ops.control_dependencies([self._finish(update_ops, "update")]):
                    with ops.colocate_with(global_step):
                        if _is_resource(global_step):
                            apply_updates = apply_op(
                                "AssignAddVariableOp", resource=global_step.handle,
                                value=ops.convert_to_tensor(1, dtype=global_step.dtype),
                                name=name)
                        else:
                            apply_updates = state_ops.assign_add(global_step, 1, name=name)
        if isinstance(apply_updates, ops.Tensor):
            apply_updates = apply_updates.op
        train_op = ops.get_collection_ref(ops.GraphKeys.TRAIN_OP)
        if apply_updates not in train_op:
            train_op.append(apply_updates)
        return apply_updates

    def get_slot(self, var, name):
        """The slot variable `name` of var (e.g. "m" for Adam), or None."""
        return self._slots.get(name, {}).get(_var_key(var))

    def get_slot_names(self):
        """Sorted names of the slots this optimizer creates."""
        return sorted(self._slots)

    def variables(self):
        """Every variable the optimizer created in the current graph (non-slot ones and
        slots), sorted by name."""
        graph = ops.get_default_graph()
        out = [v for (_, g), v in self._non_slot_dict.items() if g is graph]
        for slots in self._slots.values():
            out.extend(v for (g, _), v in slots.items() if g is graph)
        return sorted(out, key=lambda v: v.name)

    # -- for subclasses ------------------------------------------------------

    def _create_slots(self, var_list):
        pass

    def _prepare(self):
        pass

    def _finish(self, update_ops, name_scope):
        return control_flow_ops.group(*update_ops, name=name_scope)

    def _apply_dense(self, grad, var):
        raise NotImplementedError()

    def _resource_apply_dense(self, grad, handle):
        raise NotImplementedError()

    def _apply_sparse(self, grad, var):
        raise NotImplementedError()

    def _resource_apply_sparse(self, grad, handle, indices):
        raise NotImplementedError()

    def _apply_sparse_duplicate_indices(self, grad, var):
        summed_values, unique_indices = _deduplicate_indexed_slices(grad.values, grad.indices)
        return self._apply_sparse(
            IndexedSlices(indices=unique_indices, values=summed_values,
                          dense_shape=grad.dense_shape), var)

    def _resource_apply_sparse_duplicate_indices(self, grad, handle, indices):
        summed_grad, unique_indices = _deduplicate_indexed_slices(grad, indices)
        return self._resource_apply_sparse(summed_grad, handle, unique_indices)

    def _call_if_callable(self, param):
        return param() if callable(param) else param

    def _assert_valid_dtypes(self, tensors):
        valid = self._valid_dtypes()
        for t in tensors:
            dtype = t.dtype.base_dtype
            if dtype not in valid:
                raise ValueError("Invalid type %r for %s, expected: %s." %
                                 (dtype, t.name, [v for v in valid]))

    def _valid_dtypes(self):
        return set(_FLOATS)

    def _slot_dict(self, slot_name):
        return self._slots.setdefault(slot_name, {})

    def _zeros_slot(self, var, slot_name, op_name):
        named_slots = self._slot_dict(slot_name)
        if _var_key(var) not in named_slots:
            named_slots[_var_key(var)] = slot_creator.create_zeros_slot(var, op_name)
        return named_slots[_var_key(var)]

    def _get_or_make_slot(self, var, val, slot_name, op_name):
        named_slots = self._slot_dict(slot_name)
        if _var_key(var) not in named_slots:
            named_slots[_var_key(var)] = slot_creator.create_slot(var, val, op_name)
        return named_slots[_var_key(var)]

    def _get_or_make_slot_with_initializer(self, var, initializer, shape, dtype, slot_name,
                                           op_name):
        named_slots = self._slot_dict(slot_name)
        if _var_key(var) not in named_slots:
            named_slots[_var_key(var)] = slot_creator.create_slot_with_initializer(
                var, initializer, shape, dtype, op_name)
        return named_slots[_var_key(var)]

    def _create_non_slot_variable(self, initial_value, name, colocate_with):
        key = (name, colocate_with.graph)
        v = self._non_slot_dict.get(key)
        if v is None:
            with ops.colocate_with(colocate_with):
                v = self._new_non_slot_variable(initial_value, name, colocate_with)
            self._non_slot_dict[key] = v
        return v

    def _new_non_slot_variable(self, initial_value, name, colocate_with):
        use_resource = _is_resource(colocate_with)
        if not self._use_own_namescope_for_non_slot_vars:
            return variables.Variable(initial_value, name=name, trainable=False,
                                      use_resource=use_resource)
        with ops.name_scope(""):
            with variable_scope.variable_scope(self._non_slot_variable_scope):
                return variable_scope.get_variable(name, initializer=initial_value,
                                                   trainable=False, use_resource=use_resource)

    def _get_non_slot_variable(self, name, graph=None):
        return self._non_slot_dict.get((name, graph or ops.get_default_graph()))

    def _non_slot_variables(self):
        return self._non_slot_dict.values()
