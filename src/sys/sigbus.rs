//! Mapped files that shrink under the process. A file mapped into memory can be truncated or
//! rewritten in place by another process at any moment (`cp` over it, a copy that fills the
//! disk); a read of a page past its new end then raises SIGBUS, which ends the process. A
//! region [`guard`]ed here instead has the faulting page replaced by a page of [`FILL`] bytes,
//! the guard's flag set, and the read goes on: the owner of the flag (the endgame tables) stops
//! reading the region once it sees it, and [`faults`] counts what happened so that it can be
//! said. A SIGBUS anywhere else goes to the handler there was before (Rust's own, which tells
//! a stack overflow, or the default: the process ends as it would have).
//!
//! Linux only; elsewhere [`guard`] does nothing and a shrunk file ends the process as before.

use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicUsize, Ordering};

/// The byte a replaced page reads as: no table value of any layer (its `lo`, 31, lies below a
/// `hi` of 32, above every layer a byte can hold), so that a probe which reads it finds nothing,
/// as if the layer were missing.
pub const FILL: u8 = 0x3F;

/// Regions that can be guarded at once: the layer files of a few openings of the tables (two
/// files per layer, 32 layers at most per opening). A region beyond them is mapped unguarded,
/// and the tables say so among their problems.
pub const SLOTS: usize = 512;

/// One guarded region, read by the signal handler without locks: `start` is 0 while free and
/// [`CLAIMED`] while being filled in, so the handler never reads a half-written slot.
struct Slot {
    start: AtomicUsize,
    end: AtomicUsize,
    flag: AtomicPtr<AtomicBool>,
    /// Whether a page of the region was replaced.
    faulted: AtomicBool,
}

/// `start` of a slot taken but not yet filled in.
const CLAIMED: usize = 1;

#[allow(clippy::declare_interior_mutable_const)] // each use makes a fresh slot, as wanted
const FREE: Slot = Slot {
    start: AtomicUsize::new(0),
    end: AtomicUsize::new(0),
    flag: AtomicPtr::new(std::ptr::null_mut()),
    faulted: AtomicBool::new(false),
};
static REGIONS: [Slot; SLOTS] = [FREE; SLOTS];
static FAULTS: AtomicUsize = AtomicUsize::new(0);

/// How many pages of guarded regions have faulted in this process so far: a cheap check that
/// something is to be said.
pub fn faults() -> usize {
    FAULTS.load(Ordering::Relaxed)
}

/// A guarded region; dropping it ends the guard.
#[derive(Debug)]
pub struct Guard {
    slot: usize,
}

impl Guard {
    /// Whether a page of the region faulted and was replaced.
    pub fn faulted(&self) -> bool {
        REGIONS[self.slot].faulted.load(Ordering::Relaxed)
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        REGIONS[self.slot].start.store(0, Ordering::Release);
    }
}

/// Guards the mapped bytes `region`: a SIGBUS on reading them replaces the faulting page with
/// [`FILL`] bytes and sets `flag`. `None` where nothing can be guarded (not Linux, every slot
/// taken, the handler refused): the region is then read unguarded.
///
/// # Safety
/// `region` must be a read-only mapping of a file, and both it and `flag` must outlive the
/// guard: the handler writes over the region's pages and stores to `flag`.
pub unsafe fn guard(region: &[u8], flag: &AtomicBool) -> Option<Guard> {
    if region.is_empty() || !handler::install() {
        return None;
    }
    let slot = REGIONS.iter().position(|s| {
        s.start
            .compare_exchange(0, CLAIMED, Ordering::Acquire, Ordering::Relaxed)
            .is_ok()
    })?;
    let start = region.as_ptr() as usize;
    let s = &REGIONS[slot];
    s.end.store(start + region.len(), Ordering::Relaxed);
    s.faulted.store(false, Ordering::Relaxed);
    s.flag
        .store((flag as *const AtomicBool).cast_mut(), Ordering::Relaxed);
    s.start.store(start, Ordering::Release);
    Some(Guard { slot })
}

// A signal handler is one run of foreign calls whose safety is one argument, given once per
// block; a block per call would only repeat it.
#[cfg(target_os = "linux")]
#[allow(clippy::multiple_unsafe_ops_per_block)]
mod handler {
    use super::{CLAIMED, FAULTS, FILL, REGIONS};
    use nix::libc;
    use std::sync::atomic::Ordering;
    use std::sync::OnceLock;

    /// The SIGBUS action before ours (`None` if it could not be read, or ours failed to
    /// install), and the page size.
    static PREVIOUS: OnceLock<Option<(libc::sigaction, usize)>> = OnceLock::new();

    /// Installs the handler once per process; whether it is installed.
    pub(super) fn install() -> bool {
        PREVIOUS
            .get_or_init(|| {
                // SAFETY: sigaction and sysconf only read and write the structures passed; the
                // previous action is read before ours is installed, so the handler always has
                // it to pass other faults on to.
                unsafe {
                    let page = usize::try_from(libc::sysconf(libc::_SC_PAGESIZE)).ok()?;
                    let mut previous: libc::sigaction = std::mem::zeroed();
                    if libc::sigaction(libc::SIGBUS, std::ptr::null(), &mut previous) != 0 {
                        return None;
                    }
                    let mut action: libc::sigaction = std::mem::zeroed();
                    action.sa_sigaction = on_sigbus as *const () as usize;
                    action.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
                    libc::sigemptyset(&mut action.sa_mask);
                    // Until `get_or_init` returns the handler finds no previous action and
                    // treats every fault not its own as unhandled: the default, as now.
                    let previous = Some((previous, page));
                    (libc::sigaction(libc::SIGBUS, &action, std::ptr::null_mut()) == 0)
                        .then_some(previous)?
                }
            })
            .is_some()
    }

