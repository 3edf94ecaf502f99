//! Asking the CPU to start loading a memory line before it is read: the searches and table
//! probes call it for an entry a moment before they read it, so that the read finds it in
//! cache.

/// Starts loading the cache line that holds `item`.
#[inline]
pub fn prefetch<T>(item: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is only a hint: it reads nothing into the program and cannot fault,
    // and the pointer is to a live value anyway.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
            (item as *const T).cast::<i8>(),
        );
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = item;
}
