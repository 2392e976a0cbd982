use super::linalg_common::{self as lc, La};
use crate::{builder, Rule};
use melior::ir::{r#type::RankedTensorType, ValueLike};

/// `X` with `tensordot(self, X, X.ndim) = other`, as torch computes it: the
/// dims of `dims` moved to the end, `self` reshaped to an `N x N` matrix
/// (`N = other.numel()`, static, <= 16), `linalg.solve` with `other`
/// flattened (see linalg_solve_ex.rs), the result reshaped.
pub const RULES: &[Rule] = &[Rule::custom("aten.linalg_tensorsolve.default", |c| {
    let a = c.args.tensor("self")?;
    let b = c.args.tensor("other")?;
    let element = lc::float_element(a, "self")?;
    let a_dims = builder::dims(a.r#type()).ok_or("self has an unknown rank")?;
    let b_dims = builder::dims(b.r#type()).ok_or("other has an unknown rank")?;
    let rank = a_dims.len();
    let la = La::new(c, element);
    let mut a = a;
    let mut order: Vec<usize> = (0..rank).collect();
    if !c.args.is_none("dims")? {
        let dims: Vec<usize> = c.args.ints("dims")?.iter().map(|&d| c.dim(d, rank)).collect::<Result<_, _>>()?;
        order.retain(|d| !dims.contains(d));
        order.extend(&dims);
        let perm: Vec<i64> = order.iter().map(|&d| d as i64).collect();
        a = c.b.onnx().transpose(a, Some(&perm)).typed(c.b.unranked(element))?;
    }
    let static_dims = |dims: &[Option<i64>], what: &str| -> Result<Vec<i64>, String> {
        dims.iter().map(|d| d.ok_or_else(|| format!("{what} has a dynamic shape"))).collect()
    };
    let a_sizes: Vec<i64> = static_dims(&order.iter().map(|&d| a_dims[d]).collect::<Vec<_>>(), "self")?;
    let n: i64 = static_dims(&b_dims, "other")?.iter().product();
    let result_n: i64 = a_sizes[b_dims.len().min(rank)..].iter().product();
    if n != result_n {
        return Err(format!("tensorsolve: self's trailing dims hold {result_n} elements but other has {n}"));
    }
    lc::matrix_limit(n as usize, "the reshaped self")?;
    let square = RankedTensorType::new(&[n as u64, n as u64], element, None).into();
    let shape = c.b.const_i64s(&[n, n])?;
    let a2 = c.b.onnx().reshape(a, shape, None).typed(square)?;
    let flat_ty = RankedTensorType::new(&[n as u64], element, None).into();
    let flat = c.b.const_i64s(&[n])?;
    let b = c.b.cast_like_type(b, element)?;
    let b1 = c.b.onnx().reshape(b, flat, None).typed(flat_ty)?;
    let (x, _, _) = lc::solve(&la, a2, b1, true)?;
    let out = builder::dims(c.result_type(0)?).ok_or("unknown result rank")?;
    let out: Vec<i64> = static_dims(&out, "the result")?;
    let out = c.b.const_i64s(&out)?;
    Ok(vec![c.b.onnx().reshape(x, out, None).typed(c.result_type(0)?)?])
})
.samples(&["self: T[2,3,6]; other: T[2,3]", "self: T[6,2,3]; other: T[2,3]; dims: [0]", "self: T[4,4]{dd}; other: T[4]"])
.dtypes(&["f32", "f64"])];
