//! Growable buffers with a fixed or unbounded capacity, and the three
//! families an output chooses its buffers from.

use core::marker::PhantomData;

/// A growable buffer with a fixed or unbounded capacity: what a
/// [`SparseTensorOut`](crate::SparseTensorOut) stores each of its arrays in.
///
/// `push` never reallocates a fixed buffer: when it is full it hands the
/// value back and changes nothing, which is how an output notices that it
/// needs more room (see the capacity rules in [`crate::output`]).
pub trait Buffer<T> {
    /// The elements pushed so far.
    fn as_slice(&self) -> &[T];
    /// The elements pushed so far, mutably.
    fn as_mut_slice(&mut self) -> &mut [T];
    /// The number of elements pushed so far.
    fn len(&self) -> usize;
    /// Whether nothing has been pushed.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// How many elements fit; `usize::MAX` when unbounded (`Vec`).
    fn capacity(&self) -> usize;
    /// Forgets every element, keeping the memory.
    fn clear(&mut self);
    /// Forgets the elements from `len` on (nothing if `len >= self.len()`),
    /// keeping the memory.
    fn truncate(&mut self, len: usize);
    /// Appends `value`, or returns it when the buffer is full (then nothing
    /// changed).
    fn push(&mut self, value: T) -> Result<(), T>;
    /// Makes room for `additional` more elements where the buffer can grow
    /// (a `Vec`); fixed buffers ignore it. A hint: pushes stay checked.
    #[inline]
    fn reserve(&mut self, additional: usize) {
        let _ = additional;
    }
    /// Whether `additional` more elements fit: a fixed buffer has the room
    /// or not; a `Vec` asks for it at once (`try_reserve`), so a block
    /// too large to allocate is refused in one request instead of being
    /// grown into by one push at a time. Nothing is appended.
    #[inline]
    fn make_room(&mut self, additional: usize) -> bool {
        self.capacity().saturating_sub(self.len()) >= additional
    }
    /// Appends `n` clones of `value` if all of them fit (`true`); otherwise
    /// changes nothing (`false`). The provided version pushes one at a
    /// time; the buffers of this crate fill in bulk.
    fn extend_fill(&mut self, n: usize, value: T) -> bool
    where
        T: Clone,
    {
        if self.capacity().saturating_sub(self.len()) < n {
            return false;
        }
        (0..n).all(|_| self.push(value.clone()).is_ok())
    }
    /// Appends `n` elements if all of them fit (`true`; otherwise nothing
    /// changes, `false`), for a caller that overwrites every one of them:
    /// clones of `value`, or, in a buffer over memory that already holds
    /// valid elements past its length ([`SliceBuffer`]), those elements
    /// as they are (no writes).
    fn extend_unspecified(&mut self, n: usize, value: T) -> bool
    where
        T: Clone,
    {
        self.extend_fill(n, value)
    }
    /// Appends clones of `src` if all of them fit (`true`); otherwise
    /// changes nothing (`false`). The provided version pushes one at a
    /// time; the buffers of this crate copy in bulk.
    fn extend_from_slice(&mut self, src: &[T]) -> bool
    where
        T: Clone,
    {
        if self.capacity().saturating_sub(self.len()) < src.len() {
            return false;
        }
        src.iter().all(|x| self.push(x.clone()).is_ok())
    }
    /// Appends the items of `items` if all of them fit (`true`; its
    /// `len()` is the room asked for); otherwise changes nothing and takes
    /// none of them (`false`). One room check for all of them: the
    /// provided version then pushes, the buffers of this crate write in
    /// place (a `Vec` with no per-element capacity test), with no fill of
    /// the room first.
    fn extend_exact<I: ExactSizeIterator<Item = T>>(&mut self, items: I) -> bool {
        if self.capacity().saturating_sub(self.len()) < items.len() {
            return false;
        }
        for x in items {
            if self.push(x).is_err() {
                return false;
            }
        }
        true
    }
    /// Whether [`spare_slots`](Self::spare_slots) gives room past the
    /// length (a `Vec`: its spare capacity, written in place and never
    /// filled first). `false` for the provided version: a writer of slots
    /// appends them with `extend_unspecified` instead.
    const SLOTS_PAST_LEN: bool = false;
    /// With [`SLOTS_PAST_LEN`](Self::SLOTS_PAST_LEN): makes room for `n`
    /// more elements and points at the first slot past the length (the
    /// slots stay uninitialized and outside the length until
    /// [`commit_slots`](Self::commit_slots)); `None` when the room cannot
    /// be had. The provided version has none.
    fn spare_slots(&mut self, n: usize) -> Option<core::ptr::NonNull<T>> {
        let _ = n;
        None
    }
    /// With [`SLOTS_PAST_LEN`](Self::SLOTS_PAST_LEN): as
    /// [`spare_slots`](Self::spare_slots)`(at_least)`, and how many slots
    /// past the length there are in all (at least `at_least`): the whole
    /// spare capacity, for a writer that fills the slots of many rows one
    /// after the other. The provided version has none.
    fn spare_run(&mut self, at_least: usize) -> Option<(core::ptr::NonNull<T>, usize)> {
        let _ = at_least;
        None
    }
    /// Makes the first `written` slots past the length elements.
    ///
    /// # Safety
    ///
    /// The last call of [`spare_slots`](Self::spare_slots) or
    /// [`spare_run`](Self::spare_run) returned a pointer to at least
    /// `written` slots, the buffer was not used since, and those slots were
    /// initialized through that pointer.
    unsafe fn commit_slots(&mut self, written: usize) {
        let _ = written;
    }
    /// [`extend_unspecified`](Self::extend_unspecified) for element types
    /// that are `Default` but not `Clone` (an output's values): appends `n`
    /// elements if all of them fit (`true`; otherwise nothing changes,
    /// `false`), for a caller that overwrites every one of them —
    /// `T::default()`s, or a [`SliceBuffer`]'s elements past its length as
    /// they are. The provided version pushes one at a time.
    fn extend_unspecified_default(&mut self, n: usize) -> bool
    where
        T: Default,
    {
        if self.capacity().saturating_sub(self.len()) < n {
            return false;
        }
        (0..n).all(|_| self.push(T::default()).is_ok())
    }
}

