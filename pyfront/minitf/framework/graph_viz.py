"""Pictures of a Graph: Graphviz DOT text, PNG/SVG through the optional
`graphviz` package (python -m minitf inspect --dot/--png, Graph._repr_svg_).

Name scopes become nested clusters; nodes show the op name and type; data
edges are labelled with dtype and static shape ("float32 [?,10]"), control
edges are dashed.
"""


def _quote(s):
    return '"%s"' % str(s).replace("\\", "\\\\").replace('"', '\\"')


def _shape_str(t):
    dims = t.shape.as_list() if t.shape.rank is not None else None
    if dims is None:
        return "<unknown>"
    return "[%s]" % ",".join("?" if d is None else str(d) for d in dims)


def to_dot(graph, name="G"):
    """The DOT source (str) drawing `graph` (a minitf Graph)."""
    ops = graph.get_operations()
    tree = {}  # scope tree: {"__ops__": [...], child: {...}}
    for op in ops:
        node = tree
        for part in op.name.split("/")[:-1]:
            node = node.setdefault(part, {})
        node.setdefault("__ops__", []).append(op)
    lines = ["digraph %s {" % _quote(name), "  rankdir=TB;",
             '  node [shape=box, style="rounded,filled", fillcolor="#eef3fb", fontsize=10];',
             "  edge [fontsize=8];"]

    def emit(node, prefix, depth):
        pad = "  " * depth
        for op in node.get("__ops__", []):
            label = "%s\\n%s" % (op.name.split("/")[-1], op.type)
            lines.append('%s%s [label="%s"];' % (pad, _quote(op.name),
                                                  label.replace('"', '\\"')))
        for key in sorted(k for k in node if k != "__ops__"):
            scope = prefix + key
            lines.append("%ssubgraph %s {" % (pad, _quote("cluster_" + scope)))
            lines.append('%s  label=%s; style="rounded"; color="#8899aa";' % (pad, _quote(key)))
            emit(node[key], scope + "/", depth + 1)
            lines.append("%s}" % pad)

    emit(tree, "", 1)
    for op in ops:
        for t in op.inputs:
            lines.append("  %s -> %s [label=%s];" % (_quote(t.op.name), _quote(op.name),
                                                     _quote("%s %s" % (t.dtype.name,
                                                                       _shape_str(t)))))
        for c in op.control_inputs:
            lines.append("  %s -> %s [style=dashed];" % (_quote(c.name), _quote(op.name)))
    lines.append("}")
    return "\n".join(lines) + "\n"


class GraphvizUnavailable(RuntimeError):
    """Rendering needs the `graphviz` Python package and Graphviz's `dot`."""


def render(graph, fmt):
    """`graph` rendered by Graphviz as bytes in format `fmt` ("png", "svg").

    Raises GraphvizUnavailable with an explanation when the `graphviz`
    package or the `dot` program is missing."""
    try:
        import graphviz
    except ImportError:
        raise GraphvizUnavailable("rendering needs the 'graphviz' Python package "
                                  "(pip install graphviz) and Graphviz's 'dot' program; "
                                  "use --dot to write DOT text instead") from None
    try:
        return graphviz.Source(to_dot(graph)).pipe(format=fmt)
    except graphviz.ExecutableNotFound:
        raise GraphvizUnavailable("Graphviz's 'dot' program was not found on PATH "
                                  "(install Graphviz, e.g. apt-get install graphviz); "
                                  "use --dot to write DOT text instead") from None


def repr_svg(graph):
    """SVG text for notebooks, or None when Graphviz is unavailable."""
    try:
        return render(graph, "svg").decode("utf-8")
    except GraphvizUnavailable:
        return None
