use crate::{Ctx, IntArg, Rule};
use melior::ir::Value;

/// `torch.eye(n[, m])`: `Range(n)[:, None] == Range(m)` cast to the dtype
/// (sizes may be symbolic).
pub const RULES: &[Rule] = &[
    Rule::custom("aten.eye.default", |c| {
        let n = c.args.sym_int("n")?;
        eye(c, n, n)
    })
    .samples(&["n: 3", "n: 1", "n: 0", "n: 4; dtype: dtype(i64)", "n: 2; dtype: dtype(bool)", "n: 3; dtype: dtype(f64)", "n: 2; dtype: dtype(i32)", "n: 3; dtype: dtype(f16)"]),
    Rule::custom("aten.eye.m", |c| eye(c, c.args.sym_int("n")?, c.args.sym_int("m")?))
        .samples(&["n: 2; m: 4", "n: 4; m: 2", "n: 0; m: 3", "n: 3; m: 0", "n: 3; m: 3; dtype: dtype(i64)", "n: 2; m: 3; dtype: dtype(bool)", "n: 3; m: 2; dtype: dtype(f64)", "n: 2; m: 2; dtype: dtype(i32)"]),
];

fn eye<'c, 'a>(ctx: &Ctx<'c, 'a>, n: IntArg<'c, 'a>, m: IntArg<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    for v in [n, m] {
        if let IntArg::Static(v) = v {
            if v < 0 {
                return Err(format!("eye: sizes must be non-negative, got {v}"));
            }
        }
    }
    let i64s = b.unranked(b.i64_type());
    let (zero, one) = (b.const_i64_scalar(0)?, b.const_i64_scalar(1)?);
    let rows = b.onnx().range(zero, ctx.int_scalar(n, b.i64_type())?, one, None).typed(i64s)?;
    let cols = b.onnx().range(zero, ctx.int_scalar(m, b.i64_type())?, one, None).typed(i64s)?;
    let rows = ctx.unsqueeze(rows, &[1])?;
    let bool_type = melior::ir::r#type::IntegerType::new(b.context, 1).into();
    let eq = b.onnx().equal(rows, cols).typed(b.unranked(bool_type))?;
    Ok(vec![b.cast_like_type(eq, ctx.result_element(0)?)?])
}
