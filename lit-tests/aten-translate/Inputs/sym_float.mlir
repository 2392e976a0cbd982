// Symbolic float arithmetic on a size (tensor x: [n, 4]); each result is
// the length of an arange, so onnxruntime's output shapes show the ints
// (checked by check_sym_float.py against Python's arithmetic).
module attributes {aten.range_constraints = {s0 = array<i64: 2, 9223372036854775807>}} {
  func.func @forward(%arg0: tensor<?x4xf32, ["s0"]> {aten.name = "x"}) -> (tensor<?xi64> {aten.kind = "user_output", aten.name = "ceil_div3"}, tensor<?xi64> {aten.kind = "user_output", aten.name = "floor_div3"}, tensor<?xi64> {aten.kind = "user_output", aten.name = "trunc_neg"}, tensor<?xi64> {aten.kind = "user_output", aten.name = "int_sqrt"}, tensor<?xi64> {aten.kind = "user_output", aten.name = "floor_max"}, tensor<?xi64> {aten.kind = "user_output", aten.name = "floordiv"}, tensor<?xi64> {aten.kind = "user_output", aten.name = "lt_bool"}, tensor<?xi64> {aten.kind = "user_output", aten.name = "floordiv_tenth"}, tensor<?xi64> {aten.kind = "user_output", aten.name = "mod_quarters"}) {
    %n = "aten.sym_size.int"(%arg0) {dim = 0 : i64} : (tensor<?x4xf32, ["s0"]>) -> i64
    %c3 = "aten.sym.constant"() {value = 3.000000e+00 : f64} : () -> f64
    %q = "aten.sym.truediv"(%n, %c3) : (i64, f64) -> f64
    %a = "aten.sym.ceil"(%q) : (f64) -> i64
    %b = "aten.sym.floor"(%q) : (f64) -> i64
    // n - 1 + trunc(0.5 - n/3): truncation toward zero of a negative float.
    %half = "aten.sym.constant"() {value = 5.000000e-01 : f64} : () -> f64
    %d = "aten.sym.sub"(%half, %q) : (f64, f64) -> f64
    %t = "aten.sym.trunc"(%d) : (f64) -> i64
    %k = "aten.sym.add"(%n, %t) : (i64, i64) -> i64
    %s = "aten.sym.sqrt"(%n) : (i64) -> f64
    %i = "aten.sym.int"(%s) : (f64) -> i64
    %c15 = "aten.sym.constant"() {value = 1.500000e+00 : f64} : () -> f64
    %m = "aten.sym.max"(%q, %c15) : (f64, f64) -> f64
    %mf = "aten.sym.floor"(%m) : (f64) -> i64
    %c075 = "aten.sym.constant"() {value = 7.500000e-01 : f64} : () -> f64
    %fd = "aten.sym.floordiv"(%q, %c075) : (f64, f64) -> f64
    %fdi = "aten.sym.int"(%fd) : (f64) -> i64
    %c25 = "aten.sym.constant"() {value = 2.500000e+00 : f64} : () -> f64
    %lt = "aten.sym.lt"(%q, %c25) : (f64, f64) -> i1
    %lti = "aten.sym.int"(%lt) : (i1) -> i64
    // Python's n // 0.1 (1 // 0.1 is 9.0, not floor(1 / 0.1) = 10).
    %c01 = "aten.sym.constant"() {value = 1.000000e-01 : f64} : () -> f64
    %nf = "aten.sym.float"(%n) : (i64) -> f64
    %ft = "aten.sym.floordiv"(%nf, %c01) : (f64, f64) -> f64
    %fti = "aten.sym.int"(%ft) : (f64) -> i64
    // trunc((n % -0.75) * -4): the remainder takes the divisor's sign.
    %cm = "aten.sym.constant"() {value = -7.500000e-01 : f64} : () -> f64
    %md = "aten.sym.mod"(%n, %cm) : (i64, f64) -> f64
    %c4 = "aten.sym.constant"() {value = -4.000000e+00 : f64} : () -> f64
    %mq = "aten.sym.mul"(%md, %c4) : (f64, f64) -> f64
    %mqi = "aten.sym.trunc"(%mq) : (f64) -> i64
    %r0 = "aten.arange.default"(%a) {device = "cpu", pin_memory = false} : (i64) -> tensor<?xi64>
    %r1 = "aten.arange.default"(%b) {device = "cpu", pin_memory = false} : (i64) -> tensor<?xi64>
    %r2 = "aten.arange.default"(%k) {device = "cpu", pin_memory = false} : (i64) -> tensor<?xi64>
    %r3 = "aten.arange.default"(%i) {device = "cpu", pin_memory = false} : (i64) -> tensor<?xi64>
    %r4 = "aten.arange.default"(%mf) {device = "cpu", pin_memory = false} : (i64) -> tensor<?xi64>
    %r5 = "aten.arange.default"(%fdi) {device = "cpu", pin_memory = false} : (i64) -> tensor<?xi64>
    %r6 = "aten.arange.default"(%lti) {device = "cpu", pin_memory = false} : (i64) -> tensor<?xi64>
    %r7 = "aten.arange.default"(%fti) {device = "cpu", pin_memory = false} : (i64) -> tensor<?xi64>
    %r8 = "aten.arange.default"(%mqi) {device = "cpu", pin_memory = false} : (i64) -> tensor<?xi64>
    return %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8 : tensor<?xi64>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>
  }
}