/// A [`Buffer`] over a caller's `&mut [T]`: the slice is the capacity, the
/// buffer starts empty. Elements past the length keep whatever they held.
#[derive(Debug)]
pub struct SliceBuffer<'a, T> {
    data: &'a mut [T],
    // Invariant: `len <= data.len()`.
    len: usize,
}

impl<'a, T> SliceBuffer<'a, T> {
    /// An empty buffer whose capacity is `data.len()`.
    pub fn new(data: &'a mut [T]) -> Self {
        SliceBuffer { data, len: 0 }
    }
}

impl<T> Default for SliceBuffer<'_, T> {
    /// A buffer of capacity 0: for levels that store no such array.
    fn default() -> Self {
        SliceBuffer {
            data: &mut [],
            len: 0,
        }
    }
}

impl<T> Buffer<T> for SliceBuffer<'_, T> {
    #[inline]
    fn as_slice(&self) -> &[T] {
        self.data.get(..self.len).unwrap_or_default()
    }
    #[inline]
    fn as_mut_slice(&mut self) -> &mut [T] {
        self.data.get_mut(..self.len).unwrap_or_default()
    }
    #[inline]
    fn len(&self) -> usize {
        self.len
    }
    #[inline]
    fn capacity(&self) -> usize {
        self.data.len()
    }
    #[inline]
    fn clear(&mut self) {
        self.len = 0;
    }
    #[inline]
    fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }
    #[inline]
    fn push(&mut self, value: T) -> Result<(), T> {
        match self.data.get_mut(self.len) {
            Some(slot) => {
                *slot = value;
                self.len += 1;
                Ok(())
            }
            None => Err(value),
        }
    }
    #[inline]
    fn extend_fill(&mut self, n: usize, value: T) -> bool
    where
        T: Clone,
    {
        let Some(end) = self.len.checked_add(n) else {
            return false;
        };
        match self.data.get_mut(self.len..end) {
            Some(room) => {
                room.fill(value);
                self.len = end;
                true
            }
            None => false,
        }
    }
    #[inline]
    fn extend_unspecified(&mut self, n: usize, _value: T) -> bool
    where
        T: Clone,
    {
        match self.len.checked_add(n) {
            Some(end) if end <= self.data.len() => {
                self.len = end;
                true
            }
            _ => false,
        }
    }
    #[inline]
    fn extend_unspecified_default(&mut self, n: usize) -> bool
    where
        T: Default,
    {
        match self.len.checked_add(n) {
            Some(end) if end <= self.data.len() => {
                self.len = end;
                true
            }
            _ => false,
        }
    }
    #[inline]
    fn extend_from_slice(&mut self, src: &[T]) -> bool
    where
        T: Clone,
    {
        let Some(end) = self.len.checked_add(src.len()) else {
            return false;
        };
        match self.data.get_mut(self.len..end) {
            Some(room) => {
                room.clone_from_slice(src);
                self.len = end;
                true
            }
            None => false,
        }
    }
    #[inline]
    fn extend_exact<I: ExactSizeIterator<Item = T>>(&mut self, items: I) -> bool {
        let Some(end) = self.len.checked_add(items.len()) else {
            return false;
        };
        match self.data.get_mut(self.len..end) {
            Some(room) => {
                for (slot, x) in room.iter_mut().zip(items) {
                    *slot = x;
                }
                self.len = end;
                true
            }
            None => false,
        }
    }
}

