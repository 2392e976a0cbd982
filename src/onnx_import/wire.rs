//! A pass over the protobuf wire format of a memory-mapped ModelProto that
//! copies everything except the large `TensorProto.raw_data` fields.
//!
//! rust-protobuf decodes `bytes` fields into owned `Vec<u8>`s, which would
//! copy every weight of the model. So before decoding, the model's bytes are
//! rewritten: each `raw_data` field longer than [`INLINE_LIMIT`] bytes, in
//! any TensorProto the model can hold (graph and subgraph initializers,
//! sparse initializers, tensor attributes, function bodies), is replaced by
//! two private varint fields holding the byte offset and length of the data
//! inside the file ([`OFFSET_FIELD`], [`LENGTH_FIELD`]; rust-protobuf keeps
//! them as unknown fields). Enclosing messages get their new lengths. The
//! result holds the graph structure only and is decoded as usual; the
//! weights stay in the map and are referenced by (file, offset, length).

/// `raw_data` up to this many bytes stays inline (small constants the
/// optimizer wants to see).
pub const INLINE_LIMIT: usize = 1024;
/// Private field numbers (near the top of the 29-bit range, unused by onnx.proto).
pub const OFFSET_FIELD: u32 = 536_870_001;
pub const LENGTH_FIELD: u32 = 536_870_002;

/// The messages whose fields can lead to a TensorProto.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Model,
    Graph,
    Function,
    Node,
    Attribute,
    Tensor,
    Sparse,
    Training,
}

/// The message kind a length-delimited field of `kind` holds, when it can
/// contain tensors.
fn child(kind: Kind, field: u32) -> Option<Kind> {
    use Kind::*;
    Some(match (kind, field) {
        (Model, 7) => Graph,
        (Model, 20) => Training,
        (Model, 25) => Function,
        (Training, 1 | 2) => Graph,
        (Graph, 1) => Node,
        (Graph, 5) => Tensor,
        (Graph, 15) => Sparse,
        (Function, 7) => Node,
        (Function, 11) => Attribute,
        (Node, 5) => Attribute,
        (Attribute, 5 | 10) => Tensor,
        (Attribute, 6 | 11) => Graph,
        (Attribute, 22 | 23) => Sparse,
        (Sparse, 1 | 2) => Tensor,
        _ => return None,
    })
}

/// The model's bytes without its large `raw_data` fields (see the module
/// documentation). Errors describe what is wrong at which file offset.
pub fn strip(buf: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(buf.len().min(1 << 20));
    rewrite(buf, 0, buf.len(), Kind::Model, &mut out, 0)?;
    Ok(out)
}

fn read_varint(buf: &[u8], pos: &mut usize, end: usize) -> Result<u64, String> {
    let start = *pos;
    let mut value = 0u64;
    for shift in (0..64).step_by(7) {
        if *pos >= end {
            return Err(format!("truncated: a varint at byte {start} runs past the end of its message"));
        }
        let byte = buf[*pos];
        *pos += 1;
        value |= u64::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            return Ok(value);
        }
    }
    Err(format!("malformed varint at byte {start}"))
}

fn write_varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push((value as u8) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

fn rewrite(buf: &[u8], start: usize, end: usize, kind: Kind, out: &mut Vec<u8>, depth: usize) -> Result<(), String> {
    if depth > 100 {
        return Err(format!("messages nested more than 100 deep at byte {start}"));
    }
    let mut pos = start;
    while pos < end {
        let field_start = pos;
        let key = read_varint(buf, &mut pos, end)?;
        let field = key >> 3;
        if field == 0 || field > u64::from(u32::MAX >> 3) {
            return Err(format!("invalid field number {field} at byte {field_start}"));
        }
        let field = field as u32;
        match key & 7 {
            0 => {
                read_varint(buf, &mut pos, end)?;
            }
            1 | 5 => {
                let size = if key & 7 == 1 { 8 } else { 4 };
                if end - pos < size {
                    return Err(format!("truncated: a fixed-size field at byte {field_start} runs past the end"));
                }
                pos += size;
            }
            2 => {
                let len = read_varint(buf, &mut pos, end)?;
                let data_start = pos;
                if len > (end - pos) as u64 {
                    return Err(format!(
                        "truncated: field {field} at byte {field_start} declares {len} bytes, but only {} remain in its message",
                        end - pos
                    ));
                }
                let len = len as usize;
                pos += len;
                if kind == Kind::Tensor && field == 9 && len > INLINE_LIMIT {
                    write_varint(out, u64::from(OFFSET_FIELD) << 3);
                    write_varint(out, data_start as u64);
                    write_varint(out, u64::from(LENGTH_FIELD) << 3);
                    write_varint(out, len as u64);
                    continue;
                }
                if let Some(inner) = child(kind, field) {
                    let mut sub = Vec::new();
                    rewrite(buf, data_start, pos, inner, &mut sub, depth + 1)?;
                    write_varint(out, key);
                    write_varint(out, sub.len() as u64);
                    out.extend_from_slice(&sub);
                    continue;
                }
            }
            wire => return Err(format!("unsupported wire type {wire} (field {field}) at byte {field_start}")),
        }
        out.extend_from_slice(&buf[field_start..pos]);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use onnx_protobuf::{GraphProto, Message, ModelProto, TensorProto};

    #[test]
    fn large_raw_data_becomes_an_offset() {
        let big: Vec<u8> = (0..4000u32).map(|i| i as u8).collect();
        let model = ModelProto {
            ir_version: 8,
            graph: Some(GraphProto {
                name: "g".into(),
                initializer: vec![
                    TensorProto {
                        name: "w".into(),
                        dims: vec![1000],
                        data_type: 1,
                        raw_data: big.clone(),
                        ..Default::default()
                    },
                    TensorProto {
                        name: "s".into(),
                        dims: vec![2],
                        data_type: 1,
                        raw_data: vec![0; 8],
                        ..Default::default()
                    },
                ],
                ..Default::default()
            })
            .into(),
            ..Default::default()
        };
        let bytes = model.write_to_bytes().unwrap();
        let stripped = strip(&bytes).unwrap();
        assert!(stripped.len() < 200);
        let back = ModelProto::parse_from_bytes(&stripped).unwrap();
        let w = &back.graph.initializer[0];
        assert!(w.raw_data.is_empty());
        let unknown = w.special_fields.unknown_fields();
        let (Some(protobuf::UnknownValueRef::Varint(offset)), Some(protobuf::UnknownValueRef::Varint(length))) =
            (unknown.get(OFFSET_FIELD), unknown.get(LENGTH_FIELD))
        else {
            panic!("no offset fields")
        };
        assert_eq!(&bytes[offset as usize..(offset + length) as usize], &big[..]);
        assert_eq!(back.graph.initializer[1].raw_data, vec![0; 8]);
        // Cutting the file inside the graph is reported as truncation (never a panic).
        for cut in [bytes.len() / 2, bytes.len() - 1] {
            let err = strip(&bytes[..cut]).unwrap_err();
            assert!(err.contains("truncated"), "{err}");
        }
    }
}
