"""tf.compat.v1.make_template (TensorFlow 2.21's python/ops/template.py, graph mode): wraps a
function so that every call shares the variables the first call created with get_variable.

The first call opens a variable scope named `name_` (made unique: "my_op", "my_op_1", ...;
or `unique_name_` as given; or, with create_scope_now_, at construction) and runs the
function there; later calls re-enter that scope with reuse=True, so get_variable returns the
same variables. A trainable variable created after the first call is a ValueError (a
tf.Variable where get_variable was meant); errors raised by the function get "originally
defined at:" and the template's creation stack appended, as TensorFlow does.
"""
import functools
import traceback

from minitf.framework import ops
from minitf.ops import variable_scope
from minitf.platform import tf_logging as logging


def make_template(name_, func_, create_scope_now_=False, unique_name_=None,
                  custom_getter_=None, **kwargs):
    """A Template calling func_(*args, **kwargs, **call kwargs) with shared variables.

    Args: name_ (the variable scope's base name), func_, create_scope_now_ (open the scope
    now rather than at the first call), unique_name_ (use this scope name as it is),
    custom_getter_ (for the scope), **kwargs (bound to func_).
    Raises ValueError when name_ is None.
    """
    if kwargs:
        func_ = functools.partial(func_, **kwargs)
    return Template(name_, func_, create_scope_now=create_scope_now_, unique_name=unique_name_,
                    custom_getter=custom_getter_)


def _skip_common_stack_elements(stacktrace, base_case):
    for i, (trace, base) in enumerate(zip(stacktrace, base_case)):
        if trace != base:
            return stacktrace[i:]
    return stacktrace[-1:]


class Template:
    """A function wrapped to share its variables (tf.compat.v1.make_template's result);
    properties name, func, variable_scope, variable_scope_name and the variables it owns
    (variables, trainable_variables, non_trainable_variables, global/local_variables and
    the *_weights aliases)."""

    def __init__(self, name, func, create_scope_now=False, unique_name=None,
                 custom_getter=None, create_graph_function=False):
        self._func = func
        self._stacktrace = traceback.format_stack()[:-2]
        self._name = name
        self._unique_name = unique_name
        self._custom_getter = custom_getter
        if name is None:
            raise ValueError("name cannot be None.")
        if create_scope_now:
            with variable_scope._pure_variable_scope(
                    self._unique_name or variable_scope._get_unique_variable_scope(self._name),
                    custom_getter=self._custom_getter) as vs:
                self._variable_scope = vs
        else:
            self._variable_scope = None
        self._variables_created = False
        self._first_call = True

    def _call_func(self, args, kwargs):
        try:
            if self._variables_created:
                vars_at_start = len(ops.get_collection_ref(ops.GraphKeys.GLOBAL_VARIABLES))
                trainable_at_start = len(
                    ops.get_collection_ref(ops.GraphKeys.TRAINABLE_VARIABLES))
                result = self._func(*args, **kwargs)
                trainable = ops.get_collection_ref(ops.GraphKeys.TRAINABLE_VARIABLES)
                if trainable_at_start != len(trainable):
                    raise ValueError("Trainable variable created when calling a template "
                                     "after the first time, perhaps you used tf.Variable "
                                     "when you meant tf.get_variable: %s"
                                     % (trainable[trainable_at_start:],))
                variables = ops.get_collection_ref(ops.GraphKeys.GLOBAL_VARIABLES)
                if vars_at_start != len(variables):
                    logging.info("New variables created when calling a template after the "
                                 "first time, perhaps you used tf.Variable when you meant "
                                 "tf.get_variable: %s", variables[vars_at_start:])
            elif self._first_call:
                self._first_call = False
                try:
                    result = self._func(*args, **kwargs)
                except:  # noqa: E722 - re-raised; the next call is a first call again
                    self._first_call = True
                    raise
                self._variables_created = True
            else:
                result = self._func(*args, **kwargs)
            return result
        except Exception as exc:
            exc_args = exc.args
            arg0 = exc_args[0] if exc_args else ""
            trace = "".join(_skip_common_stack_elements(self._stacktrace,
                                                        traceback.format_stack()))
            exc.args = tuple(["%s\n\noriginally defined at:\n%s" % (arg0, trace)] +
                             list(exc_args[1:]))
            raise

    def __call__(self, *args, **kwargs):
        if self._variable_scope:
            with variable_scope.variable_scope(self._variable_scope,
                                               reuse=not self._first_call):
                return self._call_func(args, kwargs)
        with variable_scope.variable_scope(self._unique_name, self._name,
                                           custom_getter=self._custom_getter) as vs:
            self._variable_scope = vs
            return self._call_func(args, kwargs)

    @property
    def name(self):
        return self._name

    @property
    def func(self):
        return self._func

    @property
    def variable_scope(self):
        return self._variable_scope

    @property
    def variable_scope_name(self):
        if self._variable_scope:
            name = self._variable_scope.name
            if not name or name[-1] == "/":
                return name
            return name + "/"
        return None

    @property
    def variables(self):
        return self.global_variables + self.local_variables

    @property
    def trainable_variables(self):
        if self._variables_created:
            return ops.get_collection(ops.GraphKeys.TRAINABLE_VARIABLES,
                                      self.variable_scope_name)
        return []

    @property
    def non_trainable_variables(self):
        trainable = set(id(v) for v in self.trainable_variables)
        return [x for x in self.global_variables if id(x) not in trainable]

    @property
    def global_variables(self):
        if self._variables_created:
            return ops.get_collection(ops.GraphKeys.GLOBAL_VARIABLES, self.variable_scope_name)
        return []

    @property
    def local_variables(self):
        if self._variables_created:
            return ops.get_collection(ops.GraphKeys.LOCAL_VARIABLES, self.variable_scope_name)
        return []

    weights = variables
    trainable_weights = trainable_variables
    non_trainable_weights = non_trainable_variables

    @property
    def var_scope(self):
        return self._variable_scope


def tables_initializer(name="init_all_tables"):
    """An op running every initializer in GraphKeys.TABLE_INITIALIZERS (a group named
    `name`), or a NoOp named `name` when there is none (tf.compat.v1.tables_initializer)."""
    from minitf.ops import control_flow_ops
    initializers = ops.get_collection(ops.GraphKeys.TABLE_INITIALIZERS)
    if initializers:
        return control_flow_ops.group(*initializers, name=name)
    return control_flow_ops.no_op(name=name)
