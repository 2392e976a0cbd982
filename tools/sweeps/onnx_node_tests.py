#!/usr/bin/env python3
"""Runs the ONNX backend node tests through `aten-translate --to-onnx IN.onnx`.

For every node test of the onnx wheel (model.onnx + test_data_set_*/input_*.pb,
output_*.pb; written out once from `onnx.backend.test.loader.load_model_tests(
kind="node")` into --data, since the wheel ships them as Python code):

1. onnxruntime runs the model as shipped and its outputs are compared with
   the expected ones (rtol/atol of the test case, like onnx's backend runner);
2. `aten-translate --to-onnx model.onnx -o ours.onnx` imports it, runs the
   onnx part of the default pipeline (folding, CSE, DCE, shape inference,
   onnx-eqsat) and writes it back;
3. onnxruntime runs ours on the same inputs, compared with the expected
   outputs again.

Prints the counts: shipped-pass (ORT passes the original), round-trip pass,
round-trip fail (with reasons) and convert errors (with reasons). Exit code 1
when a case that passes as shipped fails after the round trip.

    .venv/bin/python tools/sweeps/onnx_node_tests.py [--only abs,conv] [--jobs 2] [--json out.json]

With `--opset 23`, models importing an older opset are converted with
`--opset 23` (upgraded on import, `src/onnx_import/upgrade.rs`): the same
counts then check the upgrade on every node test.
"""

from __future__ import annotations

import argparse
import collections
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import time

import numpy as np
import onnx
from onnx import numpy_helper

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_DATA = "/tmp/aten2onnx-node-tests/node"
DEFAULT_WORK = "/tmp/aten2onnx-node-tests/roundtrip"


def write_cases(data_dir: str) -> None:
    """Writes every node test case as files (what onnx's repository used to ship)."""
    import warnings

    from onnx.backend.test.loader import load_model_tests

    warnings.simplefilter("ignore")
    cases = load_model_tests(kind="node")
    os.makedirs(data_dir, exist_ok=True)
    for case in cases:
        out = os.path.join(data_dir, case.name)
        os.makedirs(out, exist_ok=True)
        with open(os.path.join(out, "model.onnx"), "wb") as f:
            f.write(case.model.SerializeToString())
        with open(os.path.join(out, "data.json"), "w") as f:
            json.dump({"rtol": case.rtol, "atol": case.atol}, f)
        for i, (inputs, outputs) in enumerate(case.data_sets):
            ds = os.path.join(out, f"test_data_set_{i}")
            os.makedirs(ds, exist_ok=True)
            for kind, values, infos in (("input", inputs, case.model.graph.input), ("output", outputs, case.model.graph.output)):
                for j, value in enumerate(values):
                    with open(os.path.join(ds, f"{kind}_{j}.pb"), "wb") as f:
                        f.write(to_proto(value, infos[j]).SerializeToString())


def to_proto(value, info):
    if info.type.HasField("sequence_type"):
        return numpy_helper.from_list(value, info.name)
    if info.type.HasField("optional_type"):
        return numpy_helper.from_optional(value, info.name)
    if info.type.HasField("map_type"):
        return numpy_helper.from_dict(value, info.name)
    if isinstance(value, onnx.TensorProto):
        return value
    return numpy_helper.from_array(value, info.name)


def read_value(path: str, info):
    data = open(path, "rb").read()
    if info.type.HasField("sequence_type"):
        p = onnx.SequenceProto()
        p.ParseFromString(data)
        return numpy_helper.to_list(p)
    if info.type.HasField("optional_type"):
        p = onnx.OptionalProto()
        p.ParseFromString(data)
        return numpy_helper.to_optional(p)
    p = onnx.TensorProto()
    p.ParseFromString(data)
    return numpy_helper.to_array(p)


def data_sets(case_dir: str, model):
    sets = []
    for name in sorted(os.listdir(case_dir)):
        ds = os.path.join(case_dir, name)
        if not name.startswith("test_data_set_"):
            continue
        inputs = []
        n_in = len([f for f in os.listdir(ds) if f.startswith("input_")])
        n_out = len([f for f in os.listdir(ds) if f.startswith("output_")])
        graph_inputs = [i for i in model.graph.input if i.name not in {t.name for t in model.graph.initializer}]
        infos = list(model.graph.input)
        for j in range(n_in):
            inputs.append(read_value(os.path.join(ds, f"input_{j}.pb"), infos[j]))
        outputs = [read_value(os.path.join(ds, f"output_{j}.pb"), model.graph.output[j]) for j in range(n_out)]
        names = [infos[j].name for j in range(n_in)]
        sets.append((names, inputs, outputs))
        del graph_inputs
    return sets


