"""What a Saver saves: SaveableObjects and the rules that turn var_lists into them
(TensorFlow's tensorflow/python/training/saving)."""
