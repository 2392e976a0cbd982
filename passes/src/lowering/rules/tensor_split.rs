use super::shapes_common::{split_at, split_by_result_sizes};
use crate::lowering::{IntArg, Rule};

/// `torch.tensor_split`: by a number of sections (the first `len % n`
/// pieces one longer) or at indices (Python slice bounds). The tensor form
/// needs indices known at export, i.e. static piece sizes.
pub const RULES: &[Rule] = &[
    Rule::custom("aten.tensor_split.sections", |c| {
        let x = c.args.tensor("self")?;
        if let IntArg::Static(n) = c.args.sym_int("sections")? {
            if n <= 0 {
                return Err(format!("tensor_split: number of sections must be positive, got {n}"));
            }
        }
        split_by_result_sizes(c, x, c.args.int("dim")?)
    })
    .samples(&["self: T[7]; sections: 3", "self: T[2,5]; sections: 5; dim: -1", "self: T[2,3]; sections: 4; dim: 1", "self: T[4,2]; sections: 1"])
    .dtypes(&["f32", "i64", "bool", "i32", "f64", "f16"]),
    Rule::custom("aten.tensor_split.indices", |c| {
        let x = c.args.tensor("self")?;
        let indices: Vec<i64> = c
            .args
            .sym_ints("indices")?
            .into_iter()
            .map(|i| match i {
                IntArg::Static(v) => Ok(v),
                IntArg::Dynamic(_) => Err("tensor_split at symbolic indices is not supported".to_string()),
            })
            .collect::<Result<_, _>>()?;
        split_at(c, x, c.args.int("dim")?, &indices)
    })
    .samples(&["self: T[7]; indices: [2,5]", "self: T[3,6]; indices: [4,1]; dim: 1", "self: T[3,6]; indices: [-2,10]; dim: -1", "self: T[4]; indices: []"])
    .dtypes(&["f32", "i64", "bool", "i32", "f64", "f16"]),
    Rule::custom("aten.tensor_split.tensor_indices_or_sections", |c| {
        let x = c.args.tensor("self")?;
        split_by_result_sizes(c, x, c.args.int("dim")?)
    })
    .samples(&["self: T[7]; tensor_indices_or_sections: i64[]{3..4}", "self: T[2,6]; tensor_indices_or_sections: i64[]{2..3}; dim: 1"])
    .dtypes(&["f32", "i64", "bool", "i32", "f64", "f16"]),
];