def run_ort(path: str, names, inputs):
    import onnxruntime as ort

    ort.set_default_logger_severity(4)
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    opts.inter_op_num_threads = 1
    opts.log_severity_level = 4
    sess = ort.InferenceSession(path, opts, providers=["CPUExecutionProvider"])
    feed = {}
    session_inputs = [i.name for i in sess.get_inputs()]
    for name, value in zip(names, inputs):
        if name in session_inputs:
            feed[name] = value
    return sess.run(None, feed)


def compare(expected, actual, rtol, atol) -> str | None:
    """None when equal (onnx backend runner's rules), else why not."""
    if len(expected) != len(actual):
        return f"{len(actual)} outputs, expected {len(expected)}"
    for i, (e, a) in enumerate(zip(expected, actual)):
        if isinstance(e, list):
            if not isinstance(a, list) or len(a) != len(e):
                return f"output {i}: sequence mismatch"
            why = compare(e, a, rtol, atol)
            if why:
                return f"output {i}: {why}"
            continue
        if e is None:
            if a is not None:
                return f"output {i}: expected an empty optional"
            continue
        e = np.asarray(e)
        a = np.asarray(a)
        if e.dtype != a.dtype and not (e.dtype == object or a.dtype == object):
            return f"output {i}: dtype {a.dtype}, expected {e.dtype}"
        if e.shape != a.shape:
            return f"output {i}: shape {a.shape}, expected {e.shape}"
        if e.dtype == object or e.dtype.kind in "SUb":
            if not np.array_equal(e, a):
                return f"output {i}: values differ"
            continue
        try:
            np.testing.assert_allclose(a.astype(np.float64) if a.dtype.kind == "c" else a, e, rtol=rtol, atol=atol)
        except AssertionError as err:
            lines = [l for l in str(err).splitlines() if "Max absolute" in l or "Mismatched" in l]
            return f"output {i}: values differ ({'; '.join(l.strip() for l in lines)})"
        except (TypeError, ValueError) as err:
            if not np.array_equal(e.view(np.uint8), a.view(np.uint8)):
                return f"output {i}: values differ ({err})"
    return None


def check(path: str, sets, rtol, atol) -> str | None:
    for names, inputs, outputs in sets:
        try:
            got = run_ort(path, names, inputs)
        except Exception as err:  # noqa: BLE001 - onnxruntime raises many kinds
            return "ort-error: " + str(err).strip().splitlines()[0][:300]
        why = compare(outputs, got, rtol, atol)
        if why:
            return "wrong: " + why
    return None


def reason_key(message: str) -> str:
    """A message without node/value names, for grouping."""
    m = re.sub(r"`[^`]*`", "`_`", message)
    m = re.sub(r"\[node [^\]]*\]", "[node _]", m)
    m = re.sub(r"/tmp/[^\s:]*", "<path>", m)
    m = re.sub(r"\d+", "N", m)
    return m[:200]


