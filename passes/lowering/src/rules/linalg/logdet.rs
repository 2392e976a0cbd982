use super::linalg_common::La;
use super::lu_common::slogdet;
use crate::Rule;

/// `log(det(A))` as torch computes it: `logabsdet` from slogdet, NaN where
/// the sign is -1 (a negative determinant), -inf for a singular matrix.
pub const RULES: &[Rule] = &[Rule::custom("aten.logdet.default", |c| {
    let (sign, logabsdet, _, _) = slogdet(c, "self")?;
    let element = c.result_element(0)?;
    let la = La::new(c, element);
    let minus_one = la.scalar(-1.0)?;
    let negative = la.cmp(la.on().equal(sign, minus_one))?;
    let nan = la.scalar(f64::NAN)?;
    Ok(vec![c.b.onnx().where_(negative, nan, logabsdet).typed(c.result_type(0)?)?])
})
.samples(&["self: T[3,3]", "self: T[2,4,4]", "self: T[0,0]", "self: T[5,5]{spd}", "self: T[2,3,3]{dd}"])
.dtypes(&["f32", "f64"])];
