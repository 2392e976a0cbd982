//! Lowering rules, one file per ATen op name (the rule of `aten.gelu.default`
//! is in `gelu.rs`). Add a file, then list its `RULES` in [`ALL`].

use super::Rule;

mod gelu;
mod linear;
mod relu;
mod sym_size;
mod view;

/// Every rule group.
pub static ALL: &[&[Rule]] = &[gelu::RULES, linear::RULES, relu::RULES, sym_size::RULES, view::RULES];
