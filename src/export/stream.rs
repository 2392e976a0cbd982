//! Streaming serialization of a ModelProto whose initializers are large.
//!
//! A protobuf message is the concatenation of its fields, so the model is
//! written as: the ModelProto fields before `graph` (serialized by
//! rust-protobuf), the `graph` field's tag and length, then the GraphProto as
//! (nodes + name) ++ one `initializer` field per tensor ++ (inputs, outputs,
//! value_info). Each initializer field is a small serialized TensorProto
//! header (dims, data_type, name) followed by its `raw_data` field, whose
//! bytes are copied straight from the archive's memory map. Lengths are all
//! known up front, so nothing large is ever held in memory, and the bytes are
//! exactly what rust-protobuf would write for the same ModelProto built in
//! memory (same field order; see the test below).
//!
//! With external data the TensorProtos carry `data_location = EXTERNAL` and
//! `external_data` entries instead of `raw_data`, and the bytes go to a
//! separate file.

use onnx_protobuf::{tensor_proto::DataLocation, GraphProto, Message, ModelProto, StringStringEntryProto, TensorProto};
use std::io::{self, Write};

/// `GraphProto.initializer = 5`, length-delimited.
const GRAPH_INITIALIZER_TAG: u8 = (5 << 3) | 2;
/// `ModelProto.graph = 7`, length-delimited.
const MODEL_GRAPH_TAG: u8 = (7 << 3) | 2;
/// `TensorProto.raw_data = 9`, length-delimited.
const TENSOR_RAW_DATA_TAG: u8 = (9 << 3) | 2;

/// The bytes of one tensor, in row-major order when written.
#[derive(Clone, Debug)]
pub enum Data<'a> {
    /// Already row-major: written as is (a slice of the memory map).
    Contiguous(&'a [u8]),
    /// A strided view of a storage (a transposed parameter): gathered in
    /// row-major order while writing, a chunk at a time.
    Strided { storage: &'a [u8], element_size: usize, sizes: Vec<i64>, strides: Vec<i64>, offset: i64 },
    /// Computed from other data while writing (an `onnx.weight_transform`:
    /// a cast, concat, BatchNormalization fold, ...), a chunk at a time.
    Lazy(Box<super::transform::Lazy<'a>>),
}

impl Data<'_> {
    pub fn len(&self) -> u64 {
        match self {
            Data::Contiguous(bytes) => bytes.len() as u64,
            Data::Strided { element_size, sizes, .. } => {
                sizes.iter().fold(*element_size as u64, |acc, &s| acc.saturating_mul(s as u64))
            }
            Data::Lazy(lazy) => lazy.len(),
        }
    }

    /// Writes the bytes in row-major order.
    pub fn write_to(&self, out: &mut dyn Write) -> io::Result<()> {
        match self {
            Data::Contiguous(bytes) => out.write_all(bytes),
            Data::Strided { storage, element_size, sizes, strides, offset } => {
                write_strided(out, storage, *element_size, sizes, strides, *offset)
            }
            Data::Lazy(lazy) => lazy.write_all(out),
        }
    }
}

/// Gathers a strided view in row-major order through a bounded buffer.
fn write_strided(
    out: &mut dyn Write,
    storage: &[u8],
    element_size: usize,
    sizes: &[i64],
    strides: &[i64],
    offset: i64,
) -> io::Result<()> {
    const CHUNK: usize = 1 << 20;
    if sizes.contains(&0) {
        return Ok(());
    }
    let rank = sizes.len();
    let mut buffer = Vec::with_capacity(CHUNK.min(sizes.iter().product::<i64>() as usize * element_size));
    let mut index = vec![0i64; rank];
    // The element's offset follows the index (one add per step instead of a
    // dot product per element); 4-byte elements get a fixed-size copy.
    let mut element: i64 = offset;
    loop {
        let start = element as usize * element_size;
        if element_size == 4 {
            buffer.extend_from_slice(&storage[start..start + 4]);
        } else {
            buffer.extend_from_slice(&storage[start..start + element_size]);
        }
        if buffer.len() >= CHUNK {
            out.write_all(&buffer)?;
            buffer.clear();
        }
        // next row-major index
        let mut dim = rank;
        loop {
            if dim == 0 {
                return out.write_all(&buffer);
            }
            dim -= 1;
            index[dim] += 1;
            element += strides[dim];
            if index[dim] < sizes[dim] {
                break;
            }
            element -= sizes[dim] * strides[dim];
            index[dim] = 0;
        }
    }
}

/// One initializer to stream: the TensorProto without its data (dims,
/// data_type, name; for external data also `external_data` and
/// `data_location`) and the bytes.
#[derive(Clone, Debug)]
pub struct Tensor<'a> {
    pub header: TensorProto,
    pub data: Data<'a>,
}