    /// The handler. Only async-signal-safe calls: atomics, `mmap`, `mprotect`, `sigaction`,
    /// and the bytes of a page of its own.
    extern "C" fn on_sigbus(
        signal: libc::c_int,
        info: *mut libc::siginfo_t,
        context: *mut libc::c_void,
    ) {
        // SAFETY: the kernel passes a valid siginfo for a SA_SIGINFO handler; a guarded region
        // is a read-only file mapping that outlives its guard (see `guard`), so replacing one
        // of its pages with an anonymous page changes only what its readers read, and the flag
        // is alive. errno is kept for the interrupted code.
        unsafe {
            let errno = *libc::__errno_location();
            let address = (*info).si_addr() as usize;
            let handled =
                matches!(PREVIOUS.get(), Some(Some((_, page))) if replace(address, *page));
            *libc::__errno_location() = errno;
            if !handled {
                pass_on(signal, info, context);
            }
        }
    }

    /// Replaces the page of `address` if a guarded region holds it; whether one did.
    unsafe fn replace(address: usize, page: usize) -> bool {
        for s in &REGIONS {
            let start = s.start.load(Ordering::Acquire);
            if start <= CLAIMED || address < start || address >= s.end.load(Ordering::Relaxed) {
                continue;
            }
            let flag = s.flag.load(Ordering::Relaxed);
            let base = (address & !(page - 1)) as *mut libc::c_void;
            // SAFETY: `base` is the start of a page of a guarded region, a read-only file
            // mapping that outlives its guard: a private anonymous page mapped over it (then
            // filled and made read-only) changes only what its readers read; `flag` outlives
            // the guard too (see `guard`).
            unsafe {
                let mapped = libc::mmap(
                    base,
                    page,
                    libc::PROT_READ | libc::PROT_WRITE,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_FIXED,
                    -1,
                    0,
                );
                if mapped == libc::MAP_FAILED {
                    return false;
                }
                std::ptr::write_bytes(mapped.cast::<u8>(), FILL, page);
                libc::mprotect(mapped, page, libc::PROT_READ);
                (*flag).store(true, Ordering::Relaxed);
                s.faulted.store(true, Ordering::Relaxed);
                FAULTS.fetch_add(1, Ordering::Relaxed);
            }
            return true;
        }
        false
    }

    /// What the previous action would have done with a fault that is not ours: its handler,
    /// or, where there was none, the default action (the faulting read runs again on return
    /// and ends the process with SIGBUS, as without us).
    unsafe fn pass_on(signal: libc::c_int, info: *mut libc::siginfo_t, context: *mut libc::c_void) {
        // SAFETY: the previous action was read by `sigaction` itself, so its handler has the
        // signature its flags say; resetting to the default action takes only a zeroed struct.
        unsafe {
            let previous = match PREVIOUS.get() {
                Some(Some((previous, _))) => previous.sa_sigaction,
                _ => libc::SIG_DFL,
            };
            if previous == libc::SIG_DFL || previous == libc::SIG_IGN {
                let mut default: libc::sigaction = std::mem::zeroed();
                default.sa_sigaction = libc::SIG_DFL;
                libc::sigaction(signal, &default, std::ptr::null_mut());
                return;
            }
            let siginfo = PREVIOUS
                .get()
                .and_then(|p| p.as_ref())
                .is_some_and(|(p, _)| p.sa_flags & libc::SA_SIGINFO != 0);
            if siginfo {
                let handler: extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void) =
                    std::mem::transmute(previous);
                handler(signal, info, context);
            } else {
                let handler: extern "C" fn(libc::c_int) = std::mem::transmute(previous);
                handler(signal);
            }
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod handler {
    pub(super) fn install() -> bool {
        false
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn a_read_past_the_end_a_file_was_cut_to_reads_fill_and_sets_the_flag() {
        let path = std::env::temp_dir().join(format!("awari-sigbus-{}", std::process::id()));
        // Larger than any page size, so that the byte read lies pages past the cut.
        let len = 256 * 1024;
        std::fs::File::create(&path)
            .and_then(|mut f| f.write_all(&vec![7u8; len]))
            .unwrap();
        let file = std::fs::File::open(&path).unwrap();
        // SAFETY: read-only; the file is this test's own, cut short below on purpose.
        let map = unsafe { memmap2::Mmap::map(&file) }.unwrap();
        let flag = AtomicBool::new(false);
        // SAFETY: `map` and `flag` outlive the guard, dropped first below.
        let guard = unsafe { guard(&map, &flag) }.expect("Linux guards a mapping");
        let before = faults();
        assert_eq!(map[len - 1], 7);
        std::fs::OpenOptions::new()
            .write(true)
            .open(&path)
            .and_then(|f| f.set_len(100))
            .unwrap();
        // Volatile: the read must happen here, after the cut, not be taken from before it.
        // SAFETY: the pointer is into `map`, still mapped.
        let read = unsafe { std::ptr::read_volatile(&map[len - 1]) };
        assert_eq!(read, FILL);
        assert!(flag.load(Ordering::Relaxed));
        assert!(guard.faulted());
        assert!(faults() > before);
        // Bytes before the cut are still the file's.
        // SAFETY: as above.
        assert_eq!(unsafe { std::ptr::read_volatile(&map[50]) }, 7);
        drop(guard);
        drop(map);
        let _ = std::fs::remove_file(&path);
    }
}
