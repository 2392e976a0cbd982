use super::prod_common::eye_like_batch;
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.linalg_matrix_power.default", matrix_power)
    .samples(&[
        "self: T[3,3]; n: 0",
        "self: T[3,3]; n: 1",
        "self: T[3,3]; n: 2",
        "self: T[2,3,3]; n: 5",
        "self: T[2,1,3,3]; n: 6",
        "self: T[0,2,2]; n: 3",
        "self: T[2,0,0]; n: 0",
        "self: f64[3,3]{dd}; n: -1",
        "self: f32[2,3,3]{dd}; n: -3",
    ])
    .dtypes(&["f32", "f64", "i64"])
];

/// `n == 0`: the identity (broadcast over the batch); `n > 0`: torch's
/// binary decomposition (squarings from the low bit, the result multiplied
/// by the current square where a bit is set), so floats round like torch;
/// `n < 0`: the same on the inverse (static matrix size, see linalg_inv_ex.rs).
fn matrix_power<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = c.tensor_as("self", c.result_element(0)?)?;
    let mut n = c.args.int("n")?;
    if c.rank(x)? < 2 {
        return Err("linalg.matrix_power expects a (batch of) square matrix".into());
    }
    let x = if n < 0 {
        // torch: the inverse (linalg.inv, float only), raised to -n.
        if !crate::builder::is_float(c.result_element(0)?) {
            return Err("linalg.matrix_power: a negative power of a non-float matrix".into());
        }
        n = -n;
        super::linalg_inv_common::inverse(c, "self")?.0
    } else {
        x
    };
    if n == 0 {
        let eye = eye_like_batch(c, x)?;
        return Ok(vec![c.b.onnx().identity(eye).typed(c.result_type(0)?)?]);
    }
    let mut z: Option<Value<'c, 'a>> = None;
    let mut result: Option<Value<'c, 'a>> = None;
    while n > 0 {
        let bit = n % 2;
        n /= 2;
        let zz = match z {
            Some(z) => c.b.onnx().mat_mul(z, z).like(x)?,
            None => x,
        };
        z = Some(zz);
        if bit == 1 {
            result = Some(match result {
                Some(r) => c.b.onnx().mat_mul(r, zz).like(x)?,
                None => zz,
            });
        }
    }
    let r = result.ok_or("no result")?;
    Ok(vec![c.b.onnx().identity(r).typed(c.result_type(0)?)?])
}
