//! `aten.embedding_bag` (`.default`, `.padding_idx`): bags of embedding rows (1-D `indices` split by `offsets`)
//! pooled by sum, mean or max through a `[B, L]` membership mask (`MatMul` for sums, a masked `ReduceMax`).
//! `.padding_idx` counts a negative index from the end (static row count needed); empty bags give 0; a graph
//! that reads the backward-only results is refused.

use super::embedding_bag_common::embedding_bag;
use crate::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.embedding_bag.default", embedding_bag).samples(&[
        "weight: T[10,3]; indices: i64[8]{0..10}; offsets: i64[3]{0..1}; mode: 1; returns: [0]",
        "weight: T[10,3]; indices: i64[8]{0..10}; offsets: i64[2]{0..1}; mode: 2; returns: [0]",
    ]),
    Rule::custom("aten.embedding_bag.padding_idx", embedding_bag).samples(&[
        "weight: T[10,3]; indices: i64[8]{0..10}; offsets: i64[3]{0..1}; scale_grad_by_freq: false; mode: 1; sparse: false; per_sample_weights: none; include_last_offset: false; padding_idx: 4; returns: [0]",
        "weight: T[5,3]; indices: i64[6]{0..5}; offsets: i64[2]{0..1}; scale_grad_by_freq: false; mode: 0; sparse: false; per_sample_weights: T[6]; include_last_offset: false; padding_idx: -1; returns: [0]",
        "weight: T[5,3]; indices: i64[6]{0..5}; offsets: i64[2]{0..1}; scale_grad_by_freq: false; mode: 1; sparse: false; per_sample_weights: none; include_last_offset: false; padding_idx: -2; returns: [0]",
        "weight: T[10,3]; indices: i64[8]{0..10}; offsets: i64[2]{0..1}; scale_grad_by_freq: false; mode: 0; sparse: false; per_sample_weights: none; include_last_offset: false; padding_idx: none; returns: [0]",
    ]),
];
