use super::prod_common::beta_alpha;
use crate::{builder, Rule};
use melior::ir::ValueLike;

/// `beta * self + alpha * (mat @ vec)`; `beta == 0` ignores self (NaN too).
/// An empty `mat` (static numel 0) with `beta != 0` is torch's shortcut
/// `beta * self` in self's own shape (not broadcast: a 0-d self and a
/// [0, 4] mat give a 0-d result).
pub const RULES: &[Rule] = &[Rule::custom("aten.addmv.default", |c| {
    let el = super::prod_common::compute_type(c, c.result_element(0)?);
    let mat_dims = builder::dims(c.args.tensor("mat")?.r#type()).ok_or("mat has an unknown rank")?;
    let beta = c.args.number("beta")?.as_f64();
    if mat_dims.contains(&Some(0)) && beta != 0.0 {
        let self_dims = builder::dims(c.args.tensor("self")?.r#type()).ok_or("self has an unknown rank")?;
        let result_dims = builder::dims(c.result_type(0)?).ok_or("unknown result rank")?;
        if self_dims != result_dims {
            return Err(format!(
                "addmv of an empty mat: torch returns beta * self in self's shape {self_dims:?}, \
                 but the program's result has shape {result_dims:?}"
            ));
        }
        let s = c.tensor_as("self", el)?;
        if builder::is_bool(el) {
            return Ok(vec![c.b.onnx().identity(s).typed(c.result_type(0)?)?]);
        }
        return Ok(vec![c.b.onnx().identity(super::prod_common::scaled(c, s, beta)?).typed(c.result_type(0)?)?]);
    }
    let p = c.b.onnx().mat_mul(c.tensor_as("mat", el)?, c.tensor_as("vec", el)?).typed(c.b.unranked(el))?;
    beta_alpha(c, p)
})
.samples(&[
    "self: T[3]; mat: T[3,4]; vec: T[4]",
    "self: T[1]; mat: T[3,4]; vec: T[4]; beta: 2; alpha: 3",
    "self: T[]; mat: T[3,4]; vec: T[4]; beta: 0",
    "self: T[3]; mat: T[3,0]; vec: T[0]; beta: 1; alpha: 2",
    "self: T[]; mat: T[0,4]; vec: T[4]",
    "self: T[1]; mat: T[0,4]; vec: T[4]; beta: 2",
    "self: T[]; mat: T[0,4]; vec: T[4]; beta: 0",
    "self: T[0]; mat: T[0,0]; vec: T[0]; beta: 3",
    // Eager gives a 0-d result here (export's meta says [3]: that is refused).
    "self: T[]; mat: T[3,0]; vec: T[0]; beta: 2",
])
.dtypes(&["f32", "f64", "i64"])];
