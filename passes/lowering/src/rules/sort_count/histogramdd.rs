//! `aten.histogramdd` (bin counts as `int[]` or one `int`, or `.TensorList_bins` edges): points `(..., D)`
//! counted with their weights into the bins of torch's edges by `ScatterElements(add)` on the flat bin index.
//! Equal-width edges come from `range` or the data's extrema (torch's linspace); points outside the outer edges
//! or with a NaN coordinate are skipped; `density` divides by the total and the bin widths.

use crate::Rule;
use super::histogramdd_common::{histogramdd_counts, histogramdd_tensors};

pub const RULES: &[Rule] = &[
    Rule::custom("aten.histogramdd.default", histogramdd_counts)
        .samples(&[
            "self: T[20,2]; bins: [3, 4]",
            "self: T[5,5]; bins: [1, 1, 1, 1, 1]",
            "self: T[4,5,3]; bins: [2, 3, 4]; weight: T[4,5]{pos}",
            "self: T[30,2]; bins: [4, 5]; range: [-1.0, 1.0, 0.0, 2.0]",
            "self: T[30,2]; bins: [4, 2]; range: [0.5, 0.5, -1.0, 1.0]; density: true",
            "self: T[12,2]; bins: [3, 5]; weight: T[12]{pos}; density: true",
            "self: T[0,2]; bins: [2, 3]",
            "self: T[1,3]; bins: [2, 2, 2]",
            "self: T[6,1]; bins: [4]",
        ])
        .dtypes(&["f32", "f64"]),
    Rule::custom("aten.histogramdd.int_bins", histogramdd_counts)
        .samples(&[
            "self: T[20,2]; bins: 3",
            "self: T[30,3]; bins: 2; range: [-1.0, 1.0, 0.0, 2.0, -0.5, 0.5]",
            "self: T[10,2]; bins: 4; weight: T[10]{pos}; density: true",
            "self: T[0,3,2]; bins: 2",
        ])
        .dtypes(&["f32", "f64"]),
    Rule::custom("aten.histogramdd.TensorList_bins", histogramdd_tensors)
        .samples(&[
            "self: T[20,2]; bins: (T[4]{sorted}, T[3]{sorted})",
            "self: T[4,5,2]; bins: (T[5]{sorted}, T[2]{sorted}); weight: T[4,5]{pos}",
            "self: T[15,3]; bins: (T[3]{sorted}, T[4]{sorted}, T[3]{sorted}); density: true",
            "self: T[0,2]; bins: (T[3]{sorted}, T[3]{sorted})",
        ])
        .dtypes(&["f32", "f64"]),
];
