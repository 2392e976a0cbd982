use crate::{builder, Ctx, IntArg, Rule};
use melior::ir::{Type, Value};

pub const RULES: &[Rule] = &[
    Rule::custom("aten.arange.default", |c| arange(c, None, "end", None)).samples(&[
        "end: 5",
        "end: 4; dtype: dtype(f32)",
        "end: 0",
        "end: 3.5",
        "end: 2.0000001; dtype: dtype(f64)",
        "end: 4; dtype: dtype(i32)",
        "end: 3.5; dtype: dtype(i32)",
    ]),
    Rule::custom("aten.arange.start", |c| arange(c, Some("start"), "end", None)).samples(&[
        "start: 2; end: 7",
        "start: -3; end: 3; dtype: dtype(f32)",
        "start: 0.1; end: 1.3",
        "start: 5; end: 5",
    ]),
    Rule::custom("aten.arange.start_step", |c| arange(c, Some("start"), "end", Some("step"))).samples(&[
        "start: 1; end: 10; step: 3",
        "start: 0.5; end: 2.5; step: 0.5",
        "start: 5; end: 0; step: -2",
        "start: -1.0; end: 1.0; step: 0.1",
        "start: 0; end: 1; step: 0.1",
        "start: 1.0; end: -1.0; step: -0.3",
        "start: 0.0; end: 0.9; step: 0.3",
        "start: 10; end: 1; step: -0.7; dtype: dtype(f64)",
        "start: 0; end: 1; step: 0.1; dtype: dtype(f64)",
        "start: -2.5; end: 3; step: 1.5; dtype: dtype(i64)",
    ]),
];

/// torch's arange: the length is `ceil((end - start) / step)` computed in
/// double, the values `start + i * step` computed in double for floating
/// results (its CPU accumulation type) and in int64 for integer results
/// (start and step truncated; for int64 the end too). ONNX `Range` would compute the length in the
/// result type (float32 rounding gives one element too many), so: `Range`
/// over int64 indices, then the affine map.
fn arange<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    start: Option<&str>,
    end: &str,
    step: Option<&str>,
) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let element = ctx.result_element(0)?;
    let f64_type = Type::float64(b.context);
    let i64_type = b.i64_type();
    // (static value, or a dynamic int64 0-d value)
    enum S<'c, 'a> {
        Num(f64),
        Dyn(Value<'c, 'a>),
    }
    let read = |name: Option<&str>, default: f64| -> Result<S<'c, 'a>, String> {
        let Some(name) = name else { return Ok(S::Num(default)) };
        match ctx.args.sym_int(name) {
            Ok(IntArg::Dynamic(v)) => Ok(S::Dyn(ctx.int_scalar(IntArg::Dynamic(v), i64_type)?)),
            Ok(IntArg::Static(v)) => Ok(S::Num(v as f64)),
            Err(_) => Ok(S::Num(ctx.args.number(name)?.as_f64())),
        }
    };
    // int64 results: torch truncates start, end and step to int64 first
    // (other integer types compute the length from the doubles).
    let int64 = element == b.i64_type();
    let trunc = |v: S<'c, 'a>| match v {
        S::Num(n) if int64 => S::Num(n.trunc()),
        other => other,
    };
    let raw_step = read(step, 1.0)?;
    if let S::Num(0.0) = raw_step {
        return Err("arange: step must be nonzero".into());
    }
    let (s, e, d) = (trunc(read(start, 0.0)?), trunc(read(Some(end), 0.0)?), trunc(raw_step));
    // The length torch computed at capture time when the result is static:
    // torch 2.15 computes the length of an int64 arange from the float
    // bounds (`arange(3.7, dtype=int64)` has 4 elements; torch 2.13 truncates
    // the end first: 3), so the capture's own type decides. The values
    // (truncated start + i * truncated step) are the same in both.
    let declared = match builder::dims(ctx.result_type(0)?).as_deref() {
        Some([Some(n)]) => Some(*n),
        _ => None,
    };
    if let (S::Num(d), None) = (&d, declared) {
        if *d == 0.0 {
            return Err("arange: step must be nonzero".into());
        }
    }
    let is_float = builder::is_float(element);
    // The length, as a 0-d int64.
    let n = match (&s, &e, &d) {
        _ if declared.is_some() => b.const_i64_scalar(declared.unwrap_or_default())?,
        (S::Num(s), S::Num(e), S::Num(d)) => {
            let n = ((e - s) / d).ceil();
            if !n.is_finite() {
                return Err("arange: the length is not finite".into());
            }
            b.const_i64_scalar(n.max(0.0) as i64)?
        }
        _ => {
            let as_f64 = |v: &S<'c, 'a>| -> Result<Value<'c, 'a>, String> {
                match v {
                    S::Num(n) => b.const_scalar(f64_type, *n),
                    S::Dyn(v) => b.cast(*v, f64_type),
                }
            };
            let (sf, ef, df) = (as_f64(&s)?, as_f64(&e)?, as_f64(&d)?);
            let span = b.onnx().sub(ef, sf).like(sf)?;
            let q = b.onnx().div(span, df).like(sf)?;
            let c = b.onnx().ceil(q).like(sf)?;
            let zero = b.const_scalar(f64_type, 0.0)?;
            let c = b.onnx().max(&[c, zero]).like(sf)?;
            b.cast(c, i64_type)?
        }
    };
    let zero = b.const_i64_scalar(0)?;
    let one = b.const_i64_scalar(1)?;
    let i = b.onnx().range(zero, n, one, None).typed(b.unranked(i64_type))?;
    // values = start + i * step in the accumulation type.
    let acc = if is_float { f64_type } else { i64_type };
    let value = |v: &S<'c, 'a>| -> Result<Value<'c, 'a>, String> {
        match v {
            S::Num(n) => b.const_scalar(acc, if is_float { *n } else { n.trunc() }),
            S::Dyn(v) => b.cast_like_type(*v, acc),
        }
    };
    let (sv, dv) = (value(&s)?, value(&d)?);
    let i = b.cast_like_type(i, acc)?;
    let scaled = b.onnx().mul(i, dv).like(sv)?;
    let values = b.onnx().add(scaled, sv).like(sv)?;
    if acc == element {
        return Ok(vec![values]);
    }
    Ok(vec![b.cast(values, element)?])
}
