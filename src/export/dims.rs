//! Readable `dim_param` names for symbolic sizes.
//!
//! Tensor types carry the symbolic size of each dynamic dim in their
//! encoding, as the capture's sympy text (`tensor<?x8xf32, ["s77"]>`,
//! possibly compound: `"2*s77"`, `"s0 - 1"`, `"max(1, s3)"`). ONNX names
//! dynamic dims with free-form `dim_param` strings, and equal strings mean
//! equal sizes. Raw `s77` names are meaningless to a user, so each symbol is
//! named by where it first appears among the graph inputs:
//!
//! - dim 0 of an input: `batch`;
//! - dim 1 of an input whose dim 0 is `batch`, when the input holds token
//!   ids (integer element type) or has rank 2 or 3: `seq`;
//! - otherwise `<input>_dim<j>`.
//!
//! A name already taken by another symbol falls back to `<input>_dim<j>`,
//! then to numbered variants, so distinct symbols never share a name.
//! Symbols that appear on no input (sizes computed inside the graph) get a
//! name from their kind without torch's number: `s12` becomes `dim`,
//! `dim_1`, ...; `u0` (an unbacked, data-dependent size) becomes
//! `unbacked`, ... Compound expressions are rewritten symbol by symbol:
//! `2*s77` becomes `2*batch`.
//!
//! A caller that knows better names (the Python entry point knows the
//! `torch.export.Dim` names, which the `.pt2` does not record) passes a
//! symbol -> name map; those names win ([`DimNames::from_inputs_with`]).

use std::collections::{BTreeMap, HashMap, HashSet};

/// One dim of a graph input, as the naming sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Dim {
    Static(i64),
    /// A dynamic dim with its symbolic expression, if the type records one.
    Dynamic(Option<String>),
}

/// A graph input: its name, whether its element type is an integer type
/// (token ids), and its dims.
#[derive(Clone, Debug)]
pub struct InputDims {
    pub name: String,
    pub integer: bool,
    pub dims: Vec<Dim>,
}

/// The symbol -> name mapping. Build it from the graph inputs with
/// [`DimNames::from_inputs`], then rewrite every dynamic dim's expression
/// with [`DimNames::rewrite`] (in a deterministic order: unknown symbols are
/// named as they are met).
#[derive(Clone, Debug, Default)]
pub struct DimNames {
    names: HashMap<String, String>,
    used: HashSet<String>,
}

impl DimNames {
    pub fn from_inputs(inputs: &[InputDims]) -> DimNames {
        DimNames::from_inputs_with(inputs, &BTreeMap::new())
    }

    /// [`DimNames::from_inputs`], with the names in `given` (symbol ->
    /// name, e.g. `s77` -> `batch` from a `torch.export.Dim("batch")` the
    /// caller knows about) taking precedence over derived ones. A given name
    /// that is empty, or already given to another symbol, is made unique
    /// (`batch_1`) so distinct symbols never share a name.
    pub fn from_inputs_with(inputs: &[InputDims], given: &BTreeMap<String, String>) -> DimNames {
        let mut names = DimNames::default();
        for (symbol, name) in given {
            let name = name.trim();
            if symbol.is_empty() || names.names.contains_key(symbol.as_str()) {
                continue;
            }
            let name = names.unique(if name.is_empty() { "dim" } else { name });
            names.insert(symbol, name);
        }
        for input in inputs {
            let rank = input.dims.len();
            let symbol_at = |j: usize| match input.dims.get(j) {
                Some(Dim::Dynamic(Some(expr))) => single_symbol(expr),
                _ => None,
            };
            for j in 0..rank {
                let Some(symbol) = symbol_at(j) else { continue };
                if names.names.contains_key(symbol) {
                    continue;
                }
                let fallback = format!("{}_dim{j}", input.name);
                let preferred = match j {
                    0 => Some("batch"),
                    1 => {
                        let dim0_is_batch = symbol_at(0).and_then(|s| names.names.get(s)).is_some_and(|n| n == "batch");
                        (dim0_is_batch && (input.integer || rank == 2 || rank == 3)).then_some("seq")
                    }
                    _ => None,
                };
                let name = match preferred {
                    Some(p) if !names.used.contains(p) => p.to_string(),
                    _ => names.unique(&fallback),
                };
                names.insert(symbol, name);
            }
        }
        names
    }

    /// The name given to `symbol`, if any.
    pub fn get(&self, symbol: &str) -> Option<&str> {
        self.names.get(symbol).map(String::as_str)
    }