def run_case(case_dir: str, work: str, binary: str, opset: int | None = None) -> dict:
    name = os.path.basename(case_dir)
    result = {"name": name}
    model_path = os.path.join(case_dir, "model.onnx")
    try:
        model = onnx.load(model_path)
        sets = data_sets(case_dir, model)
    except Exception as err:  # noqa: BLE001
        result["shipped"] = "load-error: " + str(err)[:200]
        return result
    tol = {"rtol": 1e-3, "atol": 1e-7}
    data_json = os.path.join(case_dir, "data.json")
    if os.path.exists(data_json):
        tol.update(json.load(open(data_json)))
    shipped = check(model_path, sets, tol["rtol"], tol["atol"])
    result["shipped"] = shipped or "pass"
    ours = os.path.join(work, name + ".onnx")
    for stale in (ours, ours + ".data"):
        if os.path.exists(stale):
            os.remove(stale)
    start = time.time()
    argv = [binary, "--to-onnx", model_path, "-o", ours, "-q"]
    if opset is not None:
        declared = next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), None)
        if declared is not None and declared < opset:
            argv += ["--opset", str(opset)]
            result["upgraded_from"] = declared
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        result["convert"] = "timeout (120 s)"
        return result
    result["convert_s"] = round(time.time() - start, 3)
    if proc.returncode != 0:
        lines = [l for l in proc.stderr.strip().splitlines() if l.strip()]
        detail = next((l for l in lines[1:] if "error" in l), lines[1] if len(lines) > 1 else "")
        result["convert"] = (lines[0] if lines else f"exit {proc.returncode}") + (" | " + detail.strip() if detail else "")
        result["exit"] = proc.returncode
        return result
    result["convert"] = "ok"
    rt = check(ours, sets, tol["rtol"], tol["atol"])
    result["roundtrip"] = rt or "pass"
    return result


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=DEFAULT_DATA, help="node test cases (written here on first use)")
    ap.add_argument("--work", default=DEFAULT_WORK, help="where the round-tripped models go")
    ap.add_argument("--bin", default=os.path.join(REPO, "target", "debug", "aten-translate"))
    ap.add_argument("--only", help="comma-separated substrings of case names")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--json", help="write every case's result here")
    ap.add_argument("--opset", type=int, help="upgrade models below this opset with `--opset N` (onnx_import::upgrade)")
    ap.add_argument("--progress", action="store_true", help="print each case as it finishes")
    ap.add_argument("--verbose", "-v", action="store_true", help="print every failing case")
    args = ap.parse_args()

    if not os.path.isdir(args.data) or not os.listdir(args.data):
        print(f"writing the node test cases to {args.data} ...", file=sys.stderr)
        write_cases(args.data)
    os.makedirs(args.work, exist_ok=True)
    cases = sorted(d for d in os.listdir(args.data) if os.path.isfile(os.path.join(args.data, d, "model.onnx")))
    if args.only:
        keys = args.only.split(",")
        cases = [c for c in cases if any(k in c for k in keys)]
    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(run_case, os.path.join(args.data, c), args.work, args.bin, args.opset) for c in cases]
        for f in futures:
            r = f.result()
            results.append(r)
            if args.progress:
                status = r.get("roundtrip") or r.get("convert") or ""
                print(f"{r['name']}: shipped={r['shipped'][:80]} ours={status[:300]}", flush=True)

    shipped_pass = [r for r in results if r["shipped"] == "pass"]
    rt_pass = [r for r in shipped_pass if r.get("roundtrip") == "pass"]
    rt_fail = [r for r in shipped_pass if r.get("convert") == "ok" and r.get("roundtrip") != "pass"]
    conv_err = [r for r in shipped_pass if r.get("convert") != "ok"]
    crashes = [r for r in results if r.get("exit") not in (None, 1)]
    other_pass = [r for r in results if r["shipped"] != "pass" and r.get("roundtrip") == "pass"]

    print(f"node tests: {len(results)}" + (f" (models below opset {args.opset} upgraded to it)" if args.opset else ""))
    print(f"shipped-pass (onnxruntime passes the original): {len(shipped_pass)}")
    print(f"  round-trip pass:  {len(rt_pass)}")
    print(f"  round-trip fail:  {len(rt_fail)}")
    print(f"  convert error:    {len(conv_err)}")
    print(f"shipped-fail: {len(results) - len(shipped_pass)} (of which ours passes: {len(other_pass)})")
    print(f"exits other than 0/1 (crashes): {len(crashes)}")

    def show(title, items, field):
        if not items:
            return
        print(f"\n{title}:")
        groups = collections.defaultdict(list)
        for r in items:
            groups[reason_key(r.get(field, ""))].append(r)
        for key, rs in sorted(groups.items(), key=lambda kv: -len(kv[1])):
            names = ", ".join(r["name"] for r in rs[:6]) + (" ..." if len(rs) > 6 else "")
            print(f"  {len(rs):4d}  {rs[0].get(field, '')[:220]}\n        [{names}]")

    show("round-trip failures (shipped-pass cases)", rt_fail, "roundtrip")
    show("convert errors (shipped-pass cases)", conv_err, "convert")
    if crashes:
        show("crashes", crashes, "convert")
    if args.verbose:
        for r in results:
            print(json.dumps(r))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    return 1 if (rt_fail or conv_err or crashes) else 0


if __name__ == "__main__":
    sys.exit(main())
