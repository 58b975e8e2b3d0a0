"""Prints minitf's coverage of TF 2.21's tf.compat.v1 per module; with --write, rewrites
tests/fixtures/api_missing.txt. Run with minitf installed: python3 tools/api_report.py [--write]
[--list MODULE]."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests",
                                "python"))
import api_coverage_cases as cases  # noqa: E402


def main(argv):
    report, coverage = cases.compare()
    for module, (present, total) in coverage.items():
        print("%-14s %4d / %4d" % (module, present, total))
    if "--list" in argv:
        module = argv[argv.index("--list") + 1]
        prefix = "" if module == "(top)" else module + "."
        for name in sorted(report):
            rest = name[len(prefix):]
            if name.startswith(prefix) and (prefix or "." not in name) and "." not in rest:
                print("  %s: %s" % (name, report[name]))
    if "--write" in argv:
        cases.write_missing(report)
        print("wrote", cases.MISSING, len(report), "names")


if __name__ == "__main__":
    main(sys.argv[1:])
