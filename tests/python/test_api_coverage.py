"""minitf's public names against TF 2.21's tf.compat.v1 (issue 12's measure).

The committed tests/fixtures/api_missing.txt must list exactly the names still missing or
differing: a name that newly works must leave the list (run tools/api_report.py --write),
and one that breaks or vanishes fails here."""
import api_coverage_cases as cases


def test_exclusions_have_reasons_and_exist_in_tf():
    reference = cases.load_reference()
    for qname in cases.load_exclusions():
        if qname.endswith(".*"):
            module = qname[:-2]
            head, _, last = module.rpartition(".")
            assert last in reference.get(head, {}) or module in reference, qname
            continue
        module, _, name = qname.rpartition(".")
        assert name in reference.get(module, {}), "%s is not a TF 2.21 name" % qname


def test_missing_list_is_current():
    report, _ = cases.compare()
    committed = cases.read_missing()
    newly_present = sorted(set(committed) - set(report))
    newly_missing = sorted(set(report) - set(committed))
    changed = sorted(n for n in set(report) & set(committed) if report[n] != committed[n])
    assert not newly_missing, "now missing or differing: %s" % (
        ["%s (%s)" % (n, report[n]) for n in newly_missing])
    assert not newly_present, ("now present, remove from api_missing.txt "
                               "(tools/api_report.py --write): %s" % newly_present)
    assert not changed, "reason changed: %s" % ["%s: %s" % (n, report[n]) for n in changed]


def test_signature_difference_rules():
    want = [["x", "POSITIONAL_OR_KEYWORD", "<required>"],
            ["name", "POSITIONAL_OR_KEYWORD", "None"]]
    assert cases.signature_difference(want, want) is None
    assert "params" in cases.signature_difference(want, want[:1])
    other = [want[0], ["name", "POSITIONAL_OR_KEYWORD", "'x'"]]
    assert "name default" in cases.signature_difference(want, other)
