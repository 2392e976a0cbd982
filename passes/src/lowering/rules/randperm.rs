use super::random_common::{template, uniform_like};
use crate::lowering::{Attr, Rule};

/// A random permutation of `0..n`: the order of `n` uniform keys (`TopK`
/// indices), cast to the result type.
pub const RULES: &[Rule] = &[Rule::custom("aten.randperm.default", |c| {
    let b = &c.b;
    let n = c.int_tensor(c.args.sym_int("n")?)?;
    let f32_type = b.f32_type();
    let t = template(c, n, f32_type)?;
    let keys = uniform_like(c, t, f32_type, 0.0, 1.0)?;
    let i64s = b.unranked(b.i64_type());
    let top = b.build(
        "TopK",
        &[keys, n],
        &[("axis", Attr::Int(0)), ("largest", Attr::Int(1)), ("sorted", Attr::Int(1))],
        &[b.unranked(f32_type), i64s],
    )?;
    Ok(vec![b.cast_like_type(top[1], c.result_element(0)?)?])
})
.samples(&["n: 5"])];
