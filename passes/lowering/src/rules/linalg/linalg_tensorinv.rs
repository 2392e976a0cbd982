use super::linalg_common::{self as lc, La};
use crate::{builder, Rule};
use melior::ir::{r#type::RankedTensorType, ValueLike};

/// The tensor inverse as torch computes it: `self` reshaped to `N x N`
/// (`N` = product of the dims from `ind` on, static, <= 16), inverted (see
/// linalg_inv_ex.rs), reshaped to `shape[ind:] + shape[:ind]`.
pub const RULES: &[Rule] = &[Rule::custom("aten.linalg_tensorinv.default", |c| {
    let a = c.args.tensor("self")?;
    let element = lc::float_element(a, "self")?;
    let dims = builder::dims(a.r#type()).ok_or("self has an unknown rank")?;
    let ind = c.args.int("ind")?;
    if ind <= 0 || ind as usize > dims.len() {
        return Err(format!("tensorinv: expected a positive ind up to the rank {}, got {ind}", dims.len()));
    }
    let sizes: Vec<i64> =
        dims.iter().map(|d| d.ok_or("self has a dynamic shape")).collect::<Result<_, _>>()?;
    let n: i64 = sizes[ind as usize..].iter().product();
    let m: i64 = sizes[..ind as usize].iter().product();
    if n != m {
        return Err(format!("tensorinv: the product of the first ind dims ({m}) must equal that of the rest ({n})"));
    }
    lc::matrix_limit(n as usize, "the reshaped self")?;
    let la = La::new(c, element);
    let square = RankedTensorType::new(&[n as u64, n as u64], element, None).into();
    let shape = c.b.const_i64s(&[n, n])?;
    let a2 = c.b.onnx().reshape(a, shape, None).typed(square)?;
    let f = lc::lu(&la, a2, n as usize, n as usize, true)?;
    let eye = lc::identity(&la, n as usize)?;
    let x = lc::lu_solve(&la, &f, eye, n as usize, 2, false)?;
    let mut out: Vec<i64> = sizes[ind as usize..].to_vec();
    out.extend(&sizes[..ind as usize]);
    let out = c.b.const_i64s(&out)?;
    Ok(vec![c.b.onnx().reshape(x, out, None).typed(c.result_type(0)?)?])
})
.samples(&["self: T[4,2,2]{dd}; ind: 1", "self: T[2,3,6]; ind: 2", "self: T[3,3]{dd}; ind: 1"])
.dtypes(&["f32", "f64"])];