    /// `expr` with every symbol replaced by its name; symbols without a name
    /// yet get one from their kind (`dim`, `unbacked`, ...).
    pub fn rewrite(&mut self, expr: &str) -> String {
        let mut out = String::with_capacity(expr.len());
        let mut last = 0;
        for (start, end, torch_symbol) in identifiers(expr) {
            let symbol = &expr[start..end];
            // A given name's symbol need not look like torch's (an
            // imported model's `N`, or the opaque `N_1` made for `N + 1`).
            if !torch_symbol && !self.names.contains_key(symbol) {
                continue;
            }
            out.push_str(&expr[last..start]);
            let name = match self.names.get(symbol) {
                Some(name) => name.clone(),
                None => {
                    let prefix = symbol.trim_end_matches(|c: char| c.is_ascii_digit());
                    let base = match prefix {
                        "s" => "dim",
                        "u" => "unbacked",
                        other => other,
                    };
                    let name = self.unique(base);
                    self.insert(symbol, name.clone());
                    name
                }
            };
            out.push_str(&name);
            last = end;
        }
        out.push_str(&expr[last..]);
        out
    }

    fn insert(&mut self, symbol: &str, name: String) {
        self.used.insert(name.clone());
        self.names.insert(symbol.to_string(), name);
    }

    fn unique(&self, base: &str) -> String {
        if !self.used.contains(base) {
            return base.to_string();
        }
        (1..).map(|n| format!("{base}_{n}")).find(|n| !self.used.contains(n)).unwrap()
    }
}

/// The expression when it is a single symbol (`s77`, not `2*s77`).
fn single_symbol(expr: &str) -> Option<&str> {
    let trimmed = expr.trim();
    match symbols(trimmed).as_slice() {
        [(0, end)] if *end == trimmed.len() => Some(trimmed),
        _ => None,
    }
}

/// Byte ranges of the symbols in `expr`: identifiers made of lowercase
/// letters then digits (`s77`, `u0`, `ps3`) that are not function calls.
fn symbols(expr: &str) -> Vec<(usize, usize)> {
    identifiers(expr).into_iter().filter(|&(_, _, torch)| torch).map(|(start, end, _)| (start, end)).collect()
}

