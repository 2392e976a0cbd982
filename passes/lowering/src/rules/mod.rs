//! Lowering rules, one file per ATen op name in a folder per family: the
//! rule of `aten.gelu.default` is in `activation/gelu.rs` (`binary/where_.rs`
//! for the keyword `where`). Overloads of one op share its file. Families:
//! `unary`, `binary` (elementwise math, comparisons, logic), `activation`
//! (and softmax, dropout), `loss`, `nn` (conv, linear, norms, embeddings,
//! attention, RNNs, padding, grids), `pooling`, `upsample`, `backward`,
//! `reduction` (and scans), `sort_count` (sort, unique, search, histograms),
//! `views`, `join_split` (cat, split, repeat, flip, ...), `conversion`
//! (copies, dtype), `indexing` (gather/scatter/index/masks), `creation`
//! (factories, windows), `random`, `linalg` (matmul family, decompositions),
//! `special`, `fft`, `complex`, `quantized`, `symbolic` (sizes, asserts).
//! `helpers/` is the helper library: every piece of code two rules share
//! (`common.rs`, `<topic>_common.rs`), and nothing else.
//!
//! Adding a rule is adding its file: `passes/lowering/build.rs` lists every
//! file of the folders as a module of this one (stems are unique), and those
//! declaring `pub const RULES` in [`ALL`].

use super::Rule;

include!(concat!(env!("OUT_DIR"), "/rules.rs"));
