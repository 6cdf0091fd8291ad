// Pins the errors of a semiring operation's arguments: `reduce` without a
// combiner or with two, `identity = none`, two operands of `reduce`, an
// unnamed closure or a bare `identity` in `binary`/`unary`/`reduce`,
// `unary`, `select` and `reduce` without their operand, `select` without its
// predicate or with a named argument, a region that is a value, an `async`
// closure, a pattern as a closure parameter, and a named argument without
// its value.
sparse_core::sparse_kernel! {
    #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

    fn no_combiner(a: &tensor<?x?xf64, #CSR>, x: &mut tensor<?xf64>) {
        x[i] = reduce(a[i, j], identity = 1.0);
    }
    fn two_combiners(a: &tensor<?x?xf64, #CSR>, x: &mut tensor<?xf64>) {
        x[i] = reduce(a[i, j], identity = 1.0, |p, v| p * v, |p, v| p + v);
    }
    fn identity_none(a: &tensor<?x?xf64, #CSR>, x: &mut tensor<?xf64>) {
        x[i] = reduce(a[i, j], identity = none, |p, v| p * v);
    }
    fn reduce_two_operands(a: &tensor<?x?xf64, #CSR>, x: &mut tensor<?xf64>) {
        x[i] = reduce(a[i, j], a[i, j], identity = 1.0, |p, v| p * v);
    }
    fn bare_reduce_identity(a: &tensor<?x?xf64, #CSR>, x: &mut tensor<?xf64>) {
        x[i] = reduce(a[i, j], identity, |p, v| p * v);
    }
    fn unnamed_closure(a: &tensor<?xf64, #SV>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
        c[i] = binary(a[i], b[i], |x, y| x + y, left = identity, right = none);
    }
    fn bare_identity(a: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
        c[i] = unary(a[i], identity, absent = none);
    }
    fn no_operand(a: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
        c[i] = unary(present = identity, absent = none);
    }
    fn reduce_no_operand(a: &tensor<?x?xf64, #CSR>, x: &mut tensor<?xf64>) {
        x[i] = reduce(identity = 1.0, |p, v| p * v);
    }
    fn select_no_operand(a: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
        c[i] = select(|v| v > 1.0);
    }
    fn no_predicate(a: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
        c[i] = select(a[i]);
    }
    fn select_named(a: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
        c[i] = select(a[i], |v| v > 1.0, keep = none);
    }
    fn value_region(a: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
        c[i] = unary(a[i], present = 2.0, absent = none);
    }
    fn async_closure(a: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
        c[i] = unary(a[i], present = async |x| x, absent = none);
    }
    fn pattern_parameter(a: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
        c[i] = unary(a[i], present = |(x, y)| x, absent = none);
    }
    fn missing_value(a: &tensor<?xf64, #SV>, b: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) {
        c[i] = binary(a[i], b[i], overlap = , left = identity, right = none);
    }
}

fn main() {}
