use super::shapes_common::{split_at, split_by_result_sizes};
use crate::{Ctx, IntArg, Rule};
use melior::ir::Value;

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
        let dim = c.args.int("dim")?;
        match c.aten_operand_types.get(1).and_then(|t| crate::builder::dims(*t)).as_deref() {
            Some([Some(n)]) => split_at_tensor(c, x, dim, *n),
            _ => split_by_result_sizes(c, x, dim),
        }
    })
    .samples(&[
        "self: T[7]; tensor_indices_or_sections: i64[]{3..4}",
        "self: T[2,6]; tensor_indices_or_sections: i64[]{2..3}; dim: 1",
        "self: T[5,4]; tensor_indices_or_sections: i64[3]{-7..7}",
        "self: T[3,6]; tensor_indices_or_sections: i64[2]{-8..8}; dim: -1",
        "self: T[4]; tensor_indices_or_sections: i64[0]",
    ])
    .dtypes(&["f32", "i64", "bool", "i32", "f64", "f16"]),
];

/// `tensor_split` at the indices held by a 1-D tensor of `n` elements, known
/// only at run time: piece k is `x[i(k-1):i(k)]` along `dim` (0 and the end
/// for the first and last), Python slice bounds as torch's `slice` takes
/// them (negative from the end, clamped, empty when end < start), which is
/// what ONNX `Slice` does with the same bounds.
fn split_at_tensor<'c, 'a>(c: &Ctx<'c, 'a>, x: Value<'c, 'a>, dim: i64, n: i64) -> Result<Vec<Value<'c, 'a>>, String> {
    let rank = c.aten_operand_types.first().and_then(|t| crate::builder::rank(*t)).ok_or("'self' has an unknown rank")?;
    if rank == 0 {
        return Err("tensor_split needs a tensor of rank >= 1".into());
    }
    let d = c.dim(dim, rank)? as i64;
    let results = melior::ir::operation::OperationLike::result_count(&c.args.op);
    if results as i64 != n + 1 {
        return Err(format!("tensor_split at {n} indices gives {} pieces, the op has {results} results", n + 1));
    }
    let idx = c.args.tensor("tensor_indices_or_sections")?;
    let idx = c.b.cast(idx, c.b.i64_type())?;
    let one = melior::ir::r#type::RankedTensorType::new(&[1], c.b.i64_type(), None).into();
    let at = |k: i64| -> Result<Value<'c, 'a>, String> {
        let (s, e) = (c.b.const_i64s(&[k])?, c.b.const_i64s(&[k + 1])?);
        c.b.onnx().slice(idx, s, e, None, None).typed(one)
    };
    let axes = c.b.const_i64s(&[d])?;
    let mut out = Vec::new();
    for k in 0..=n {
        let start = if k == 0 { c.b.const_i64s(&[0])? } else { at(k - 1)? };
        let end = if k == n { c.b.const_i64s(&[i64::MAX])? } else { at(k)? };
        out.push(c.b.onnx().slice(x, start, end, Some(axes), None).typed(c.result_type(k as usize)?)?);
    }
    Ok(out)
}
