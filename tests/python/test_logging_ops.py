"""StringFormat, Print, PrintV2 (tf.strings.format, tf.Print, tf.print) against TF 2.21
(tests/fixtures/logging_expected.json, tools/gen_logging_expected.py)."""
import pytest

import minitf as tf
from _logging_fixture import TF, fresh
import logging_cases as cases


@pytest.mark.parametrize("label", sorted(cases.FORMAT_CASES))
def test_string_format_matches_tensorflow(label):
    g, t = fresh(cases.FORMAT_CASES[label])
    with tf.Session(graph=g) as s:
        assert s.run(t).decode("utf-8", "replace") == TF["format"][label]


@pytest.mark.parametrize("label", sorted(cases.PRINT_CASES))
def test_printed_text_matches_tensorflow(label, capfd):
    build, fd = cases.PRINT_CASES[label]
    g, op = fresh(build)
    with tf.Session(graph=g) as s:
        capfd.readouterr()
        s.run(op)
        out, err = capfd.readouterr()
    assert (out if fd == 1 else err) == TF["printed"][label]


def test_print_passes_input_through_and_first_n(capfd):
    x = tf.constant([1.0, 2.0])
    y = tf.Print(x, [x], message="v=", first_n=2)
    with tf.Session() as s:
        capfd.readouterr()
        for _ in range(3):
            assert list(s.run(y)) == [1.0, 2.0]
        assert capfd.readouterr().err == "v=[1 2]\n" * 2
    with tf.Session() as s:  # the count is per session, as TensorFlow's per-kernel counter
        s.run(y)
        assert capfd.readouterr().err == "v=[1 2]\n"


def test_print_to_file_and_log(tmp_path, capfd):
    path = tmp_path / "out.txt"
    op = tf.print("a", tf.constant(1), output_stream="file://" + str(path))
    op2 = tf.print("b", output_stream=tf.compat.v1.logging.info
                   if hasattr(tf.compat.v1, "logging") else __import__("logging").info)
    with tf.Session() as s:
        s.run(op)
        s.run(op)
        s.run(op2)
    assert path.read_text() == "a 1\na 1\n"
    err = capfd.readouterr().err
    assert err.startswith("I") and err.endswith("] b\n\n")


def test_printv2_bad_stream_and_rank():
    with tf.Session() as s:
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=r"Unknown output stream: bogus, Valid streams are: stdout "
                                 r"stderr log\(info\) log\(warning\) log\(error\)"):
            s.run(tf.raw_ops.PrintV2(input="x", output_stream="bogus"))
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=r"Input is expected to be scalar, but got \[2\]"):
            s.run(tf.raw_ops.PrintV2(input=tf.placeholder_with_default(["a", "b"], None)))
    with pytest.raises(ValueError, match="num placeholders in template and num inputs must "
                                         "match: 2 vs. 1"):
        tf.raw_ops.StringFormat(inputs=[tf.constant(1)], template="{} {}", placeholder="{}")


def test_timestamp_is_now():
    import time
    with tf.Session() as s:
        before = time.time()
        t = s.run(tf.timestamp())
        after = time.time()
    assert before - 1e-3 <= t <= after + 1e-3
