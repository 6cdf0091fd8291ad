//! The values of a [`Sell`](super::Sell) matrix in a buffer whose first
//! slot starts on a 64-byte cache line. Every slice is a whole number of
//! steps of 8 values (64 bytes of `f64`, 32 of `f32`), so no step's vector
//! load of values then crosses a line. An allocator returns large buffers
//! 16 bytes past a page boundary, where every 64-byte load of `f64` values
//! would split across two lines: aligned, the small bench matrix's SELL
//! SpMV took 8% less time (bench/desktop `spmv-simd`, the Xeon).

use alloc::vec::Vec;

use super::{filled, SellError, SellValue};

/// The alignment of the first slot, in bytes.
const ALIGN: usize = 64;

/// A buffer of values, the first `lead` of which only align the rest.
#[derive(Debug)]
pub(super) struct Values<V> {
    buf: Vec<V>,
    lead: usize,
}

/// Elements to hold beyond the values, to be able to skip to an aligned
/// one.
fn extra<V>() -> usize {
    ALIGN / size_of::<V>().max(1)
}

/// Where the first aligned element of an allocation at `at` is, at most
/// `extra` in (an allocation whose address cannot be aligned within that,
/// which a real one always can, starts at 0 and is merely unaligned).
fn lead_of<V>(at: *const V) -> usize {
    at.align_offset(ALIGN).min(extra::<V>())
}

impl<V: SellValue> Values<V> {
    /// `n` zeros, the first aligned; [`SellError::Alloc`] when the
    /// allocator refuses.
    pub(super) fn zeros(n: usize) -> Result<Self, SellError> {
        let total = n.checked_add(extra::<V>()).ok_or(SellError::TooLarge)?;
        let mut buf = filled(total, V::ZERO)?;
        let lead = lead_of(buf.as_ptr());
        // The `n` values from `lead` on, no more (the allocation stays).
        buf.truncate(lead + n);
        Ok(Values { buf, lead })
    }

    /// The values, to fill.
    pub(super) fn as_mut_slice(&mut self) -> &mut [V] {
        self.buf.get_mut(self.lead..).unwrap_or(&mut [])
    }
}

impl<V> Values<V> {
    /// The values.
    pub(super) fn as_slice(&self) -> &[V] {
        self.buf.get(self.lead..).unwrap_or(&[])
    }
}

impl<V: Clone> Clone for Values<V> {
    /// The same values in a new buffer, aligned in its turn (a copy of the
    /// old buffer would keep the old lead, aligned only by chance). The
    /// lead repeats the first value: it is never read.
    fn clone(&self) -> Self {
        let values = self.as_slice();
        let mut buf = Vec::with_capacity(values.len() + extra::<V>());
        let lead = match values.first() {
            Some(first) => {
                let lead = lead_of(buf.as_ptr());
                buf.resize(lead, first.clone());
                lead
            }
            None => 0,
        };
        buf.extend_from_slice(values);
        Values { buf, lead }
    }
}

impl<V: PartialEq> PartialEq for Values<V> {
    /// Equal values, wherever each buffer starts them.
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}
