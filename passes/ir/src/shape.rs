//! Shapes of tensor types with symbolic dims: a symbolic dim travels in the
//! tensor encoding (`tensor<?x16xf32, ["s77"]>`); shared by
//! `onnx-shape-inference`, the lowering and the optimizer.

use crate::{ir, types::dims};
use melior::ir::r#type::TypeLike as _;
use melior::ir::{
    attribute::{ArrayAttribute, StringAttribute},
    r#type::RankedTensorType,
    Attribute, Type,
};
use mlir_sys as sys;

/// One dimension: static, symbolic (an expression over capture symbols), or unknown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Dim {
    Static(i64),
    Sym(String),
    Unknown,
}

/// The dims of a tensor.
pub type Shape = Vec<Dim>;

/// The shape of a tensor type, with symbols from its encoding.
pub fn shape_of(ty: Type<'_>) -> Option<Shape> {
    let d = dims(ty)?;
    let symbols: Vec<String> = unsafe {
        let enc = sys::mlirRankedTensorTypeGetEncoding(ty.to_raw());
        if enc.ptr.is_null() || !sys::mlirAttributeIsAArray(enc) {
            Vec::new()
        } else {
            (0..sys::mlirArrayAttrGetNumElements(enc))
                .map(|i| {
                    ir::string_value(Attribute::from_raw(sys::mlirArrayAttrGetElement(enc, i))).unwrap_or_default()
                })
                .collect()
        }
    };
    let mut next = symbols.into_iter();
    Some(
        d.into_iter()
            .map(|d| match d {
                Some(n) => Dim::Static(n),
                None => match next.next() {
                    Some(s) if !s.is_empty() => Dim::Sym(s),
                    _ => Dim::Unknown,
                },
            })
            .collect(),
    )
}

/// A ranked tensor type of `shape`, with symbols in the encoding.
pub fn tensor_type<'c>(context: &'c melior::Context, shape: &[Dim], element: Type<'c>) -> Type<'c> {
    // A negative size (an invalid model's Reshape to [-2, 3]) is no type:
    // unknown instead.
    let shape: Vec<Dim> =
        shape.iter().map(|d| if matches!(d, Dim::Static(n) if *n < 0) { Dim::Unknown } else { d.clone() }).collect();
    let shape = &shape[..];
    const DYNAMIC: u64 = i64::MIN as u64;
    let dims: Vec<u64> = shape.iter().map(|d| if let Dim::Static(n) = d { *n as u64 } else { DYNAMIC }).collect();
    let symbols: Vec<Attribute> = shape
        .iter()
        .filter_map(|d| match d {
            Dim::Static(_) => None,
            Dim::Sym(s) => Some(StringAttribute::new(context, s).into()),
            Dim::Unknown => Some(StringAttribute::new(context, "").into()),
        })
        .collect();
    let has_symbols = shape.iter().any(|d| matches!(d, Dim::Sym(_)));
    let encoding = has_symbols.then(|| ArrayAttribute::new(context, &symbols).into());
    RankedTensorType::new(&dims, element, encoding).into()
}

/// The size of `total` (all dims of a tensor) divided by the size of
/// `taken`: static factors divide, a symbolic dim of `taken` cancels one
/// equal symbol of `total` (symbols are atoms: `2*s0` does not cancel
/// `s0`). What is left is a static size or the product of the symbols left,
/// named as torch prints one (`4*s0`, `s0*s1`). `None` when something does
/// not cancel or divide, or a size is 0.
pub fn remaining_dim(total: &[Dim], taken: &[Dim]) -> Option<Dim> {
    let mut numeric: i64 = 1;
    let mut symbols: Vec<String> = Vec::new();
    for d in total {
        match d {
            Dim::Static(n) if *n > 0 => numeric = numeric.checked_mul(*n)?,
            Dim::Sym(_) => symbols.push(text(d)),
            _ => return None,
        }
    }
    for d in taken {
        match d {
            Dim::Static(n) if *n > 0 && numeric % n == 0 => numeric /= n,
            Dim::Sym(_) => {
                let at = symbols.iter().position(|s| *s == text(d))?;
                symbols.remove(at);
            }
            _ => return None,
        }
    }
    if symbols.is_empty() {
        return Some(Dim::Static(numeric));
    }
    // One symbol left as it is: `s0 + 1`, not the `(s0 + 1)` of a product.
    if numeric == 1 && symbols.len() == 1 {
        let only = &symbols[0];
        let bare = only.strip_prefix('(').and_then(|s| s.strip_suffix(')')).filter(|s| !s.contains(['(', ')']));
        return Some(Dim::Sym(bare.unwrap_or(only).to_string()));
    }
    symbols.sort();
    let factors: Vec<String> = (numeric != 1).then(|| numeric.to_string()).into_iter().chain(symbols).collect();
    Some(Dim::Sym(factors.join("*")))
}

