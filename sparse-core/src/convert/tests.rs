//! Unit tests of the conversions (small, so Miri runs them).
