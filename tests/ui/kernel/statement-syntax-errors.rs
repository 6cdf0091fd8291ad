// Pins the statement parser's errors, one broken statement each (the
// parser reports every statement and keeps going): a statement that does
// not start with its output, a missing right-hand side, a cast without a
// type or to a path, a missing operand, two operands without an operator,
// `!` between two operands, a comma, an assignment inside an expression, `-`/`!`
// without operand, references, a stray punctuation, indexing or calling a
// non-tensor, an empty `( )`, an array, a path, a string literal, an empty
// argument, and the index lists (empty, constant, expression).
sparse_core::sparse_kernel! {
    fn stmts(x: &tensor<?xf64>, y: &mut tensor<?xf64>, s: &mut tensor<f64>) {
        *y[i] = x[i];
        y[i] = ;
        y[i] = x[i] as ;
        y[i] = x[i] as std::primitive::f64;
        y[i] = x[i] + ;
        y[i] = x[i] x[i];
        y[i] = x[i] {2.0};
        y[i] = x[i] ! x[i];
        y[i] = x[i], x[i];
        y[i] = x[i] += 1.0;
        y[i] = - ;
        y[i] = ! ;
        y[i] = &x[i];
        y[i] = x[i] * @;
        y[i] = x[i][i];
        y[i] = x[i](2.0);
        y[i] = ();
        y[i] = [x[i]];
        y[i] = f64::sqrt(x[i]);
        y[i] = "2.0";
        y[i] = max(x[i], , 1.0);
        s[] = x[, i];
        y[i] = x[0];
        y[i] = x[i + ];
    }
}

fn main() {}