/// The number of elements of a tensor of these dims: static, a product of
/// symbols named as torch prints one (`4*s0`), or unknown.
pub fn size_of(dims: &[Dim]) -> Dim {
    if dims.contains(&Dim::Static(0)) {
        return Dim::Static(0);
    }
    remaining_dim(dims, &[]).unwrap_or(Dim::Unknown)
}

/// A dim as torch prints it in an expression (a sum in parentheses).
pub fn text(d: &Dim) -> String {
    match d {
        Dim::Static(n) => n.to_string(),
        Dim::Sym(s) if s.contains(' ') => format!("({s})"),
        Dim::Sym(s) => s.clone(),
        Dim::Unknown => "?".into(),
    }
}

/// A symbolic size as an affine form over capture symbols, `c + sum(k * s)`,
/// read from the flat sums the dims carry (`s70`, `1 + s70`, `s0 + s1 - 2`,
/// `2*s0`). Every symbol stands for a size, so it is never negative: a form
/// with no negative coefficient or constant is provably >= 0. Anything else
/// (a product of symbols, a parenthesis, `max(...)`) does not parse: the
/// caller then knows nothing, never something wrong.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Affine {
    pub constant: i64,
    pub terms: std::collections::BTreeMap<String, i64>,
}

impl Affine {
    pub fn of(d: &Dim) -> Option<Affine> {
        match d {
            Dim::Static(n) => Some(Affine { constant: *n, ..Default::default() }),
            Dim::Sym(s) => Affine::parse(s),
            Dim::Unknown => None,
        }
    }

    fn parse(text: &str) -> Option<Affine> {
        // term (op term)*: an odd number of tokens; `s0 +` is no sum.
        if text.split(' ').count() % 2 == 0 {
            return None;
        }
        let mut out = Affine::default();
        let mut sign = 1i64;
        for (i, token) in text.split(' ').enumerate() {
            if i % 2 == 1 {
                sign = match token {
                    "+" => 1,
                    "-" => -1,
                    _ => return None,
                };
                continue;
            }
            let (k, symbol) = match token.split_once('*') {
                Some((k, s)) => (k.parse::<i64>().ok()?, s),
                None => match token.parse::<i64>() {
                    Ok(n) => {
                        out.constant = out.constant.checked_add(sign.checked_mul(n)?)?;
                        continue;
                    }
                    Err(_) => (1, token),
                },
            };
            let symbol_ok = symbol.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && symbol.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            if !symbol_ok {
                return None;
            }
            let entry = out.terms.entry(symbol.to_string()).or_insert(0);
            *entry = entry.checked_add(sign.checked_mul(k)?)?;
        }
        out.terms.retain(|_, k| *k != 0);
        Some(out)
    }

    pub fn sub(&self, other: &Affine) -> Option<Affine> {
        let mut out = self.clone();
        out.constant = out.constant.checked_sub(other.constant)?;
        for (s, k) in &other.terms {
            let entry = out.terms.entry(s.clone()).or_insert(0);
            *entry = entry.checked_sub(*k)?;
        }
        out.terms.retain(|_, k| *k != 0);
        Some(out)
    }

    /// True when the form is >= 0 for every value of its symbols (sizes).
    pub fn nonnegative(&self) -> bool {
        self.constant >= 0 && self.terms.values().all(|&k| k >= 0)
    }

    /// The dim: static when no symbol is left, else the sum torch would
    /// print (`s70`, `s70 + 1`, `2*s0 - 3`).
    pub fn dim(&self) -> Dim {
        if self.terms.is_empty() {
            return Dim::Static(self.constant);
        }
        let mut text = String::new();
        for (s, &k) in &self.terms {
            let (sign, k) = if k < 0 { ("-", -k) } else { ("+", k) };
            if text.is_empty() {
                text.push_str(if sign == "-" { "-" } else { "" });
            } else {
                text.push_str(&format!(" {sign} "));
            }
            if k != 1 {
                text.push_str(&format!("{k}*"));
            }
            text.push_str(s);
        }
        if self.constant != 0 {
            let (sign, c) =
                if self.constant < 0 { ("-", -(self.constant as i128)) } else { ("+", self.constant as i128) };
            text.push_str(&format!(" {sign} {c}"));
        }
        Dim::Sym(text)
    }
}

