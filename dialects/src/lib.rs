//! Operator registries for the aten2onnx compiler, with no MLIR dependency.
//!
//! * [`aten`]: every `aten::` overload known to the pinned torch build
//!   (generated from `torch._C._jit_get_all_schemas()` and the op tags),
//!   plus the quantization ops torchao registers outside `aten`
//!   (`quantized_decomposed::quantize_per_tensor`, `torchao::quantize_affine`, ...);
//! * [`onnx`]: every ONNX operator schema in every domain and version
//!   (generated from `onnx.defs.get_all_schemas_with_history()`);
//! * [`sym`]: the hand-written table of the symbolic-scalar call targets
//!   (`_operator.add`, `torch.sym_max`, `math.ceil`, ...) that torch.export
//!   graphs contain outside the aten namespace.
//!
//! The generated data lives in `aten/generated.rs` and `onnx/generated.rs`;
//! regenerate them with `.venv/bin/python tools/gen/gen_registries.py` (the
//! `freshness` test fails when they are stale).

pub mod aten;
pub mod onnx;
pub mod sym;

/// A quick hasher for the registries' tables keyed by op names: a multiply
/// per 8 bytes, where SipHash cost ~100 instructions per lookup (the
/// verifiers look every op up after every pass). The tables are fixed, so
/// a collision only slows the lookups of the colliding names.
#[derive(Default)]
pub(crate) struct WordHasher(u64);

impl std::hash::Hasher for WordHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.write_u64(u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]));
        }
        let rest = chunks.remainder();
        let mut last = [0u8; 8];
        last[..rest.len()].copy_from_slice(rest);
        self.write_u64(u64::from_le_bytes(last) ^ ((rest.len() as u64) << 59));
    }
    fn write_u8(&mut self, n: u8) {
        self.write_u64(n as u64);
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
    fn finish(&self) -> u64 {
        self.0 ^ (self.0 >> 29)
    }
}

/// A `HashMap` with [`WordHasher`].
pub(crate) type FastMap<K, V> = std::collections::HashMap<K, V, std::hash::BuildHasherDefault<WordHasher>>;

/// Version of the `torch` package the ATen registry was generated from.
pub use aten::TORCH_VERSION;
/// Version of the `onnx` package the ONNX registry was generated from.
pub use onnx::ONNX_VERSION;
