//! Types of imported values: tensors (static and symbolic dims) and
//! symbolic scalars.

use aten2onnx_pt2::schema::{ScalarType, SymInt, TensorMeta};
use melior::{
    ir::{
        attribute::{ArrayAttribute, StringAttribute},
        r#type::{IntegerType, RankedTensorType},
        Attribute, Type,
    },
    Context,
};

/// The MLIR element type of a torch dtype (signless integers; `ui8` for
/// uint8 so that it stays distinct from int8).
pub fn element_type<'c>(context: &'c Context, dtype: ScalarType) -> Result<Type<'c>, String> {
    use ScalarType::*;
    let text = match dtype {
        Float => "f32",
        Double => "f64",
        Half => "f16",
        BFloat16 => "bf16",
        Long => "i64",
        Int => "i32",
        Short => "i16",
        Char => "i8",
        Byte => "ui8",
        UInt16 => "ui16",
        UInt32 => "ui32",
        UInt64 => "ui64",
        Bool => "i1",
        ComplexFloat => "complex<f32>",
        ComplexDouble => "complex<f64>",
        ComplexHalf => "complex<f16>",
        Float8E4M3FN => "f8E4M3FN",
        Float8E5M2 => "f8E5M2",
        Float8E4M3FNUZ => "f8E4M3FNUZ",
        Float8E5M2FNUZ => "f8E5M2FNUZ",
        Float8E8M0FNU => "f8E8M0FNU",
        Unknown => return Err("tensor has an unknown dtype".to_string()),
    };
    Type::parse(context, text).ok_or_else(|| format!("cannot build element type {text}"))
}

/// The dtype of an MLIR element type (inverse of [`element_type`]).
pub fn scalar_type_of(ty: Type<'_>) -> Option<ScalarType> {
    use ScalarType::*;
    Some(match ty.to_string().as_str() {
        "f32" => Float,
        "f64" => Double,
        "f16" => Half,
        "bf16" => BFloat16,
        "i64" => Long,
        "i32" => Int,
        "i16" => Short,
        "i8" => Char,
        "ui8" => Byte,
        "ui16" => UInt16,
        "ui32" => UInt32,
        "ui64" => UInt64,
        "i1" => Bool,
        "complex<f32>" => ComplexFloat,
        "complex<f64>" => ComplexDouble,
        "complex<f16>" => ComplexHalf,
        _ => return None,
    })
}

const DYNAMIC: u64 = i64::MIN as u64;

/// `tensor<?x8xf32, ["s77"]>`: dynamic dims are `?`; the encoding lists the
/// symbolic size of each dynamic dim, in order, in a readable infix form.
pub fn tensor_type<'c>(context: &'c Context, meta: &TensorMeta) -> Result<Type<'c>, String> {
    let element = element_type(context, meta.dtype)?;
    let mut dims = Vec::with_capacity(meta.sizes.len());
    let mut symbols = Vec::new();
    for size in &meta.sizes {
        match size {
            SymInt::AsInt(n) if *n >= 0 => dims.push(*n as u64),
            SymInt::AsInt(n) => return Err(format!("negative dimension {n}")),
            SymInt::AsExpr(expr) => {
                dims.push(DYNAMIC);
                symbols.push(StringAttribute::new(context, &sym_expr_text(&expr.expr_str)).into());
            }
        }
    }
    let encoding: Option<Attribute> = (!symbols.is_empty()).then(|| ArrayAttribute::new(context, &symbols).into());
    Ok(RankedTensorType::new(&dims, element, encoding).into())
}

/// Symbolic scalar types: SymInt `i64`, SymFloat `f64`, SymBool `i1`.
pub fn sym_int_type(context: &Context) -> Type<'_> {
    IntegerType::new(context, 64).into()
}

pub fn sym_float_type(context: &Context) -> Type<'_> {
    Type::float64(context)
}

pub fn sym_bool_type(context: &Context) -> Type<'_> {
    IntegerType::new(context, 1).into()
}