/// A dim as it stands alone in an expression's argument list.
fn text_of(d: &Dim) -> Option<String> {
    match d {
        Dim::Static(n) => Some(n.to_string()),
        Dim::Sym(s) => Some(s.clone()),
        Dim::Unknown => None,
    }
}

/// The length of `start:end` (step 1) along a dim of size `n`, with ONNX
/// Slice's clamping (a negative index counts from the end), when it can be
/// proven for every value of the symbols: `0:s70` of `s70 + 1` is `s70`,
/// `1:(1 + s70)` of `1 + s70` is `s70`. `start`/`end` are static indices or
/// symbolic sizes (never negative); `None` when the clamping cannot be
/// decided without the symbols' values.
pub fn slice_length(n: &Dim, start: &Dim, end: &Dim) -> Option<Dim> {
    let n_form = Affine::of(n)?;
    if !n_form.nonnegative() {
        return None;
    }
    // An index after clamping to [0, n], as an affine form.
    let clamp = |index: &Dim| -> Option<Affine> {
        let form = match index {
            Dim::Static(i) if *i >= i64::MAX / 2 => return Some(n_form.clone()),
            Dim::Static(i) if *i < 0 => {
                let from_end = n_form.sub(&Affine { constant: i.checked_neg()?, ..Default::default() })?;
                // max(0, n + i): provable either way only in these cases.
                if from_end.nonnegative() {
                    return Some(from_end);
                }
                if from_end.terms.is_empty() {
                    return Some(Affine::default());
                }
                return None;
            }
            _ => Affine::of(index)?,
        };
        if !form.nonnegative() {
            return None;
        }
        // min(form, n)
        if n_form.sub(&form)?.nonnegative() {
            Some(form)
        } else if form.sub(&n_form)?.nonnegative() {
            Some(n_form.clone())
        } else {
            None
        }
    };
    let (b, e) = match (clamp(start), clamp(end)) {
        (Some(b), Some(e)) => (b, e),
        // `0:end` with a size `end` that may be past `n` or not: min(end, n),
        // a size of its own, named canonically.
        (Some(b), None) if b == Affine::default() => {
            return match end {
                Dim::Sym(e) if Affine::of(end).is_some_and(|f| f.nonnegative()) => {
                    Some(Dim::Sym(extremum("min", e, &text_of(n)?)))
                }
                _ => None,
            }
        }
        _ => return None,
    };
    let length = e.sub(&b)?;
    if length.nonnegative() {
        Some(length.dim())
    } else if b.sub(&e)?.nonnegative() {
        Some(Dim::Static(0))
    } else {
        None
    }
}

/// The arguments of a `max(...)` / `min(...)` expression at its top level,
/// or the expression itself.
fn extremum_args<'t>(text: &'t str, name: &str) -> Vec<&'t str> {
    let Some(inner) = text.strip_prefix(name).and_then(|t| t.strip_prefix('(')).and_then(|t| t.strip_suffix(')'))
    else {
        return vec![text];
    };
    let (mut depth, mut start, mut out) = (0i32, 0usize, Vec::new());
    for (i, c) in inner.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(inner[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
        if depth < 0 {
            return vec![text]; // `max(a) + max(b)`: not one call
        }
    }
    out.push(inner[start..].trim());
    out
}

/// `max(a, b)` or `min(a, b)` of two symbolic sizes, flattened, deduplicated
/// and sorted, so that the same sizes always give the same symbol
/// (`max(b, max(a, b))` is `max(a, b)`).
pub fn extremum(name: &str, a: &str, b: &str) -> String {
    let mut args: Vec<&str> = extremum_args(a, name).into_iter().chain(extremum_args(b, name)).collect();
    args.sort_unstable();
    args.dedup();
    // max(min(x, y), x) is x (and min(max(x, y), x) is x): the inner
    // extremum of the other kind bounded by an argument drops out.
    let other = if name == "max" { "min" } else { "max" };
    let kept: Vec<&str> = args
        .iter()
        .copied()
        .filter(|arg| {
            let inner = extremum_args(arg, other);
            !(inner.len() > 1 && inner.iter().any(|x| args.contains(x)))
        })
        .collect();
    let args = kept;
    if args.len() == 1 {
        return args[0].to_string();
    }
    format!("{name}({})", args.join(", "))
}

#[cfg(test)]
mod affine_tests {
    use super::*;

    fn sym(s: &str) -> Dim {
        Dim::Sym(s.into())
    }

