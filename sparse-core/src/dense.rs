//! Row-major views over slices: the parameter type of dense kernel operands
//! of rank 2 or more with a dynamic size (`tensor<?x8xf32>`).

use crate::error::KernelError;

/// The number of elements of a row-major array with dimensions `dims`,
/// `None` on overflow.
fn volume(dims: &[usize]) -> Option<usize> {
    dims.iter().try_fold(1usize, |n, &d| n.checked_mul(d))
}

/// The row-major offset of `idx`, `None` if some coordinate is out of range.
fn offset(dims: &[usize], idx: &[usize]) -> Option<usize> {
    let mut at = 0usize;
    for (&d, &i) in dims.iter().zip(idx) {
        if i >= d {
            return None;
        }
        // i < d and at < product of the dimensions so far: no overflow,
        // since the whole product fits (checked by `new`).
        at = at * d + i;
    }
    Some(at)
}

fn check_len(len: usize, dims: &[usize]) -> Result<(), KernelError> {
    let expected = volume(dims);
    if expected == Some(len) {
        Ok(())
    } else {
        Err(KernelError::ViewLength { len, expected })
    }
}

/// A read-only row-major view of a slice as an `R`-dimensional tensor.
///
/// ```
/// use sparse_core::DenseView;
/// let data = [1, 2, 3, 4, 5, 6];
/// let m = DenseView::new(&data, [2, 3])?;
/// assert_eq!(m.get([1, 0]), Some(&4));
/// assert_eq!(m.get([0, 3]), None);
/// # Ok::<(), sparse_core::KernelError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DenseView<'a, T, const R: usize> {
    data: &'a [T],
    dims: [usize; R],
}

impl<'a, T, const R: usize> DenseView<'a, T, R> {
    /// A view of `data` with dimensions `dims` (last dimension contiguous).
    /// Fails with [`KernelError::ViewLength`] unless `data.len()` is the
    /// product of `dims`.
    pub fn new(data: &'a [T], dims: [usize; R]) -> Result<Self, KernelError> {
        check_len(data.len(), &dims)?;
        Ok(DenseView { data, dims })
    }
    /// The dimension sizes.
    #[inline(always)]
    pub fn dims(&self) -> [usize; R] {
        self.dims
    }
    /// The element at `idx`, `None` if a coordinate is out of range.
    pub fn get(&self, idx: [usize; R]) -> Option<&'a T> {
        self.data.get(offset(&self.dims, &idx)?)
    }
    /// The elements in row-major order.
    #[inline(always)]
    pub fn as_slice(&self) -> &'a [T] {
        self.data
    }
}

/// A mutable row-major view of a slice as an `R`-dimensional tensor: the
/// type of dense kernel outputs of rank 2 or more with a dynamic size.
///
/// ```
/// use sparse_core::DenseViewMut;
/// let mut data = [0; 6];
/// let mut m = DenseViewMut::new(&mut data, [3, 2])?;
/// *m.get_mut([2, 1]).unwrap() = 7;
/// assert_eq!(data, [0, 0, 0, 0, 0, 7]);
/// # Ok::<(), sparse_core::KernelError>(())
/// ```
#[derive(Debug, PartialEq, Eq)]
pub struct DenseViewMut<'a, T, const R: usize> {
    data: &'a mut [T],
    dims: [usize; R],
}

impl<'a, T, const R: usize> DenseViewMut<'a, T, R> {
    /// A mutable view of `data` with dimensions `dims`. Fails with
    /// [`KernelError::ViewLength`] unless `data.len()` is the product of
    /// `dims`.
    pub fn new(data: &'a mut [T], dims: [usize; R]) -> Result<Self, KernelError> {
        check_len(data.len(), &dims)?;
        Ok(DenseViewMut { data, dims })
    }
    /// The dimension sizes.
    #[inline(always)]
    pub fn dims(&self) -> [usize; R] {
        self.dims
    }
    /// The element at `idx`, `None` if a coordinate is out of range.
    pub fn get(&self, idx: [usize; R]) -> Option<&T> {
        self.data.get(offset(&self.dims, &idx)?)
    }
    /// The element at `idx`, mutably; `None` if a coordinate is out of range.
    pub fn get_mut(&mut self, idx: [usize; R]) -> Option<&mut T> {
        self.data.get_mut(offset(&self.dims, &idx)?)
    }
    /// The elements in row-major order.
    #[inline(always)]
    pub fn as_slice(&self) -> &[T] {
        self.data
    }
    /// The elements in row-major order, mutably.
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        self.data
    }
    /// The elements in row-major order, mutably, for the view's whole
    /// lifetime.
    #[inline(always)]
    pub fn into_mut_slice(self) -> &'a mut [T] {
        self.data
    }
    /// A read-only view of the same elements.
    pub fn as_view(&self) -> DenseView<'_, T, R> {
        DenseView {
            data: self.data,
            dims: self.dims,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn length_must_be_the_product_of_the_dimensions() {
        let data = [0u8; 6];
        assert!(DenseView::new(&data, [2, 3]).is_ok());
        assert_eq!(
            DenseView::new(&data, [2, 2]).err(),
            Some(KernelError::ViewLength {
                len: 6,
                expected: Some(4)
            })
        );
        assert_eq!(
            DenseView::new(&data, [usize::MAX, 2]).err(),
            Some(KernelError::ViewLength {
                len: 6,
                expected: None
            })
        );
        // Rank 0 holds one element.
        assert!(DenseView::new(&data[..1], []).is_ok());
        assert!(DenseView::<u8, 1>::new(&[], [0]).is_ok());
    }

    #[test]
    fn elements_are_row_major() {
        let data: [u32; 24] = core::array::from_fn(|n| n as u32);
        let v = DenseView::new(&data, [2, 3, 4]).unwrap();
        for i in 0..2 {
            for j in 0..3 {
                for k in 0..4 {
                    assert_eq!(v.get([i, j, k]), Some(&((i * 12 + j * 4 + k) as u32)));
                }
            }
        }
        assert_eq!(v.get([2, 0, 0]), None);
        assert_eq!(v.get([0, 0, 4]), None);
        assert_eq!(v.dims(), [2, 3, 4]);
        assert_eq!(v.as_slice().len(), 24);
    }

    #[test]
    fn mutable_view_writes_through() {
        let mut data = [0i64; 6];
        let mut m = DenseViewMut::new(&mut data, [2, 3]).unwrap();
        *m.get_mut([1, 2]).unwrap() = -1;
        assert_eq!(m.get_mut([2, 0]), None);
        assert_eq!(m.as_view().get([1, 2]), Some(&-1));
        m.as_mut_slice()[0] = 5;
        assert_eq!(data, [5, 0, 0, 0, 0, -1]);
    }
}
