use crate::lowering::{builder, Ctx, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[
    Rule::custom("aten.var.dim", |c| variance(c, false))
        .samples(&["self: T[3,5]; dim: [1]", "self: T[3,5]; dim: [0]; unbiased: false; keepdim: true"]),
    Rule::custom("aten.var.correction", |c| variance(c, false)).samples(&[
        "self: T[3,5]; dim: [1]",
        "self: T[3,5]; dim: [0]; correction: 0; keepdim: true",
        "self: T[2,3,4]; dim: [1,2]",
        "self: T[3,4]",
    ]),
];

/// `sum((x - mean)^2) / (N - correction)` over `dim` (all dims when None);
/// N must be static. std = sqrt(var).
pub(super) fn variance<'c, 'a>(ctx: &Ctx<'c, 'a>, std: bool) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let x = ctx.args.tensor("self")?;
    let shape = builder::dims(x.r#type()).ok_or("unknown rank")?;
    let rank = shape.len();
    let dims: Vec<i64> = if ctx.args.is_none("dim")? {
        (0..rank as i64).collect()
    } else {
        ctx.args.ints("dim")?.into_iter().map(|d| ctx.norm_dim(d, rank)).collect()
    };
    let n: i64 = dims
        .iter()
        .map(|&d| shape[d as usize].ok_or("variance over a dynamic dim is not supported"))
        .product::<Result<i64, _>>()?;
    // `.dim` says unbiased (a correction of 1 or 0), `.correction` the number.
    let correction = if ctx.args.schema.arg("unbiased").is_some() {
        if ctx.args.bool("unbiased")? {
            1.0
        } else {
            0.0
        }
    } else if ctx.args.is_none("correction")? {
        1.0
    } else {
        ctx.args.number("correction")?.as_f64()
    };
    let keepdim = ctx.args.bool("keepdim")?;
    let element = builder::element_type(x.r#type()).ok_or("not a tensor")?;
    let mean = ctx.reduce("ReduceMean", x, Some(&dims), true, b.unranked(element))?;
    let d = b.op_like("Sub", &[x, mean], &[], x)?;
    let sq = b.op_like("Mul", &[d, d], &[], x)?;
    let sum = ctx.reduce("ReduceSum", sq, Some(&dims), keepdim, b.unranked(element))?;
    let denom = b.const_like(x, (n as f64 - correction).max(0.0))?;
    let var = b.op_like("Div", &[sum, denom], &[], x)?;
    if std {
        Ok(vec![ctx.op("Sqrt", &[var], &[])?])
    } else {
        Ok(vec![ctx.op("Identity", &[var], &[])?])
    }
}
