use super::linalg_common::{self as lc, La};
use super::lu_common::unpack;
use crate::Rule;

/// `(P, L, U)` with `A = P L U`: the LU factorization of
/// linalg_lu_factor_ex.rs unpacked as lu_unpack.rs does.
pub const RULES: &[Rule] = &[Rule::custom("aten.linalg_lu.default", |c| {
    if !c.args.bool("pivot")? {
        return Err("LU without pivoting (pivot=False) is not implemented by torch on the CPU".into());
    }
    let a = c.args.tensor("A")?;
    let element = lc::float_element(a, "A")?;
    let (m, n, batch) = lc::matrix_dims(a, "A")?;
    let la = La::new(c, element);
    let f = lc::lu(&la, a, m, n, true)?;
    let (p, l, u) = unpack(c, &la, &f, m, n, batch)?;
    Ok(vec![p, l, u])
})
.samples(&["A: T[3,3]", "A: T[2,4,4]", "A: T[3,5]", "A: T[5,3]", "A: T[0,0]"])
.dtypes(&["f32", "f64"])];
