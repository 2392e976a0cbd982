use super::random_common::uniform_f64_bits;
use crate::Rule;

/// A random permutation of `0..n`: the order of `n` uniform keys (53 random
/// bits each, so ties are negligible; `TopK` indices), cast to the result type.
pub const RULES: &[Rule] = &[Rule::custom("aten.randperm.default", |c| {
    let b = &c.b;
    if let crate::IntArg::Static(n) = c.args.sym_int("n")? {
        if n < 0 {
            return Err(format!("randperm: n must be non-negative, got {n}"));
        }
    }
    let n = c.int_tensor(c.args.sym_int("n")?)?;
    let f64_type = melior::ir::Type::float64(b.context);
    let keys = uniform_f64_bits(c, n, 53)?;
    let i64s = b.unranked(b.i64_type());
    let top = b.onnx().top_k(keys, n, Some(0), Some(1), Some(1)).results(&[b.unranked(f64_type), i64s])?;
    Ok(vec![b.cast_like_type(top[1], c.result_element(0)?)?])
})
.samples(&["n: 5"])];
