use super::tensor_common::{cut_to, empty_index, scatter_reduce, zero_d};
use crate::{Ctx, Rule};
use melior::ir::Value;

// Index samples avoid duplicate targets where torch's result would depend
// on the write order (plain scatter): a permutation row per sample.
pub const RULES: &[Rule] = &[
    Rule::custom("aten.scatter.src", |c| scatter(c, None))
        .samples(&[
            "self: T[3,5]; dim: 0; index: i64[1,5]{0..3}; src: T[3,5]",
            "self: T[3,5]; dim: 1; index: i64[3,1]{0..5}; src: T[3,5]",
            "self: T[3,5]; dim: -1; index: i64[2,1]{0..5}; src: T[2,4]",
            "self: T[3,5]; dim: 0; index: i64[0,5]; src: T[3,5]",
            "self: T[3,1]; dim: 0; index: i64[2,0]; src: T[1,7]",
            "self: T[]; dim: 0; index: i64[]{0..1}; src: T[]",
        ])
        .dtypes(&["f32", "i64", "bool", "i32", "f64", "f16", "bf16", "i8", "u8"]),
    Rule::custom("aten.scatter.value", |c| scatter(c, None))
        .samples(&[
            "self: T[3,5]; dim: 0; index: i64[2,3]{0..3}; value: 2.5",
            "self: T[3,5]; dim: 1; index: i64[3,2]{0..5}; value: -1",
            "self: T[3,5]; dim: 1; index: i64[0,2,3]; value: -1",
        ])
        .dtypes(&["f32", "i64", "i32", "f64", "f16", "bf16", "i8", "u8", "bool"]),
    Rule::custom("aten.scatter.reduce", |c| scatter(c, Some(c.args.string("reduce")?)))
        .samples(&[
            "self: T[3,5]; dim: 0; index: i64[4,5]{0..3}; src: T[4,5]; reduce: \"add\"",
            "self: T[3,5]; dim: 1; index: i64[3,4]{0..5}; src: T[3,5]; reduce: \"multiply\"",
            "self: T[3,5]; dim: 1; index: i64[0,4]{0..5}; src: T[3,3,5]; reduce: \"multiply\"",
            "self: T[3,5]; dim: 0; index: i64[2,0]; src: T[1,7]; reduce: \"add\"",
            "self: T[3,5]; dim: 1; index: i64[2,3]{0..5}; src: T[4,6]; reduce: \"add\"",
        ])
        .dtypes(&["f32", "i64", "i32", "f64", "f16", "bf16", "i8", "u8", "bool"]),
    Rule::custom("aten.scatter.value_reduce", |c| scatter(c, Some(c.args.string("reduce")?)))
        .samples(&[
            "self: T[3,5]; dim: 0; index: i64[4,5]{0..3}; value: 1.5; reduce: \"add\"",
            "self: T[3,5]; dim: 1; index: i64[3,4]{0..5}; value: 2; reduce: \"multiply\"",
        ])
        .dtypes(&["f32", "i64", "i32", "f64", "f16", "bf16", "i8", "u8", "bool"]),
];

/// `ScatterElements` along `dim` (torch's `reduce=` "add" / "multiply").
fn scatter<'c, 'a>(ctx: &Ctx<'c, 'a>, reduce: Option<String>) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let x = ctx.args.tensor("self")?;
    let rank = ctx.rank(x)?;
    let dim = ctx.dim(ctx.args.int("dim")?, rank)?;
    let index = ctx.args.tensor("index")?;
    if let Some(same) = empty_index(ctx, index)? {
        return Ok(vec![same]);
    }
    let element = ctx.result_element(0)?;
    let src = if ctx.args.schema.arguments.iter().any(|a| a.name == "src") {
        let src = ctx.tensor_as("src", element)?;
        cut_to(ctx, src, index)?
    } else {
        // A number or a value computed in the graph (`t.item()`).
        let v = ctx.tensor_as("value", element)?;
        let shape = b.shape(index)?;
        b.onnx().expand(v, shape).like(x)?
    };
    let reduce = match reduce.as_deref() {
        None => "none",
        Some("add") => "sum",
        Some("multiply") => "prod",
        Some(other) => return Err(format!("scatter: unknown reduce '{other}'")),
    };
    if rank == 0 {
        return Ok(vec![zero_d(ctx, x, index, src, reduce, true)?]);
    }
    Ok(vec![scatter_reduce(ctx, x, dim, index, src, reduce, true)?])
}
