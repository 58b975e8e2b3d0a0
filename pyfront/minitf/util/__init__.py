"""Utilities (tf.nest)."""
