use super::math_common::elem;
use super::searchsorted_common::{insertion_index, promote, promote_number};
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.bucketize.Tensor", bucketize)
        .samples(&[
            "self: T[3,4]; boundaries: T[6]{sorted}",
            "self: T[3,4]; boundaries: T[6]{sorted}; right: true",
            "self: T[5]; boundaries: T[3]{sorted}; out_int32: true",
            "self: T[]; boundaries: T[4]{sorted}",
            "self: T[2,0]; boundaries: T[4]{sorted}",
            "self: T[3]; boundaries: T[0]",
            "self: i64[6]{-1..4}; boundaries: i64[8]{sorted}; right: true",
            "self: i64[6]{-1..4}; boundaries: f32[5]{sorted}",
        ])
        .dtypes(&["f32", "i64", "i32", "f64"]),
    Rule::custom("aten.bucketize.Scalar", bucketize)
        .samples(&[
            "self: 0.5; boundaries: T[6]{sorted}",
            "self: 1; boundaries: T[6]{sorted}; right: true",
            "self: -0.25; boundaries: T[5]{sorted}; out_int32: true",
        ])
        .dtypes(&["f32", "i64", "f64"]),
];

/// `searchsorted(boundaries, self, right=right)` with 1-D boundaries.
fn bucketize<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let seq = ctx.args.tensor("boundaries")?;
    if ctx.rank(seq)? != 1 {
        return Err("bucketize: boundaries must be 1-D".into());
    }
    let seq_element = elem(seq)?;
    let (seq, values) = match ctx.args.tensor_or_number("self")? {
        Ok(v) => {
            let common = promote(seq_element, elem(v)?);
            (b.cast_like_type(seq, common)?, b.cast_like_type(v, common)?)
        }
        Err(n) => {
            let common = promote_number(ctx, seq_element, n);
            (b.cast_like_type(seq, common)?, b.const_scalar(common, n.as_f64())?)
        }
    };
    let index = insertion_index(ctx, seq, 1, values, ctx.args.bool("right")?)?;
    let index = b.cast_like_type(index, ctx.result_element(0)?)?;
    Ok(vec![ctx.b.onnx().identity(index).typed(ctx.result_type(0)?)?])
}