/// Turns a sympy `srepr` (`Mul(Integer(2), Symbol('s0', integer=True))`)
/// into infix text (`2*s0`). Unknown functions keep their call form.
pub fn sym_expr_text(srepr: &str) -> String {
    // Memoized (a pure function of the text): every tensor type of every
    // node repeats the same few expressions (2% of importing a Llama). The
    // memo is bounded, cleared when it grows past a few thousand entries.
    thread_local! {
        static MEMO: std::cell::RefCell<std::collections::HashMap<String, String>> = Default::default();
    }
    if let Some(text) = MEMO.with(|m| m.borrow().get(srepr).cloned()) {
        return text;
    }
    let mut parser = Srepr { text: srepr, pos: 0 };
    let text = match parser.expr() {
        Some(text) if parser.pos == srepr.len() => text,
        _ => srepr.to_string(),
    };
    MEMO.with(|m| {
        let mut m = m.borrow_mut();
        if m.len() >= 4096 {
            m.clear();
        }
        m.insert(srepr.to_string(), text.clone());
    });
    text
}

struct Srepr<'a> {
    text: &'a str,
    pos: usize,
}

impl Srepr<'_> {
    fn skip_ws(&mut self) {
        while self.text[self.pos..].starts_with(' ') {
            self.pos += 1;
        }
    }

    fn expr(&mut self) -> Option<String> {
        self.skip_ws();
        let rest = &self.text[self.pos..];
        if let Some(quoted) = rest.strip_prefix('\'') {
            let end = quoted.find('\'')?;
            self.pos += end + 2;
            return Some(quoted[..end].to_string());
        }
        let len =
            rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.')).unwrap_or(rest.len());
        if len == 0 {
            return None;
        }
        let name = &rest[..len];
        self.pos += len;
        if !self.text[self.pos..].starts_with('(') {
            return Some(name.to_string());
        }
        self.pos += 1;
        let mut args = Vec::new();
        loop {
            self.skip_ws();
            if self.text[self.pos..].starts_with(')') {
                self.pos += 1;
                break;
            }
            // keyword arguments (assumptions such as integer=True) are dropped
            let rest = &self.text[self.pos..];
            let keyword =
                rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).filter(|&i| rest[i..].starts_with('='));
            if let Some(i) = keyword {
                self.pos += i + 1;
                self.expr()?;
            } else {
                args.push(self.expr()?);
            }
            self.skip_ws();
            if self.text[self.pos..].starts_with(',') {
                self.pos += 1;
            }
        }
        let paren = |s: &String| if s.contains([' ', '+', '-', '*', '/', '%']) { format!("({s})") } else { s.clone() };
        Some(match (name, args.as_slice()) {
            ("Symbol", [s, ..]) => s.clone(),
            ("Integer" | "Float", [n]) => n.clone(),
            ("Rational", [p, q]) => format!("{p}/{q}"),
            ("Add", _) => args.join(" + ").replace("+ -", "- "),
            ("Mul", _) => args.iter().map(paren).collect::<Vec<_>>().join("*"),
            ("FloorDiv", [a, b]) => format!("{}//{}", paren(a), paren(b)),
            ("Mod" | "PythonMod", [a, b]) => format!("{}%{}", paren(a), paren(b)),
            ("Pow", [a, b]) => format!("{}**{}", paren(a), paren(b)),
            ("Max" | "Min", _) => format!("{}({})", name.to_lowercase(), args.join(", ")),
            _ => format!("{name}({})", args.join(", ")),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::sym_expr_text;

    #[test]
    fn srepr_to_infix() {
        assert_eq!(sym_expr_text("Symbol('s77', positive=True, integer=True)"), "s77");
        assert_eq!(sym_expr_text("Mul(Integer(2), Symbol('s0', integer=True))"), "2*s0");
        assert_eq!(sym_expr_text("Add(Symbol('s0', integer=True), Integer(-1))"), "s0 - 1");
        assert_eq!(sym_expr_text("FloorDiv(Symbol('s0'), Integer(2))"), "s0//2");
        assert_eq!(sym_expr_text("Max(Integer(1), Symbol('s1'))"), "max(1, s1)");
        assert_eq!(sym_expr_text("not srepr ((("), "not srepr (((");
    }
}
