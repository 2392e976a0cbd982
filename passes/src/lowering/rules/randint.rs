use super::random_common::{template, uniform_like};
use crate::lowering::{Ctx, IntArg, Rule};
use melior::ir::{Type, Value};

pub const RULES: &[Rule] = &[
    Rule::custom("aten.randint.default", |c| randint(c, None)).samples(&["high: 5; size: [2,3]"]),
    Rule::custom("aten.randint.low", |c| randint(c, Some("low"))).samples(&["low: -3; high: 5; size: [2,3]"]),
];

/// Integers uniform in `[low, high)`: `floor(low + U[0,1) * (high - low))`
/// in double (exact for any int64 range that matters), clamped below `high`.
fn randint<'c, 'a>(ctx: &Ctx<'c, 'a>, low: Option<&str>) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let f64_type = Type::float64(b.context);
    let bound = |name: &str| -> Result<Value<'c, 'a>, String> {
        match ctx.args.sym_int(name)? {
            IntArg::Static(v) => b.const_scalar(f64_type, v as f64),
            dynamic => ctx.int_scalar(dynamic, f64_type),
        }
    };
    let lo = match low {
        Some(name) => bound(name)?,
        None => b.const_scalar(f64_type, 0.0)?,
    };
    let hi = bound("high")?;
    if let (Some(l), IntArg::Static(h)) = (low.map(|n| ctx.args.sym_int(n)).transpose()?, ctx.args.sym_int("high")?) {
        if let IntArg::Static(l) = l {
            if l >= h {
                return Err(format!("randint: low ({l}) must be less than high ({h})"));
            }
        }
    }
    let shape = ctx.int_list_tensor(&ctx.args.sym_ints("size")?)?;
    let t = template(ctx, shape, f64_type)?;
    let u = uniform_like(ctx, t, f64_type, 0.0, 1.0)?;
    let span = b.op_like("Sub", &[hi, lo], &[], lo)?;
    let scaled = b.op_like("Mul", &[u, span], &[], u)?;
    let shifted = b.op_like("Add", &[scaled, lo], &[], u)?;
    let floored = b.op_like("Floor", &[shifted], &[], u)?;
    let one = b.const_scalar(f64_type, 1.0)?;
    let top = b.op_like("Sub", &[hi, one], &[], lo)?;
    let clamped = b.op_like("Min", &[floored, top], &[], u)?;
    Ok(vec![b.cast(clamped, ctx.result_element(0)?)?])
}