#[cfg(feature = "heapless")]
impl<T, const N: usize> Buffer<T> for heapless::Vec<T, N> {
    #[inline]
    fn as_slice(&self) -> &[T] {
        heapless::Vec::as_slice(self)
    }
    #[inline]
    fn as_mut_slice(&mut self) -> &mut [T] {
        heapless::Vec::as_mut_slice(self)
    }
    #[inline]
    fn len(&self) -> usize {
        self.as_slice().len()
    }
    #[inline]
    fn capacity(&self) -> usize {
        N
    }
    #[inline]
    fn clear(&mut self) {
        heapless::Vec::clear(self)
    }
    #[inline]
    fn truncate(&mut self, len: usize) {
        heapless::Vec::truncate(self, len)
    }
    #[inline]
    fn push(&mut self, value: T) -> Result<(), T> {
        heapless::Vec::push(self, value)
    }
    #[inline]
    fn extend_fill(&mut self, n: usize, value: T) -> bool
    where
        T: Clone,
    {
        match self.len().checked_add(n) {
            Some(end) => self.resize(end, value).is_ok(),
            None => false,
        }
    }
    #[inline]
    fn extend_from_slice(&mut self, src: &[T]) -> bool
    where
        T: Clone,
    {
        heapless::Vec::extend_from_slice(self, src).is_ok()
    }
}

/// A `Vec` grows without bound, but never aborts the process: every
/// growth asks with `try_reserve`, and an allocation that fails makes the
/// push hand its value back, as a full fixed buffer does. The output then
/// reports a capacity error (with capacity `usize::MAX`: "could not
/// allocate") instead of the allocator aborting.
#[cfg(feature = "alloc")]
impl<T> Buffer<T> for alloc::vec::Vec<T> {
    #[inline]
    fn as_slice(&self) -> &[T] {
        alloc::vec::Vec::as_slice(self)
    }
    #[inline]
    fn as_mut_slice(&mut self) -> &mut [T] {
        alloc::vec::Vec::as_mut_slice(self)
    }
    #[inline]
    fn len(&self) -> usize {
        alloc::vec::Vec::len(self)
    }
    #[inline]
    fn capacity(&self) -> usize {
        usize::MAX
    }
    #[inline]
    fn clear(&mut self) {
        alloc::vec::Vec::clear(self)
    }
    #[inline]
    fn truncate(&mut self, len: usize) {
        alloc::vec::Vec::truncate(self, len)
    }
    #[inline]
    fn push(&mut self, value: T) -> Result<(), T> {
        if self.len() == alloc::vec::Vec::capacity(self) && self.try_reserve(1).is_err() {
            return Err(value);
        }
        alloc::vec::Vec::push(self, value);
        Ok(())
    }
    #[inline]
    fn reserve(&mut self, additional: usize) {
        // A hint: on failure the pushes grow (or fail) one by one.
        let _ = self.try_reserve(additional);
    }
    #[inline]
    fn make_room(&mut self, additional: usize) -> bool {
        self.try_reserve(additional).is_ok()
    }
    #[inline]
    fn extend_fill(&mut self, n: usize, value: T) -> bool
    where
        T: Clone,
    {
        match self.len().checked_add(n) {
            Some(end) if self.try_reserve(n).is_ok() => {
                self.resize(end, value);
                true
            }
            _ => false,
        }
    }
    #[inline]
    fn extend_from_slice(&mut self, src: &[T]) -> bool
    where
        T: Clone,
    {
        if self.try_reserve(src.len()).is_err() {
            return false;
        }
        alloc::vec::Vec::extend_from_slice(self, src);
        true
    }
    #[inline]
    fn extend_exact<I: ExactSizeIterator<Item = T>>(&mut self, items: I) -> bool {
        if self.try_reserve(items.len()).is_err() {
            return false;
        }
        // A slice's iterator, mapped, has a trusted length: `extend`
        // writes in place with no per-element capacity test.
        self.extend(items);
        true
    }
    const SLOTS_PAST_LEN: bool = true;
    #[inline]
    fn spare_slots(&mut self, n: usize) -> Option<core::ptr::NonNull<T>> {
        // As every growth of a `Vec` here: `try_reserve`, never an abort;
        // asked only when the spare capacity is short (a kernel reserved
        // its output's bound up front, so a row's slots are usually there).
        if alloc::vec::Vec::capacity(self) - alloc::vec::Vec::len(self) < n {
            self.try_reserve(n).ok()?;
        }
        Some(core::ptr::NonNull::from(self.spare_capacity_mut()).cast())
    }
    #[inline]
    fn spare_run(&mut self, at_least: usize) -> Option<(core::ptr::NonNull<T>, usize)> {
        if alloc::vec::Vec::capacity(self) - alloc::vec::Vec::len(self) < at_least {
            self.try_reserve(at_least).ok()?;
        }
        let n = alloc::vec::Vec::capacity(self) - alloc::vec::Vec::len(self);
        Some((
            core::ptr::NonNull::from(self.spare_capacity_mut()).cast(),
            n,
        ))
    }
    #[inline]
    unsafe fn commit_slots(&mut self, written: usize) {
        let len = alloc::vec::Vec::len(self) + written;
        // SAFETY: by the caller's contract the `written` slots past the
        // length are within the capacity `spare_slots` reserved and are
        // initialized.
        unsafe { self.set_len(len) }
    }
    #[inline]
    fn extend_unspecified_default(&mut self, n: usize) -> bool
    where
        T: Default,
    {
        // As every growth of a `Vec` here: asked for with `try_reserve`,
        // so a block too large is `false` (a capacity error), not an abort.
        match self.len().checked_add(n) {
            Some(end) if self.try_reserve(n).is_ok() => {
                self.resize_with(end, T::default);
                true
            }
            _ => false,
        }
    }
}

