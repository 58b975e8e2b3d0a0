"""Writes tests/fixtures/embedding_expected.json (developer tool, needs TensorFlow 2.21):

    /opt/tfvenv/bin/python tools/gen_embedding_expected.py

For each case of tests/python/embedding_cases.py: the nodes tf.nn.embedding_lookup adds,
the value, the gradient of a weighted sum of squares for each variable (IndexedSlices
densified) and the variables after one GradientDescent step.
"""
import tf_fixture
from tf_fixture import tf

import embedding_cases


def main():
    out = {}
    for name, build in embedding_cases.CASES.items():
        with tf.Graph().as_default():
            out[name] = embedding_cases.run(tf, build)
    tf_fixture.write("embedding_expected.json", {"cases": out})


if __name__ == "__main__":
    main()
