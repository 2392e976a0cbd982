//! Opens a `.pt2` archive, resolves every weight's and constant's metadata
//! (without reading their bytes) and prints counts.
//!
//!     cargo run --release -p aten2onnx-pt2 --example open_archive -- PATH.pt2 [--touch]
//!
//! With `--touch` it also reads one byte per 4 KiB page of every weight
//! (to compare peak RSS against the untouched case). Use it under
//! `/usr/bin/time -v` to show that opening an archive does not load the weights.

use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: open_archive PATH.pt2 [--touch]");
        return ExitCode::from(2);
    };
    let touch = args.any(|a| a == "--touch");
    match run(&path, touch) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(path: &str, touch: bool) -> Result<(), aten2onnx_pt2::Error> {
    let archive = aten2onnx_pt2::Archive::open(path)?;
    let program = archive.program();
    let graph = program.graph();

    fn count_nodes(g: &aten2onnx_pt2::Graph) -> usize {
        g.nodes
            .iter()
            .map(|n| {
                1 + n
                    .inputs
                    .iter()
                    .map(|i| match &i.arg {
                        aten2onnx_pt2::Argument::AsGraph(sub) => count_nodes(&sub.graph),
                        _ => 0,
                    })
                    .sum::<usize>()
            })
            .sum()
    }

    let mut weight_bytes = 0u64;
    let mut storage_bytes = 0u64;
    let mut checksum = 0u64;
    let mut n_weights = 0usize;
    for kind in ["weight", "constant"] {
        let names: Vec<&str> =
            if kind == "weight" { archive.weight_names().collect() } else { archive.constant_names().collect() };
        for name in names {
            let t = if kind == "weight" { archive.weight(name) } else { archive.constant(name) };
            let t = match t {
                Ok(t) => t,
                Err(e @ aten2onnx_pt2::Error::PickledPayload { .. }) => {
                    eprintln!("skipping: {e}");
                    continue;
                }
                Err(e) => return Err(e),
            };
            n_weights += 1;
            weight_bytes += t.nbytes();
            storage_bytes += t.storage.len() as u64;
            if touch {
                for page in t.storage.chunks(4096) {
                    checksum = checksum.wrapping_add(page[0] as u64);
                }
            }
        }
    }

    println!("archive:        {}", archive.path().display());
    println!("file size:      {} bytes", archive.bytes().len());
    println!("entries:        {}", archive.entries().len());
    println!("schema:         {} (torch {})", program.schema_version, program.torch_version.as_deref().unwrap_or("?"));
    println!("verifiers:      {:?}", program.verifiers);
    println!("nodes:          {} top-level, {} including subgraphs", graph.nodes.len(), count_nodes(graph));
    println!(
        "signature:      {} inputs, {} outputs",
        program.signature().input_specs.len(),
        program.signature().output_specs.len()
    );
    println!(
        "tensors:        {} weights, {} constants resolved ({n_weights} total)",
        archive.weight_names().len(),
        archive.constant_names().len()
    );
    println!("tensor bytes:   {weight_bytes} (storage {storage_bytes})");
    if touch {
        println!("touched:        checksum {checksum}");
    }
    Ok(())
}
