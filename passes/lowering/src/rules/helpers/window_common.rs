//! Window functions (`torch.hann_window` and family): the length is a plain
//! int, so the window is computed at conversion time (float64, torch's
//! formulas) and written as a constant of the requested dtype.

use crate::Ctx;
use melior::ir::{
    r#type::{RankedTensorType, Type},
    Attribute, Value,
};

/// torch's window shapes over `n` in `0..len` with denominator `d` (`len`
/// when periodic, `len - 1` when symmetric).
pub enum Window {
    /// `alpha - beta cos(2 pi n / d)` (hann is alpha = beta = 0.5).
    Hamming { alpha: f64, beta: f64 },
    /// `0.42 - 0.5 cos(2 pi n / d) + 0.08 cos(4 pi n / d)`.
    Blackman,
    /// `1 - |2 n / d - 1|`.
    Bartlett,
}

/// The window's values, torch's conventions: length 0 is empty, length 1 is
/// `[1]` whatever the shape and `periodic`.
pub fn values(window: &Window, len: i64, periodic: bool) -> Result<Vec<f64>, String> {
    if len < 0 {
        return Err(format!("window_length must be non-negative, got {len}"));
    }
    if len > 1 << 24 {
        return Err(format!("window_length {len} is too large to write as a constant (at most 2^24)"));
    }
    if len <= 1 {
        return Ok(vec![1.0; len as usize]);
    }
    let d = if periodic { len } else { len - 1 } as f64;
    let tau = 2.0 * std::f64::consts::PI;
    Ok((0..len)
        .map(|n| {
            let x = n as f64 / d;
            match window {
                Window::Hamming { alpha, beta } => alpha - beta * (tau * x).cos(),
                Window::Blackman => 0.42 - 0.5 * (tau * x).cos() + 0.08 * (2.0 * tau * x).cos(),
                Window::Bartlett => 1.0 - (2.0 * x - 1.0).abs(),
            }
        })
        .collect())
}

/// The rule body: `window_length`, optional `periodic` (default true), the
/// window built as a float64 constant cast to the result's element type.
pub fn lower<'c, 'a>(c: &Ctx<'c, 'a>, window: Window) -> Result<Vec<Value<'c, 'a>>, String> {
    let len = c.args.int("window_length")?;
    let periodic = if c.args.is_none("periodic").unwrap_or(true) { true } else { c.args.bool("periodic")? };
    let element = c.result_element(0)?;
    if !crate::builder::is_float(element) {
        return Err("window functions are defined for floating-point dtypes only".into());
    }
    let data = values(&window, len, periodic)?;
    let f64_type = Type::float64(c.b.context);
    let ty = RankedTensorType::new(&[data.len() as u64], f64_type, None).into();
    let attrs: Vec<Attribute> = data.iter().map(|&v| crate::builder::float_attr(c.b.context, f64_type, v).into()).collect();
    let value = c.b.constant(ty, &attrs)?;
    Ok(vec![c.b.cast_like_type(value, element)?])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hann_matches_torch_conventions() {
        let hann = Window::Hamming { alpha: 0.5, beta: 0.5 };
        assert_eq!(values(&hann, 0, true).unwrap(), Vec::<f64>::new());
        assert_eq!(values(&hann, 1, false).unwrap(), vec![1.0]);
        let w = values(&hann, 4, true).unwrap(); // torch.hann_window(4): [0, 0.5, 1, 0.5]
        for (got, exp) in w.iter().zip([0.0, 0.5, 1.0, 0.5]) {
            assert!((got - exp).abs() < 1e-12, "{w:?}");
        }
        let w = values(&Window::Bartlett, 5, false).unwrap(); // [0, 0.5, 1, 0.5, 0]
        for (got, exp) in w.iter().zip([0.0, 0.5, 1.0, 0.5, 0.0]) {
            assert!((got - exp).abs() < 1e-12, "{w:?}");
        }
        assert!(values(&Window::Blackman, -1, true).is_err());
    }
}
