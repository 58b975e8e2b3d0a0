#!/bin/bash
# usage: run.sh script.py  -> diff TF vs minitf
f=$1
filt() { grep -v -i "warning\|oneDNN\|cuda\|tensorrt\|E0000\|W0000\|I0000\|absl\|computation placer\|cpu_feature\|To enable\|rebuild TensorFlow\|^WARNING"; }
/opt/tfvenv/bin/python $f 2>&1 | filt > $f.tf.out
sed 's/^import tensorflow as tf1$/import minitf as tf1/; s/^tf = tf1.compat.v1$/tf = tf1.compat.v1/' $f > $f.mt.py
${MINITF_PYTHON:-python} $f.mt.py 2>&1 | filt > $f.mt.out
diff $f.tf.out $f.mt.out && echo SAME
