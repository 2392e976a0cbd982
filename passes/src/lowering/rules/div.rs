use crate::lowering::{builder, Ctx, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[
    Rule::binary("aten.div.Tensor", "Div").dtypes(&["f32", "i64"]),
    Rule::binary("aten.div.Scalar", "Div"),
    Rule::custom("aten.div.Tensor_mode", div_mode)
        .samples(&[
            "self: T[2,3]; other: T[2,3]{1..4}; rounding_mode: \"floor\"",
            "self: T[2,3]; other: T[2,3]{1..4}; rounding_mode: \"trunc\"",
            "self: T[2,3]; other: T[2,3]{1..4}; rounding_mode: none",
        ])
        .dtypes(&["f32", "i64"]),
    Rule::custom("aten.floor_divide.default", |c| rounded(c, Some("floor")))
        .samples(&["self: T[2,3]; other: T[2,3]{1..4}", "self: T[2,3]; other: T[3]{1..3}"])
        .dtypes(&["f32", "i64"]),
];

fn div_mode<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let mode = if ctx.args.is_none("rounding_mode")? { None } else { Some(ctx.args.string("rounding_mode")?) };
    rounded(ctx, mode.as_deref())
}

/// True division, or division rounded toward -inf ("floor") or 0 ("trunc").
/// Integer operands are divided in float64 and cast back.
fn rounded<'c, 'a>(ctx: &Ctx<'c, 'a>, mode: Option<&str>) -> Result<Vec<Value<'c, 'a>>, String> {
    let element = ctx.result_element(0)?;
    let work = if builder::is_float(element) { element } else { melior::ir::Type::float64(ctx.b.context) };
    let lhs = ctx.tensor_as("self", work)?;
    let rhs = ctx.tensor_as("other", work)?;
    let q = ctx.b.op_like("Div", &[lhs, rhs], &[], lhs)?;
    let q = match mode {
        None => q,
        Some("floor") => ctx.b.op_like("Floor", &[q], &[], q)?,
        Some("trunc") => {
            // trunc(q) = sign(q) * floor(|q|)
            let a = ctx.b.op_like("Abs", &[q], &[], q)?;
            let f = ctx.b.op_like("Floor", &[a], &[], q)?;
            let s = ctx.b.op_like("Sign", &[q], &[], q)?;
            ctx.b.op_like("Mul", &[s, f], &[], q)?
        }
        Some(other) => return Err(format!("rounding_mode '{other}'")),
    };
    if builder::element_type(q.r#type()) == Some(element) {
        Ok(vec![q])
    } else {
        Ok(vec![ctx.b.cast(q, element)?])
    }
}
