use super::distance_common::cdist;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten._cdist_forward.default", cdist).samples(&[
    "x1: T[3,4]; x2: T[5,4]; p: 2.0; compute_mode: none",
    "x1: T[2,3,4]; x2: T[2,5,4]; p: 1.0; compute_mode: none",
    "x1: T[3,4]; x2: T[2,4]; p: 0.0; compute_mode: none",
    "x1: T[3,4]; x2: T[2,4]; p: 3.0; compute_mode: none",
    "x1: T[2,1,3,4]; x2: T[3,2,4]; p: inf; compute_mode: none",
    "x1: T[0,4]; x2: T[2,4]; p: 2.0; compute_mode: none",
])];
