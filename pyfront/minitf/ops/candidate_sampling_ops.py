"""The candidate samplers of sampled losses (tf.nn.*_candidate_sampler,
tf.random.*_candidate_sampler) and tf.nn.compute_accidental_hits, over the C ops of
runtime/kernels/candidate_sampler_ops.c. Seeds come from random_seed.get_seed as in
TensorFlow, so a graph seed plus an op seed gives TensorFlow's samples."""
import collections

from minitf.framework import random_seed
from minitf.framework.op_def_library import apply_op, outputs_of


def _sampler_result(op_type):
    return collections.namedtuple(op_type, ["sampled_candidates", "true_expected_count",
                                            "sampled_expected_count"])


_RESULTS = {t: _sampler_result(t) for t in (
    "UniformCandidateSampler", "LogUniformCandidateSampler",
    "FixedUnigramCandidateSampler", "AllCandidateSampler")}
_Hits = collections.namedtuple("ComputeAccidentalHits", ["indices", "ids", "weights"])


def _sample(op_type, seed, name, **kw):
    seed1, seed2 = random_seed.get_seed(seed)
    outs = outputs_of(apply_op(op_type, seed=seed1 or 0, seed2=seed2 or 0, name=name, **kw))
    return _RESULTS[op_type](*outs)


def uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max,
                              seed=None, name=None):
    """num_sampled classes drawn uniformly from [0, range_max) (tf.nn.uniform_candidate_sampler;
    op UniformCandidateSampler). true_classes: int64 [batch, num_true]. Returns
    (sampled_candidates int64 [num_sampled], true_expected_count float32 [batch, num_true],
    sampled_expected_count float32 [num_sampled]); with unique, without repeats.
    InvalidArgumentError at run time for a true class out of range or, with unique,
    num_sampled > range_max."""
    return _sample("UniformCandidateSampler", seed, name, true_classes=true_classes,
                   num_true=num_true, num_sampled=num_sampled, unique=unique,
                   range_max=range_max)


def log_uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max,
                                  seed=None, name=None):
    """As uniform_candidate_sampler with P(class) = log((class + 2) / (class + 1)) /
    log(range_max + 1), a Zipfian distribution (tf.nn.log_uniform_candidate_sampler; op
    LogUniformCandidateSampler)."""
    return _sample("LogUniformCandidateSampler", seed, name, true_classes=true_classes,
                   num_true=num_true, num_sampled=num_sampled, unique=unique,
                   range_max=range_max)


def fixed_unigram_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max,
                                    vocab_file="", distortion=1.0, num_reserved_ids=0,
                                    num_shards=1, shard=0, unigrams=(), seed=None, name=None):
    """As uniform_candidate_sampler with P(class) proportional to unigrams[class] **
    distortion, the weights given as `unigrams` or as the last comma-separated field of each
    line of `vocab_file` (tf.nn.fixed_unigram_candidate_sampler; op
    FixedUnigramCandidateSampler). num_reserved_ids leading ids get weight 0; num_shards /
    shard keep every num_shards-th id. InvalidArgumentError at run time unless exactly one of
    vocab_file and unigrams is given and range_max equals the number of weights."""
    return _sample("FixedUnigramCandidateSampler", seed, name, true_classes=true_classes,
                   num_true=num_true, num_sampled=num_sampled, unique=unique,
                   range_max=range_max, vocab_file=vocab_file, distortion=float(distortion),
                   num_reserved_ids=num_reserved_ids, num_shards=num_shards, shard=shard,
                   unigrams=[float(u) for u in unigrams])


def all_candidate_sampler(true_classes, num_true, num_sampled, unique, seed=None, name=None):
    """All classes [0, num_sampled) with expected counts 1 (tf.nn.all_candidate_sampler; op
    AllCandidateSampler)."""
    return _sample("AllCandidateSampler", seed, name, true_classes=true_classes,
                   num_true=num_true, num_sampled=num_sampled, unique=unique)


def compute_accidental_hits(true_classes, sampled_candidates, num_true, seed=None, name=None):
    """The positions where a sampled candidate equals one of its row's true classes
    (tf.nn.compute_accidental_hits; op ComputeAccidentalHits): (indices int32 rows, ids int64
    positions in sampled_candidates, weights float32 -FLT_MAX), each [num_hits]."""
    seed1, seed2 = random_seed.get_seed(seed)
    outs = outputs_of(apply_op("ComputeAccidentalHits", true_classes=true_classes,
                               sampled_candidates=sampled_candidates, num_true=num_true,
                               seed=seed1 or 0, seed2=seed2 or 0, name=name))
    return _Hits(*outs)
