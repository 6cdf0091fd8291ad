// Pins the errors of NumPy files the constants cannot read
// (`tests/data/ui/`, one mistake each, named by the file): the version,
// the shape, big-endian data, a dtype without its byte order, an object
// dtype, too little data, floats for an integer type, booleans for a float
// type.
sparse_core::sparse_kernel! {
    static VERSION: tensor<2xf32> = file("data/ui/version4.npy");
    static SHAPE: tensor<2xf32> = file("data/ui/shape-not-numbers.npy");
    static BIG_ENDIAN: tensor<2xf32> = file("data/ui/big-endian.npy");
    static NO_BYTE_ORDER: tensor<2xf32> = file("data/ui/no-byte-order.npy");
    static OBJECTS: tensor<2xf32> = file("data/ui/objects.npy");
    static SHORT: tensor<2xf32> = file("data/ui/short-data.npy");
    static FLOATS: tensor<2xi32> = file("data/ui/floats.npy");
    static BOOLS: tensor<2xf32> = file("data/ui/bools.npy");
}

fn main() {}
