//! `aten._embedding_bag` / `_embedding_bag_forward_only`: bags of embedding rows (1-D `indices` split by
//! `offsets`) pooled by sum, mean or max through a `[B, L]` membership mask (`MatMul` for sums, a masked
//! `ReduceMax`). Empty bags give 0, as in torch; a graph that reads the backward-only results (offset2bag,
//! bag_size, max_indices) is refused.

use super::embedding_bag_common::embedding_bag;
use crate::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten._embedding_bag.default", embedding_bag).samples(&[
        "weight: T[10,3]; indices: i64[8]{0..10}; offsets: i64[3]{0..1}; mode: 0; returns: [0]",
        "weight: T[10,3]; indices: i64[8]{0..10}; offsets: i64[1]{0..1}; mode: 1; returns: [0]",
        "weight: T[10,3]; indices: i64[8]{0..10}; offsets: i64[2]{0..1}; mode: 2; returns: [0]",
        "weight: T[10,3]; indices: i64[8]{0..10}; offsets: i64[2]{0..1}; mode: 0; per_sample_weights: T[8]; returns: [0]",
        "weight: T[6,3]; indices: i64[8]{0..6}; offsets: i64[2]{0..1}; mode: 1; padding_idx: 2; returns: [0]",
        "weight: T[6,3]; indices: i64[8]{0..6}; offsets: i64[2]{0..1}; mode: 2; padding_idx: 3; returns: [0]",
        "weight: T[1,3]; indices: i64[8]{0..10}; offsets: i64[0]{0..1}; mode: 1; returns: [0]",
        "weight: T[4,3]; indices: i64[8]{0..4}; offsets: i64[1]{0..1}; mode: 0; include_last_offset: true; returns: [0]",
        // (not mode 2 with no bags: libtorch's CPU kernel crashes on it.)
    ]),
    Rule::custom("aten._embedding_bag_forward_only.default", embedding_bag).samples(&[
        "weight: T[10,3]; indices: i64[8]{0..10}; offsets: i64[3]{0..1}; mode: 1; returns: [0]",
        "weight: T[10,3]; indices: i64[8]{0..10}; offsets: i64[2]{0..1}; mode: 2; returns: [0]",
    ]),
];
