use crate::lowering::{builder, Attr, Rule};
use melior::ir::ValueLike;

/// `a * sigmoid(b)` of the two halves along `dim`.
pub const RULES: &[Rule] = &[Rule::custom("aten.glu.default", |c| {
    let x = c.args.tensor("self")?;
    let rank = c.rank(x)?;
    let dim = c.norm_dim(c.args.int("dim")?, rank);
    let n = builder::dims(x.r#type()).and_then(|d| d[dim as usize]).ok_or("glu needs a static size along dim")?;
    let half = c.b.const_i64s(&[n / 2, n / 2])?;
    let parts = c.b.build("Split", &[x, half], &[("axis", Attr::Int(dim))], &[c.result_type(0)?, c.result_type(0)?])?;
    let s = c.b.op_like("Sigmoid", &[parts[1]], &[], x)?;
    Ok(vec![c.op("Mul", &[parts[0], s], &[])?])
})
.samples(&["self: T[2,6]", "self: T[4,3]; dim: 0"]).dtypes(&["f32", "f16", "bf16", "f64"])];
