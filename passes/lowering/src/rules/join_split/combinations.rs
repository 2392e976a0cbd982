use super::tensor_common::{const_index, static_dims};
use crate::Rule;

/// `torch.combinations(x, r, with_replacement)` of a 1-D tensor of static
/// length: the index tuples (strictly, or with replacement, increasing) in
/// lexicographic order are constants; one `Gather` makes the `[count, r]`
/// result. r = 0 gives an empty 1-D tensor, like torch.
pub const RULES: &[Rule] = &[Rule::custom("aten.combinations.default", |c| {
    let b = &c.b;
    let x = c.args.tensor("self")?;
    let dims = static_dims(c, x, "combinations")?;
    let [n] = dims[..] else {
        return Err(format!("combinations expects a 1-D tensor, got rank {}", dims.len()));
    };
    let r = c.args.int("r")?;
    let with_replacement = c.args.bool("with_replacement")?;
    if r < 0 {
        return Err(format!("combinations: r must be non-negative, got {r}"));
    }
    if r == 0 {
        let (s, e, axes) = (b.const_i64s(&[0])?, b.const_i64s(&[0])?, b.const_i64s(&[0])?);
        return Ok(vec![c.b.onnx().slice(x, s, e, Some(axes), None).typed(c.result_type(0)?)?]);
    }
    let tuples = index_tuples(n, r as usize, with_replacement, 1 << 22)
        .ok_or("combinations: too many tuples for constant indices")?;
    let count = tuples.len() / r as usize;
    let idx = const_index(c, &[count as u64, r as u64], &tuples)?;
    Ok(vec![c.b.onnx().gather(x, idx, Some(0)).typed(c.result_type(0)?)?])
})
.samples(&[
    "self: T[4]",
    "self: T[4]; r: 3",
    "self: T[3]; r: 2; with_replacement: true",
    "self: T[3]; r: 0",
    "self: T[2]; r: 3",
    "self: T[1]; r: 1",
    "self: T[0]",
])
.dtypes(&["f32", "i64", "bool", "i32", "f64", "f16"])];

/// The index tuples `i_1 < ... < i_r` (`<=` with replacement) over `0..n`,
/// lexicographic, flattened; `None` past `limit` indices.
fn index_tuples(n: i64, r: usize, with_replacement: bool, limit: usize) -> Option<Vec<i64>> {
    let mut out = Vec::new();
    let mut cur = Vec::with_capacity(r);
    fn go(n: i64, r: usize, rep: bool, start: i64, cur: &mut Vec<i64>, out: &mut Vec<i64>, limit: usize) -> bool {
        if cur.len() == r {
            out.extend_from_slice(cur);
            return out.len() <= limit;
        }
        for i in start..n {
            cur.push(i);
            let ok = go(n, r, rep, if rep { i } else { i + 1 }, cur, out, limit);
            cur.pop();
            if !ok {
                return false;
            }
        }
        true
    }
    go(n, r, with_replacement, 0, &mut cur, &mut out, limit).then_some(out)
}