/// Where initializer bytes go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    /// `raw_data` inside the model.
    Inline,
    /// A separate file, named `location` relative to the model.
    External,
}

/// Offsets of external tensors are aligned to this many bytes (page size,
/// so that runtimes can map large tensors), or to [`SMALL_ALIGNMENT`] for
/// tensors under [`PAGE_ALIGN_THRESHOLD`].
pub const PAGE_ALIGNMENT: u64 = 4096;
pub const SMALL_ALIGNMENT: u64 = 64;
pub const PAGE_ALIGN_THRESHOLD: u64 = 1 << 20;

/// A model ready to stream.
pub struct Plan<'a> {
    /// ModelProto fields before `graph` (and no fields after it).
    head: Vec<u8>,
    /// GraphProto fields before `initializer` (nodes, name).
    graph_head: Vec<u8>,
    /// GraphProto fields after `initializer` (inputs, outputs, value_info, ...).
    graph_tail: Vec<u8>,
    /// Each initializer: serialized header and its data.
    tensors: Vec<(Vec<u8>, Data<'a>)>,
    placement: Placement,
    /// (offset, length) of each tensor in the external file.
    external: Vec<(u64, u64)>,
}

impl<'a> Plan<'a> {
    /// Prepares the streaming of `model` (whose graph has no initializers)
    /// with `tensors` as its initializers. For [`Placement::External`],
    /// `location` is the data file's name relative to the model.
    pub fn new(model: &ModelProto, tensors: Vec<Tensor<'a>>, placement: Placement, location: &str) -> Plan<'a> {
        let graph = model.graph.as_ref().cloned().unwrap_or_default();
        assert!(graph.initializer.is_empty(), "initializers are streamed, not part of the graph");
        assert!(
            model.metadata_props.is_empty() && model.training_info.is_empty() && model.functions.is_empty(),
            "fields after ModelProto.graph are not streamed"
        );
        let mut head_model = model.clone();
        head_model.graph = Default::default();
        let head = head_model.write_to_bytes().expect("serialize ModelProto");
        let graph_head = GraphProto { node: graph.node.clone(), name: graph.name.clone(), ..Default::default() }
            .write_to_bytes()
            .expect("serialize GraphProto");
        assert!(graph.sparse_initializer.is_empty());
        let graph_tail =
            GraphProto { node: vec![], name: String::new(), ..graph }.write_to_bytes().expect("serialize GraphProto");

        let mut external = Vec::new();
        let mut cursor = 0u64;
        let tensors = tensors
            .into_iter()
            .map(|Tensor { mut header, data }| {
                let len = data.len();
                if placement == Placement::External && len > 0 {
                    let align = if len >= PAGE_ALIGN_THRESHOLD { PAGE_ALIGNMENT } else { SMALL_ALIGNMENT };
                    let offset = cursor.div_ceil(align) * align;
                    cursor = offset + len;
                    external.push((offset, len));
                    header.data_location = DataLocation::EXTERNAL.into();
                    header.external_data = vec![
                        entry("location", location),
                        entry("offset", &offset.to_string()),
                        entry("length", &len.to_string()),
                    ];
                } else {
                    external.push((0, 0));
                }
                (header.write_to_bytes().expect("serialize TensorProto"), data)
            })
            .collect();
        Plan { head, graph_head, graph_tail, tensors, placement, external }
    }

    fn inline(&self, data: &Data<'_>) -> bool {
        self.placement == Placement::Inline && data.len() > 0
    }

    /// Size of one serialized TensorProto.
    fn tensor_size(&self, header: &[u8], data: &Data<'_>) -> u64 {
        let mut size = header.len() as u64;
        if self.inline(data) {
            size += 1 + varint_len(data.len()) + data.len();
        }
        size
    }

    /// Size of the serialized GraphProto.
    pub fn graph_size(&self) -> u64 {
        let mut size = (self.graph_head.len() + self.graph_tail.len()) as u64;
        for (header, data) in &self.tensors {
            let tensor = self.tensor_size(header, data);
            size += 1 + varint_len(tensor) + tensor;
        }
        size
    }

    /// Size of the serialized ModelProto.
    pub fn model_size(&self) -> u64 {
        let graph = self.graph_size();
        self.head.len() as u64 + 1 + varint_len(graph) + graph
    }

    /// Size of the external data file (0 when inline).
    pub fn external_size(&self) -> u64 {
        self.external.iter().map(|(offset, len)| offset + len).max().unwrap_or(0)
    }

    /// Writes the ModelProto; `written` is called with each tensor's data
    /// once it has been handed to `out`.
    pub fn write_model(&self, out: &mut dyn Write, written: &mut dyn FnMut(&Data<'a>)) -> io::Result<()> {
        out.write_all(&self.head)?;
        out.write_all(&[MODEL_GRAPH_TAG])?;
        write_varint(out, self.graph_size())?;
        out.write_all(&self.graph_head)?;
        for (header, data) in &self.tensors {
            out.write_all(&[GRAPH_INITIALIZER_TAG])?;
            write_varint(out, self.tensor_size(header, data))?;
            out.write_all(header)?;
            if self.inline(data) {
                out.write_all(&[TENSOR_RAW_DATA_TAG])?;
                write_varint(out, data.len())?;
                write_data(out, data, written)?;
            }
        }
        out.write_all(&self.graph_tail)
    }

    /// Writes the external data file (tensors at their aligned offsets,
    /// zero padding between them); `written` as for [`Plan::write_model`].
    pub fn write_external(&self, out: &mut dyn Write, written: &mut dyn FnMut(&Data<'a>)) -> io::Result<()> {
        let mut cursor = 0u64;
        for ((_, data), &(offset, len)) in self.tensors.iter().zip(&self.external) {
            if len == 0 {
                continue;
            }
            out.write_all(&vec![0u8; (offset - cursor) as usize])?;
            write_data(out, data, written)?;
            cursor = offset + len;
        }
        Ok(())
    }
}

/// Writes `data`, calling `written` on each piece once it is handed to
/// `out` (contiguous data in pieces of [`PIECE`] bytes, so that the caller
/// can release the pages of a large tensor before the whole is written).
fn write_data<'a>(out: &mut dyn Write, data: &Data<'a>, written: &mut dyn FnMut(&Data<'a>)) -> io::Result<()> {
    match data {
        Data::Contiguous(bytes) => {
            for piece in bytes.chunks(PIECE) {
                out.write_all(piece)?;
                written(&Data::Contiguous(piece));
            }
        }
        Data::Strided { .. } | Data::Lazy(_) => {
            data.write_to(out)?;
            written(data);
        }
    }
    Ok(())
}

/// See [`write_data`].
const PIECE: usize = 4 << 20;

fn entry(key: &str, value: &str) -> StringStringEntryProto {
    StringStringEntryProto { key: key.to_string(), value: value.to_string(), ..Default::default() }
}

pub fn varint_len(mut value: u64) -> u64 {
    let mut len = 1;
    while value >= 0x80 {
        value >>= 7;
        len += 1;
    }
    len
}

fn write_varint(out: &mut dyn Write, mut value: u64) -> io::Result<()> {
    let mut bytes = [0u8; 10];
    let mut n = 0;
    loop {
        let byte = (value & 0x7f) as u8;
        value >>= 7;
        if value == 0 {
            bytes[n] = byte;
            n += 1;
            break;
        }
        bytes[n] = byte | 0x80;
        n += 1;
    }
    out.write_all(&bytes[..n])
}

#[cfg(test)]
mod tests {
    use super::*;
    use onnx_protobuf::{NodeProto, OperatorSetIdProto, ValueInfoProto};

    fn header(name: &str, dims: &[i64], data_type: i32) -> TensorProto {
        TensorProto { name: name.into(), dims: dims.to_vec(), data_type, ..Default::default() }
    }

    fn model(graph: GraphProto) -> ModelProto {
        ModelProto {
            ir_version: 11,
            opset_import: vec![OperatorSetIdProto { domain: String::new(), version: 23, ..Default::default() }],
            producer_name: "aten2onnx".into(),
            producer_version: "0.1.0".into(),
            graph: Some(graph).into(),
            ..Default::default()
        }
    }

    fn graph() -> GraphProto {
        GraphProto {
            node: vec![NodeProto {
                op_type: "Add".into(),
                input: vec!["a".into(), "w".into()],
                output: vec!["y".into()],
                ..Default::default()
            }],
            name: "forward".into(),
            input: vec![ValueInfoProto { name: "a".into(), ..Default::default() }],
            output: vec![ValueInfoProto { name: "y".into(), ..Default::default() }],
            ..Default::default()
        }
    }

    #[test]
    fn varints() {
        for v in [0u64, 1, 127, 128, 300, 16383, 16384, u32::MAX as u64, u64::MAX] {
            let mut out = Vec::new();
            write_varint(&mut out, v).unwrap();
            assert_eq!(out.len() as u64, varint_len(v), "{v}");
            let mut expected = Vec::new();
            protobuf::CodedOutputStream::vec(&mut expected).write_raw_varint64(v).unwrap();
            assert_eq!(out, expected, "{v}");
        }
    }

    /// The streamed bytes equal rust-protobuf's serialization of the same
    /// ModelProto built in memory, for contiguous, strided, empty and large
    /// (multi-byte length) tensors.
    #[test]
    fn streaming_matches_in_memory_serialization() {
        let contiguous: Vec<u8> = (0..24u8).collect();
        // a 2x3 float32 view with strides [1, 2] of a 6-element storage (a transpose)
        let storage: Vec<u8> = (0..6u32).flat_map(|v| (v as f32).to_le_bytes()).collect();
        let transposed: Vec<u8> = [0u32, 2, 4, 1, 3, 5].iter().flat_map(|&v| (v as f32).to_le_bytes()).collect();
        let big: Vec<u8> = (0..70_000u32).map(|v| (v % 251) as u8).collect();
        let tensors = || {
            vec![
                Tensor { header: header("w", &[2, 3], 1), data: Data::Contiguous(&contiguous) },
                Tensor {
                    header: header("t", &[2, 3], 1),
                    data: Data::Strided {
                        storage: &storage,
                        element_size: 4,
                        sizes: vec![2, 3],
                        strides: vec![1, 2],
                        offset: 0,
                    },
                },
                Tensor { header: header("empty", &[0, 4], 1), data: Data::Contiguous(&[]) },
                Tensor { header: header("big", &[70_000], 2), data: Data::Contiguous(&big) },
            ]
        };
        let plan = Plan::new(&model(graph()), tensors(), Placement::Inline, "");
        let mut streamed = Vec::new();
        plan.write_model(&mut streamed, &mut |_| {}).unwrap();
        assert_eq!(streamed.len() as u64, plan.model_size());

        let mut full = graph();
        for (name, dims, data_type, raw) in [
            ("w", vec![2, 3], 1, contiguous.clone()),
            ("t", vec![2, 3], 1, transposed.clone()),
            ("empty", vec![0, 4], 1, vec![]),
            ("big", vec![70_000], 2, big.clone()),
        ] {
            full.initializer.push(TensorProto { raw_data: raw, ..header(name, &dims, data_type) });
        }
        let expected = model(full).write_to_bytes().unwrap();
        assert_eq!(streamed, expected);

        // External data: the model equals the in-memory model with external
        // entries, and the data file holds each tensor at its offset.
        let plan = Plan::new(&model(graph()), tensors(), Placement::External, "m.onnx.data");
        let mut streamed = Vec::new();
        plan.write_model(&mut streamed, &mut |_| {}).unwrap();
        let parsed = ModelProto::parse_from_bytes(&streamed).unwrap();
        assert_eq!(parsed.write_to_bytes().unwrap(), streamed);
        let mut data = Vec::new();
        plan.write_external(&mut data, &mut |_| {}).unwrap();
        assert_eq!(data.len() as u64, plan.external_size());
        let inits = &parsed.graph.initializer;
        assert_eq!(inits.len(), 4);
        for (tensor, raw) in inits.iter().zip([&contiguous, &transposed, &vec![], &big]) {
            assert!(tensor.raw_data.is_empty());
            if raw.is_empty() {
                assert!(tensor.external_data.is_empty());
                continue;
            }
            assert_eq!(tensor.data_location.enum_value(), Ok(DataLocation::EXTERNAL));
            let get = |k: &str| tensor.external_data.iter().find(|e| e.key == k).unwrap().value.clone();
            assert_eq!(get("location"), "m.onnx.data");
            let offset: usize = get("offset").parse().unwrap();
            let length: usize = get("length").parse().unwrap();
            assert_eq!(offset % SMALL_ALIGNMENT as usize, 0);
            assert_eq!(&data[offset..offset + length], raw.as_slice());
        }
    }

    #[test]
    fn strided_gather_orders() {
        // 2x3x2 int8 view with permuted strides of a 12-byte storage, offset 0
        let storage: Vec<u8> = (0..12).collect();
        let data = Data::Strided {
            storage: &storage,
            element_size: 1,
            sizes: vec![2, 3, 2],
            strides: vec![1, 4, 2],
            offset: 0,
        };
        let mut out = Vec::new();
        data.write_to(&mut out).unwrap();
        let mut expected = Vec::new();
        for i in 0..2 {
            for j in 0..3 {
                for k in 0..2 {
                    expected.push((i + 4 * j + 2 * k) as u8);
                }
            }
        }
        assert_eq!(out, expected);
        assert_eq!(data.len(), 12);
        // a scalar view at an offset
        let scalar = Data::Strided { storage: &storage, element_size: 4, sizes: vec![], strides: vec![], offset: 2 };
        let mut out = Vec::new();
        scalar.write_to(&mut out).unwrap();
        assert_eq!(out, vec![8, 9, 10, 11]);
    }
}
