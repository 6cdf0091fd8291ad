sparse_core::sparse_kernel! {
    #BSR = #sparse_tensor.encoding<{
        map = { ib, jb, ii, jj }
              ( i = ib * 2 + ii,
                j = jb * 2 + jj) ->
        ( ib = i floordiv 2 : dense,
          jb = j floordiv 3 : compressed,
          ii = i mod 2 : dense,
          jj = j mod 3 : dense)
    }>
}

fn main() {}
