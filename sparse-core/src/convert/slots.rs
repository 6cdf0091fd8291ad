//! The coordinate and value slots the fast conversion path (`fast.rs`)
//! scatters into: a buffer's own elements, or a `Vec`'s spare capacity,
//! which is written in place with no fill first.
//!
//! An `Owned` output's buffers are `Vec`s: appending `nnz` placeholder
//! elements before the scatter overwrites them is a `memset` of every
//! output byte, as much memory traffic again as the scatter's own stores
//! (a quarter of a CSR → CSC conversion's time on a banded matrix). Their
//! spare capacity (`Buffer::SLOTS_PAST_LEN`) is taken instead, and becomes
//! elements only once every slot was written.

use core::ptr::NonNull;

use crate::output::Buffer;

/// `len` slots of one output array, from `ptr`: the buffer's last `len`
/// elements (initialized), or `len` slots of its spare capacity past its
/// length (`spare`: uninitialized until written).
///
/// Invariant: `ptr` is valid for writes of `len` slots, and nothing else
/// reads or writes the buffer while the `Slots` is used.
pub(super) struct Slots<T> {
    ptr: NonNull<T>,
    len: usize,
    spare: bool,
}

impl<T> Slots<T> {
    /// Room for `n` more elements of `buf`: its spare capacity when it has
    /// slots past its length, otherwise `n` elements appended to be
    /// overwritten ([`Buffer::extend_unspecified`]). `None` when the room
    /// cannot be had (nothing changed then).
    // (Out of line off x86-64: a Cortex-M0's stack, `fast.rs`.)
    #[cfg_attr(not(target_arch = "x86_64"), inline(never))]
    pub(super) fn reserve<B: Buffer<T>>(buf: &mut B, n: usize, placeholder: T) -> Option<Self>
    where
        T: Clone,
    {
        if B::SLOTS_PAST_LEN {
            let ptr = buf.spare_slots(n)?;
            return Some(Slots {
                ptr,
                len: n,
                spare: true,
            });
        }
        if !buf.extend_unspecified(n, placeholder) {
            return None;
        }
        let all = buf.as_mut_slice();
        let tail = all.get_mut(all.len().checked_sub(n)?..)?;
        Some(Slots {
            ptr: NonNull::from(tail).cast(),
            len: n,
            spare: false,
        })
    }

    /// How many slots one 64-byte cache line holds (at least one): `q` plus
    /// this is a slot of the line after `q`'s.
    pub(super) const LINE: usize = match core::mem::size_of::<T>() {
        0 | 64.. => 1,
        size => 64 / size,
    };

    /// The number of slots.
    #[inline(always)]
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// Stores `x` in slot `q`: a write that does not drop what the slot
    /// held when it may be uninitialized (spare capacity), an assignment
    /// otherwise (the same thing for a type without drop glue, such as
    /// every number).
    ///
    /// # Safety
    ///
    /// `q < self.len()`.
    #[inline(always)]
    pub(super) unsafe fn put(&mut self, q: usize, x: T) {
        debug_assert!(q < self.len, "scatter write {q} of {}", self.len);
        // SAFETY: `q < len` (the caller's contract) and the invariant: the
        // slot is valid for writes; `write` never reads the old contents,
        // which spare capacity does not have, and an assignment drops an
        // initialized element.
        unsafe {
            let p = self.ptr.as_ptr().add(q);
            if self.spare || !core::mem::needs_drop::<T>() {
                p.write(x);
            } else {
                *p = x;
            }
        }
    }

    /// Asks for slot `q`'s cache line ahead of its write, on x86-64 (a
    /// hint; nothing elsewhere). Any `q` is allowed: the address is only
    /// computed (wrapping), never dereferenced, and a prefetch does not
    /// fault.
    #[inline(always)]
    pub(super) fn prefetch(&self, q: usize) {
        #[cfg(target_arch = "x86_64")]
        {
            use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let line = self.ptr.as_ptr().wrapping_add(q);
            // SAFETY: `_mm_prefetch` needs SSE, which every x86-64 has; it
            // reads no memory and does not fault on any address.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(line.cast::<i8>()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = q;
    }

    /// Makes the slots elements of `buf` once every one of them was
    /// written (for slots that already were elements, nothing to do).
    ///
    /// # Safety
    ///
    /// `self` came from [`reserve`](Self::reserve) on `buf`, `buf` was not
    /// used since, and every slot `0..len` was written with
    /// [`put`](Self::put).
    // (Out of line off x86-64: a Cortex-M0's stack, `fast.rs`.)
    #[cfg_attr(not(target_arch = "x86_64"), inline(never))]
    pub(super) unsafe fn commit<B: Buffer<T>>(self, buf: &mut B) {
        if self.spare {
            // SAFETY: `reserve` took the slots from `buf.spare_slots(len)`,
            // which was its last use, and all `len` were initialized
            // through that pointer (the caller's contract).
            unsafe { buf.commit_slots(self.len) };
        }
    }
}