/// The buffer types of an output, chosen together: positions (`P`),
/// coordinates (`C`), values (`V`, also the workspace values), and the
/// workspace's added coordinates and filled flags.
pub trait OutputBuffers<P, C, V> {
    /// Positions of one level.
    type Pos: Buffer<P>;
    /// Coordinates of one level (the interleaved tuples at an AoS COO start).
    type Crd: Buffer<C>;
    /// The values, and the workspace's dense values.
    type Val: Buffer<V>;
    /// The workspace's list of added coordinates.
    type Idx: Buffer<usize>;
    /// The workspace's filled flags.
    type Flag: Buffer<bool>;
}

/// Every buffer a `heapless::Vec<_, N>`: `N` elements each, no allocation,
/// the whole output can live in a `static` or on the stack.
#[cfg(feature = "heapless")]
#[derive(Debug)]
pub struct Fixed<const N: usize>;

#[cfg(feature = "heapless")]
impl<P, C, V, const N: usize> OutputBuffers<P, C, V> for Fixed<N> {
    type Pos = heapless::Vec<P, N>;
    type Crd = heapless::Vec<C, N>;
    type Val = heapless::Vec<V, N>;
    type Idx = heapless::Vec<usize, N>;
    type Flag = heapless::Vec<bool, N>;
}

/// Every buffer a [`SliceBuffer`] over caller memory of lifetime `'a`
/// (each buffer its own capacity).
#[derive(Debug)]
pub struct Slices<'a>(PhantomData<&'a mut ()>);

impl<'a, P: 'a, C: 'a, V: 'a> OutputBuffers<P, C, V> for Slices<'a> {
    type Pos = SliceBuffer<'a, P>;
    type Crd = SliceBuffer<'a, C>;
    type Val = SliceBuffer<'a, V>;
    type Idx = SliceBuffer<'a, usize>;
    type Flag = SliceBuffer<'a, bool>;
}

/// Every buffer a `Vec`: unbounded, so the only capacity error is an
/// allocation that fails (reported with capacity `usize::MAX`; the process
/// never aborts on it).
#[cfg(feature = "alloc")]
#[derive(Debug)]
pub struct Owned;

#[cfg(feature = "alloc")]
impl<P, C, V> OutputBuffers<P, C, V> for Owned {
    type Pos = alloc::vec::Vec<P>;
    type Crd = alloc::vec::Vec<C>;
    type Val = alloc::vec::Vec<V>;
    type Idx = alloc::vec::Vec<usize>;
    type Flag = alloc::vec::Vec<bool>;
}
