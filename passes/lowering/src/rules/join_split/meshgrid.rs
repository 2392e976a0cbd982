use super::tensor_common::concat;
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.meshgrid.default", |c| meshgrid(c, "ij"))
        .samples(&["tensors: (T[2], T[3])", "tensors: (T[2], T[3], T[4])", "tensors: (T[3],)"])
        .dtypes(&["f32", "i64", "bool", "i32", "f64"]),
    Rule::custom("aten.meshgrid.indexing", |c| meshgrid(c, &c.args.string("indexing")?))
        .samples(&[
            "tensors: (T[2], T[3]); indexing: \"ij\"",
            "tensors: (T[2], T[3]); indexing: \"xy\"",
            "tensors: (T[2], T[3], T[4]); indexing: \"xy\"",
            "tensors: (T[], T[3]); indexing: \"xy\"",
            "tensors: (T[0], T[3]); indexing: \"ij\"",
            "tensors: (T[4],); indexing: \"xy\"",
        ])
        .dtypes(&["f32", "i64", "bool", "i32", "f64"]),
];

/// Output `i` is input `i` (1-D, or 0-d as one element) reshaped to lie
/// along its grid axis and expanded to the grid; "xy" swaps the first two
/// grid axes (torch's definition).
fn meshgrid<'c, 'a>(ctx: &Ctx<'c, 'a>, indexing: &str) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let tensors = ctx.args.tensors("tensors")?;
    let n = tensors.len();
    let xy = match indexing {
        "ij" => false,
        "xy" => true,
        other => return Err(format!("meshgrid: indexing must be \"ij\" or \"xy\", got \"{other}\"")),
    };
    for t in &tensors {
        if ctx.rank(*t)? > 1 {
            return Err("meshgrid expects 0-d or 1-D tensors".into());
        }
    }
    let axis_of = |i: usize| if xy && n >= 2 && i < 2 { 1 - i } else { i };
    // Grid shape: axis a has the length of the input placed there.
    let mut sizes = vec![None; n];
    for (i, t) in tensors.iter().enumerate() {
        let flat = b.onnx().reshape(*t, b.const_i64s(&[-1])?, None).like(*t)?;
        sizes[axis_of(i)] = Some((b.shape(flat)?, flat));
    }
    let shape = concat(ctx, &sizes.iter().map(|s| s.unwrap().0).collect::<Vec<_>>())?;
    let mut out = Vec::new();
    for i in 0..n {
        let a = axis_of(i);
        let mut view = vec![1i64; n];
        view[a] = -1;
        let flat = sizes[a].unwrap().1;
        let r = b.onnx().reshape(flat, b.const_i64s(&view)?, None).like(flat)?;
        out.push(b.onnx().expand(r, shape).typed(ctx.result_type(i)?)?);
    }
    Ok(out)
}
