//! `aten.histogram` (`.bin_ct`, `.bins_tensor`): each element counted with its weight in the bin of the last edge
//! <= it. Equal-width edges over `range` (or the data's min / max, widened by 0.5 each side when equal; [0, 1]
//! for an empty input) or the given edges; the last bin includes its right edge, out-of-range and NaN elements
//! are skipped, and `density` divides by the total and the bin widths.

use crate::Rule;
use super::histogram_common::histogram;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.histogram.bin_ct", histogram)
        .samples(&[
            "self: T[20]",
            "self: T[4,5]; bins: 7",
            "self: T[30]; bins: 5; range: [-1.0, 1.5]",
            "self: T[30]; bins: 4; range: [0.0, 0.0]",
            "self: T[3,5]; bins: 3; weight: T[3,5]{pos}",
            "self: T[3,5]; bins: 6; density: true",
            "self: T[3,5]; bins: 6; weight: T[3,5]{pos}; density: true; range: [-1.0, 2.0]",
            "self: T[]; bins: 3",
            "self: T[0]; bins: 3",
        ])
        .dtypes(&["f32", "f64"]),
    Rule::custom("aten.histogram.bins_tensor", histogram)
        .samples(&[
            "self: T[20]; bins: T[5]{sorted}",
            "self: T[4,5]; bins: T[3]{sorted}; weight: T[4,5]{pos}",
            "self: T[4,5]; bins: T[6]{sorted}; density: true",
            "self: T[4,5]; bins: T[4]{sorted}; weight: T[4,5]{pos}; density: true",
            "self: T[]; bins: T[3]{sorted}",
            "self: T[0]; bins: T[3]{sorted}",
        ])
        .dtypes(&["f32", "f64"]),
];
