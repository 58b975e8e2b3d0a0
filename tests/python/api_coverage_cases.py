"""Compares minitf's public names and signatures with TensorFlow 2.21's (the fixture
tests/fixtures/api_coverage.json, written by tools/api_coverage.py with real TF).

Used by test_api_coverage.py and by tools/api_report.py (which prints coverage per module
and rewrites tests/fixtures/api_missing.txt, the list of names still missing or differing)."""
import inspect
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "fixtures")
COVERAGE = os.path.join(FIXTURES, "api_coverage.json")
MISSING = os.path.join(FIXTURES, "api_missing.txt")
EXCLUSIONS = os.path.join(HERE, "..", "..", "docs", "api_exclusions.txt")


def load_reference():
    with open(COVERAGE) as f:
        return json.load(f)["modules"]


def load_exclusions():
    """{qualified name: reason} from docs/api_exclusions.txt ('name: reason' lines; '#'
    comments). A name ending in '.*' excludes a whole module's names."""
    out = {}
    with open(EXCLUSIONS) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            name, _, reason = line.partition(":")
            if not reason.strip():
                raise ValueError("exclusion %r has no reason" % name)
            out[name.strip()] = reason.strip()
    return out


def qualified(module, name):
    return "%s.%s" % (module, name) if module else name


def is_excluded(qname, exclusions):
    if qname in exclusions or qname + ".*" in exclusions:
        return True
    parts = qname.split(".")
    return any(".".join(parts[:i]) + ".*" in exclusions for i in range(1, len(parts)))


def default_repr(value, dtype_class):
    """How a default is recorded and compared: the repr of a plain value (None, bool, int,
    float, str, tuple of those), "<dtype:NAME>" for a `dtype_class` instance, "<required>"
    for none, else "<object>". Shared with tools/api_coverage.py (TF's DType there)."""
    if value is inspect.Parameter.empty:
        return "<required>"
    if isinstance(value, dtype_class):
        return "<dtype:%s>" % value.name
    if value is None or isinstance(value, (bool, int, float, str)):
        return repr(value)
    if isinstance(value, tuple) and all(
            v is None or isinstance(v, (bool, int, float, str)) for v in value):
        return repr(value)
    return "<object>"


def params_of(obj, dtype_class):
    """[[name, kind, default], ...] of a function, or of a class's __init__ without self;
    None when inspect cannot read the signature."""
    target = obj.__init__ if inspect.isclass(obj) else obj
    try:
        sig = inspect.signature(target)
    except (TypeError, ValueError):
        return None
    return [[p.name, p.kind.name, default_repr(p.default, dtype_class)]
            for p in sig.parameters.values()
            if not (inspect.isclass(obj) and p.name == "self")]


def _params(obj):
    from minitf.framework import dtypes
    return params_of(obj, dtypes.DType)


def signature_difference(want, have):
    """None when `have` matches `want` (names, order, defaults; '<object>' defaults match any
    non-plain default), else a short description."""
    if want is None or have is None:
        return None
    wn = [p[0] for p in want]
    hn = [p[0] for p in have]
    if wn != hn:
        return "params %s, TF has %s" % (hn, wn)
    for w, h in zip(want, have):
        if w[2] != h[2] and not (w[2] == "<object>" and h[2] not in ("<required>",)):
            return "%s default %s, TF has %s" % (w[0], h[2], w[2])
    return None


def compare():
    """Returns (report, coverage): report maps each missing/differing qualified name to a
    reason string; coverage maps module -> (present, total) over non-excluded names."""
    import minitf
    exclusions = load_exclusions()
    report = {}
    coverage = {}
    for module, names in load_reference().items():
        mod = minitf
        for part in module.split(".") if module else []:
            mod = getattr(mod, part, None)
        present = total = 0
        for name, ref in names.items():
            qname = qualified(module, name)
            if is_excluded(qname, exclusions):
                continue
            total += 1
            obj = getattr(mod, name, None) if mod is not None else None
            if obj is None and not (ref["kind"] == "value" and mod is not None
                                    and hasattr(mod, name)):
                report[qname] = "missing"
                continue
            if ref["kind"] in ("function", "class") and callable(obj):
                diff = signature_difference(ref.get("params"), _params(obj))
                if diff:
                    report[qname] = "signature: " + diff
                    continue
            present += 1
        coverage[module or "(top)"] = (present, total)
    return report, coverage


def read_missing():
    out = {}
    with open(MISSING) as f:
        for line in f:
            line = line.rstrip("\n")
            if line and not line.startswith("#"):
                name, _, reason = line.partition("\t")
                out[name] = reason
    return out


def write_missing(report):
    with open(MISSING, "w") as f:
        f.write("# Names of TF 2.21's tf.compat.v1 (and its model-building modules) that minitf\n"
                "# still lacks or whose signature differs. Rewritten by tools/api_report.py\n"
                "# --write; test_api_coverage.py checks this list is exactly what is missing.\n")
        for name in sorted(report):
            f.write("%s\t%s\n" % (name, report[name]))
