use crate::Rule;

/// `(inverse, info)`: torch solves `A X = I` (`linalg.solve_ex(A, eye)`);
/// unrolled LU with partial pivoting over the static n <= 16 (see
/// linalg_common.rs). `info` is the first zero pivot (1-based), 0 when `A`
/// is invertible; a singular `A` gives inf/NaN entries, like torch.
use super::linalg_inv_common::{inverse};

pub const RULES: &[Rule] = &[Rule::custom("aten.linalg_inv_ex.default", |c| {
    // check_errors=True: torch raises where info != 0, which a graph cannot
    // do; where torch returns, the results are the same (see linalg_common.rs).
    let (x, info) = inverse(c, "A")?;
    Ok(vec![x, info])
})
.samples(&["A: T[3,3]{dd}", "A: T[2,4,4]{dd}", "A: T[1,1]{dd}", "A: T[0,0]", "A: T[4,4]", "A: T[3,0,0]"])
.dtypes(&["f32", "f64"])];
