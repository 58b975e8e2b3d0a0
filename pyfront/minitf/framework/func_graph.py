"""FuncGraph: a graph whose ops become a library function (TensorFlow's
func_graph.FuncGraph, as cond_v2 and while_v2 use it).

A FuncGraph is a Graph of its own (its own TF_Graph) built while it is the
default graph. A tensor of an enclosing graph used by an op inside is
*captured*: the FuncGraph gets a Placeholder standing for it, and the
caller passes the outer tensor as an extra argument. `to_function` turns
the graph into a FunctionDef (TF_GraphToFunction) and adds it, with the
functions it calls, to the outer graph's library.
"""
import itertools

from minitf import pywrap_tensorflow_internal as c_api
from minitf.framework import errors, ops

_uid = itertools.count(1)


def tensor_key(t):
    """A hashable identity of tensor t: (its op's C pointer, its output index)."""
    return (ops._ptr_key(t.op._c_op), t.value_index)


def unique_fn_name(scope, name):
    """TensorFlow's util.unique_fn_name: "<scope>_<name>_<uid>" with '/' as '_'."""
    return ("%s%s_%d" % (scope, name, next(_uid))).replace("/", "_")


class FuncGraph(ops.Graph):
    """A graph that becomes a function (tf.Graph subclass; TF's FuncGraph).

    Attributes:
      name: the function's name.
      outer_graph: the graph the function is called from.
      inputs: Placeholders that are the function's arguments, in order
        (declared arguments first, then captures as they happen).
      outputs: the tensors the function returns.
      control_outputs: ops the function must run even if no output needs them.
    """

    def __init__(self, name, outer_graph=None, collections=None):
        super().__init__()
        self.name = name
        self.outer_graph = outer_graph if outer_graph is not None else ops.get_default_graph()
        self._building_function = True
        self.inputs = []
        self.outputs = []
        self.control_outputs = []
        self._captures = {}      # (outer op ptr, index) -> (outer tensor, placeholder)
        self._capture_order = []
        self.control_captures = []
        self._seed = self.outer_graph.seed
        if collections is not None:
            self._collections = collections

    @property
    def external_captures(self):
        """Outer tensors captured, in capture order (the extra call arguments)."""
        return [self._captures[k][0] for k in self._capture_order]

    @property
    def internal_captures(self):
        """Placeholders standing for the captured tensors, in capture order."""
        return [self._captures[k][1] for k in self._capture_order]

    def _is_outer(self, graph):
        g = self.outer_graph
        while g is not None:
            if g is graph:
                return True
            g = getattr(g, "outer_graph", None)
        return False

    def capture(self, tensor, name=None):
        """The tensor of this graph standing for `tensor`: itself when it is ours,
        else the Placeholder capturing it (made once per outer tensor). A tensor
        of a graph that encloses neither raises ValueError (TF's wording)."""
        if tensor.graph is self:
            return tensor
        if not self._is_outer(tensor.graph):
            raise ValueError("Tensor %s must be from the same graph as the operation." %
                             tensor.name)
        outer = tensor
        if tensor.graph is not self.outer_graph:  # capture through the enclosing function
            outer = self.outer_graph.capture(tensor)
        key = tensor_key(outer)
        hit = self._captures.get(key)
        if hit is not None:
            return hit[1]
        from minitf.ops import array_ops
        with self.as_default(), self.control_dependencies(None), self.name_scope(None):
            ph = array_ops.placeholder(outer.dtype.base_dtype, shape=outer.shape,
                                       name=name or outer.op.name)
        self._captures[key] = (outer, ph)
        self._capture_order.append(key)
        self.inputs.append(ph)
        return ph

    def control_dependencies(self, control_inputs):
        """As Graph.control_dependencies; an outer-graph op becomes a control
        dependency of the function call instead (TF's control captures)."""
        if control_inputs is None:
            return super().control_dependencies(None)
        inner = []
        for c in control_inputs:
            op = c.op if isinstance(c, ops.Tensor) else c
            if isinstance(op, ops.Operation) and op.graph is not self:
                if op not in self.control_captures:
                    self.control_captures.append(op)
                continue
            inner.append(c)
        return super().control_dependencies(inner)

    def to_function(self, name=None, opers=None, inputs=None, outputs=None):
        """Adds this graph to the outer graph's library as function `name`
        (default self.name; with every function it calls) and returns the name.
        `opers`, `inputs`, `outputs` (default: every op, self.inputs,
        self.outputs) make a function of part of the graph: a gradient's
        backward ops, reading the forward tensors it needs as arguments.
        InvalidArgumentError from TF_GraphToFunction."""
        name = name or self.name
        inputs = self.inputs if inputs is None else inputs
        outputs = self.outputs if outputs is None else outputs
        fn = c_api.MT_GraphToFunction(
            self._c_graph, name, None if opers is None else [op._c_op for op in opers],
            [t._as_tf_output() for t in inputs], [t._as_tf_output() for t in outputs], None,
            [op._c_op for op in self.control_outputs], None, "")
        try:
            outer = self.outer_graph._c_graph
            for sub in c_api.MT_GraphGetFunctions(self._c_graph):
                try:
                    c_api.TF_GraphCopyFunction(outer, sub, None)
                finally:
                    c_api.TF_DeleteFunction(sub)
            c_api.TF_GraphCopyFunction(outer, fn, None)
        finally:
            c_api.TF_DeleteFunction(fn)
        return name


def stateful_ops(graph):
    """The ops of `graph` the registry marks stateful."""
    from minitf.framework import op_def_library
    reg = op_def_library.get_registered_ops()
    return [op for op in graph.get_operations()
            if reg.get(op.type) is not None and reg[op.type].is_stateful]


def function_to_graph(fn_name, outer_graph):
    """The body of library function `fn_name` as a new FuncGraph (TensorFlow's
    function_def_to_graph): inputs are Placeholders named as its arguments,
    outputs its results. The function is looked up in outer_graph's library,
    then in those of the graphs enclosing it (a function called inside
    another one sits in the caller's library). ValueError when none has it."""
    g = FuncGraph(fn_name, outer_graph, collections=outer_graph._collections)
    lib = outer_graph
    while lib is not None:
        try:
            args, rets = c_api.MT_FunctionBodyToGraph(lib._c_graph, fn_name, g._c_graph)
            break
        except errors.NotFoundError:
            lib = getattr(lib, "outer_graph", None)
    if lib is None:
        raise ValueError("Function %s is not defined." % fn_name)
    g.get_operations()  # wraps every op the runtime built, marking its name used
    g.inputs = [g._op_from_c(o).outputs[i] for o, i in args]
    g.outputs = [g._op_from_c(o).outputs[i] for o, i in rets]
    return g


def ops_needed_by(roots, candidates):
    """The ops of `candidates` (a set) that `roots` depend on, through data
    and control inputs."""
    found, stack, seen = set(), list(roots), set()
    while stack:
        op = stack.pop()
        if op in seen:
            continue
        seen.add(op)
        if op in candidates:
            found.add(op)
        stack.extend(t.op for t in op.inputs)
        stack.extend(op.control_inputs)
    return found


def split_backward(graph, before, forward_roots):
    """After a gradient was built into `graph`: (forward, backward) op lists.
    `before` is the set of ops there before; an op added since is forward
    when a forward op depends on it (inputs a nested loop's gradient gave
    its forward While), else backward."""
    added = [op for op in graph.get_operations() if op not in before]
    extra = ops_needed_by(list(before) + list(forward_roots), set(added))
    forward = [op for op in graph.get_operations() if op in before or op in extra]
    backward = [op for op in added if op not in extra]
    return forward, backward
