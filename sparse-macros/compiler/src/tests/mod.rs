//! Unit tests of the whole front end.