/// Byte ranges of the identifiers in `expr` that are not function calls,
/// each with whether it is a symbol as torch names one (see [`symbols`]).
fn identifiers(expr: &str) -> Vec<(usize, usize, bool)> {
    let bytes = expr.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            let ident = &expr[start..i];
            let letters = ident.trim_end_matches(|c: char| c.is_ascii_digit());
            if !expr[i..].trim_start().starts_with('(') {
                let torch_symbol = !letters.is_empty()
                    && letters.len() < ident.len()
                    && letters.bytes().all(|b| b.is_ascii_lowercase());
                out.push((start, i, torch_symbol));
            }
        } else if c.is_ascii_digit() || c == b'.' {
            // a number: skip it whole so `2e5` is not read as a symbol
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'.') {
                i += 1;
            }
        } else {
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(name: &str, integer: bool, dims: &[&str]) -> InputDims {
        InputDims {
            name: name.to_string(),
            integer,
            dims: dims
                .iter()
                .map(|d| match d.parse::<i64>() {
                    Ok(n) => Dim::Static(n),
                    Err(_) if *d == "?" => Dim::Dynamic(None),
                    Err(_) => Dim::Dynamic(Some(d.to_string())),
                })
                .collect(),
        }
    }

    #[test]
    fn given_names_need_not_look_like_torch_symbols() {
        // An imported model's symbols: its own `N`, and `N_1`, the opaque
        // symbol the importer made for a dim named `N + 1`.
        let given = BTreeMap::from([("N".to_string(), "N".to_string()), ("N_1".to_string(), "N + 1".to_string())]);
        let mut n = DimNames::from_inputs_with(&[input("x", false, &["N", "N_1"])], &given);
        assert_eq!(n.rewrite("N_1"), "N + 1");
        assert_eq!(n.rewrite("max(N, N_1)"), "max(N, N + 1)");
        // Identifiers nobody named stay as they are.
        assert_eq!(n.rewrite("M_2 + N"), "M_2 + N");
    }

    #[test]
    fn batch_and_seq() {
        let mut n = DimNames::from_inputs(&[
            input("input_ids", true, &["s0", "s1"]),
            input("attention_mask", true, &["s0", "s1"]),
        ]);
        assert_eq!(n.rewrite("s0"), "batch");
        assert_eq!(n.rewrite("s1"), "seq");
        assert_eq!(n.rewrite("2*s1"), "2*seq");
        assert_eq!(n.rewrite("s0*s1"), "batch*seq");
    }

    #[test]
    fn seq_only_for_token_ids_or_rank_2_and_3() {
        // float rank 4 (an image): dim 1 is channels, not a sequence
        let n = DimNames::from_inputs(&[input("image", false, &["s0", "s1", "s2", "s3"])]);
        assert_eq!(n.get("s0"), Some("batch"));
        assert_eq!(n.get("s1"), Some("image_dim1"));
        assert_eq!(n.get("s2"), Some("image_dim2"));
        assert_eq!(n.get("s3"), Some("image_dim3"));
        // float rank 3: [batch, seq, hidden]
        let n = DimNames::from_inputs(&[input("x", false, &["s0", "s1", "16"])]);
        assert_eq!(n.get("s1"), Some("seq"));
        // integer rank 4 still gets seq
        let n = DimNames::from_inputs(&[input("ids", true, &["s0", "s1", "2", "2"])]);
        assert_eq!(n.get("s1"), Some("seq"));
        // dim 1 whose dim 0 is static: not seq
        let n = DimNames::from_inputs(&[input("x", false, &["1", "s4"])]);
        assert_eq!(n.get("s4"), Some("x_dim1"));
    }

    #[test]
    fn names_are_unique() {
        let n = DimNames::from_inputs(&[
            input("a", false, &["s0", "s1"]),
            input("b", false, &["s2", "s3"]),
            input("c", false, &["s4", "4"]),
        ]);
        assert_eq!(n.get("s0"), Some("batch"));
        assert_eq!(n.get("s1"), Some("seq"));
        // another batch-like symbol: b's dim 0 is not "batch", so no seq either
        assert_eq!(n.get("s2"), Some("b_dim0"));
        assert_eq!(n.get("s3"), Some("b_dim1"));
        assert_eq!(n.get("s4"), Some("c_dim0"));
        // an input literally named like a fallback cannot collide
        let n = DimNames::from_inputs(&[input("x", false, &["4", "4", "s1"]), input("x", false, &["4", "4", "s2"])]);
        assert_eq!(n.get("s1"), Some("x_dim2"));
        assert_eq!(n.get("s2"), Some("x_dim2_1"));
    }

    #[test]
    fn unknown_symbols_lose_their_number() {
        let mut n = DimNames::from_inputs(&[input("x", false, &["s77", "8"])]);
        assert_eq!(n.rewrite("s12"), "dim");
        assert_eq!(n.rewrite("s13 + 1"), "dim_1 + 1");
        assert_eq!(n.rewrite("s12*s77"), "dim*batch");
        assert_eq!(n.rewrite("u0"), "unbacked");
        assert_eq!(n.rewrite("u1"), "unbacked_1");
        // functions and numbers are kept
        assert_eq!(n.rewrite("max(1, s77)"), "max(1, batch)");
        assert_eq!(n.rewrite("(s77//2)"), "(batch//2)");
        assert_eq!(n.rewrite("log2(s77)"), "log2(batch)");
        assert_eq!(n.rewrite("2e5*s77"), "2e5*batch");
    }

    #[test]
    fn given_names_win() {
        let given: BTreeMap<String, String> = [("s77", "batch_size"), ("s9", "tokens"), ("s5", "tokens")]
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        let mut n =
            DimNames::from_inputs_with(&[input("x", false, &["s77", "s3"]), input("y", true, &["s77", "s9"])], &given);
        assert_eq!(n.get("s77"), Some("batch_size"));
        // the same name given to two symbols: the second (in symbol order) is made unique
        assert_eq!(n.get("s5"), Some("tokens"));
        assert_eq!(n.get("s9"), Some("tokens_1"));
        // symbols not given are derived as before (dim 0 is not `batch` here, so no `seq`)
        assert_eq!(n.get("s3"), Some("x_dim1"));
        assert_eq!(n.rewrite("2*s77"), "2*batch_size");
        // a derived name never takes a given one
        let given: BTreeMap<String, String> = [("s1".to_string(), "batch".to_string())].into_iter().collect();
        let n = DimNames::from_inputs_with(&[input("x", false, &["s0", "s1"])], &given);
        assert_eq!(n.get("s1"), Some("batch"));
        assert_eq!(n.get("s0"), Some("x_dim0"));
    }

    #[test]
    fn compound_input_dims_are_not_named_by_position() {
        let mut n = DimNames::from_inputs(&[input("x", false, &["2*s5", "s6"])]);
        assert_eq!(n.get("s5"), None);
        assert_eq!(n.get("s6"), Some("x_dim1"));
        assert_eq!(n.rewrite("2*s5"), "2*dim");
        // dynamic dims without an expression are ignored
        let n = DimNames::from_inputs(&[input("y", false, &["?", "s1"])]);
        assert_eq!(n.get("s1"), Some("y_dim1"));
    }
}