    #[test]
    fn slice_lengths_proven_for_every_symbol_value() {
        // HF's packed-sequence check: x[..., :s] and x[..., 1:1 + s] of a 1 + s axis.
        assert_eq!(slice_length(&sym("1 + s70"), &Dim::Static(0), &sym("s70")), Some(sym("s70")));
        assert_eq!(slice_length(&sym("1 + s70"), &Dim::Static(1), &sym("1 + s70")), Some(sym("s70")));
        assert_eq!(slice_length(&sym("s70 + 1"), &Dim::Static(1), &Dim::Static(i64::MAX)), Some(sym("s70")));
        // [-1:] of s: s may be 0 (length 0) or more (length 1): unknown.
        assert_eq!(slice_length(&sym("s0"), &Dim::Static(-1), &Dim::Static(i64::MAX)), None);
        // [-1:] of s + 2 is 1 whatever s.
        assert_eq!(slice_length(&sym("s0 + 2"), &Dim::Static(-1), &Dim::Static(i64::MAX)), Some(Dim::Static(1)));
        // [2:] of s: s may be below 2.
        assert_eq!(slice_length(&sym("s0"), &Dim::Static(2), &Dim::Static(i64::MAX)), None);
        // [:t] of s with unrelated t: min(s, t), a size of its own.
        assert_eq!(slice_length(&sym("s0"), &Dim::Static(0), &sym("s1")), Some(sym("min(s0, s1)")));
        assert_eq!(slice_length(&Dim::Static(64), &Dim::Static(0), &sym("seq")), Some(sym("min(64, seq)")));
        // [1:t]: unknown.
        assert_eq!(slice_length(&sym("s0"), &Dim::Static(1), &sym("s1")), None);
        // [:s] of s + 3 and [0:s + 5] of s + 3.
        assert_eq!(slice_length(&sym("s0 + 3"), &Dim::Static(0), &sym("s0")), Some(sym("s0")));
        assert_eq!(slice_length(&sym("s0 + 3"), &Dim::Static(0), &sym("s0 + 5")), Some(sym("s0 + 3")));
        // Expressions it does not read leave the length unknown.
        assert_eq!(slice_length(&sym("max(1, s0)"), &Dim::Static(0), &sym("s0")), None);
        assert_eq!(slice_length(&sym("s0"), &Dim::Static(0), &sym("max(1, s1)")), None);
        assert_eq!(slice_length(&sym("s0*s1"), &Dim::Static(0), &Dim::Static(i64::MAX)), None);
        // Static all the way.
        assert_eq!(slice_length(&Dim::Static(10), &Dim::Static(-3), &Dim::Static(i64::MAX)), Some(Dim::Static(3)));
        assert_eq!(slice_length(&Dim::Static(10), &Dim::Static(7), &Dim::Static(2)), Some(Dim::Static(0)));
    }

    #[test]
    fn extrema_are_canonical() {
        assert_eq!(extremum("max", "b", "a"), "max(a, b)");
        assert_eq!(extremum("max", "b", "max(a, b)"), "max(a, b)");
        assert_eq!(extremum("max", "max(b, c)", "max(a, min(x, y))"), "max(a, b, c, min(x, y))");
        assert_eq!(extremum("max", "s0", "s0"), "s0");
        assert_eq!(extremum("min", "64", "seq"), "min(64, seq)");
        assert_eq!(extremum("max", "min(64, seq)", "seq"), "seq");
        assert_eq!(extremum("min", "max(a, b)", "b"), "b");
        assert_eq!(extremum("max", "min(64, seq)", "s1"), "max(min(64, seq), s1)");
    }

    #[test]
    fn affine_forms_read_and_print_flat_sums() {
        let a = Affine::of(&sym("s0 + s1 - 2")).unwrap();
        assert_eq!(a.constant, -2);
        assert!(!a.nonnegative());
        assert_eq!(a.dim(), sym("s0 + s1 - 2"));
        assert_eq!(Affine::of(&sym("2*s0 + 1")).unwrap().dim(), sym("2*s0 + 1"));
        assert_eq!(Affine::of(&sym("(s0 + 1)")), None);
        // Malformed sums are nothing, never a part of what they say.
        for bad in ["s0 +", "s0 + ", "+ s0", "s0  + 1", "s0 + + 1", "", "s0 1"] {
            assert_eq!(Affine::of(&sym(bad)), None, "{bad:?}");
        }
        assert_eq!(
            Affine::of(&sym("s0 + 1")).unwrap().sub(&Affine::of(&sym("1 + s0")).unwrap()).unwrap().dim(),
            Dim::Static(0)
        );
    }
}
