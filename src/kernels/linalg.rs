//! (being written)

use super::Kernel;

pub(super) static KERNELS: &[Kernel] = &[];
