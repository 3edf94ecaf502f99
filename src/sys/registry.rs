//! The one registry of the engines this program has started and not yet reaped, and whether
//! it is being interrupted. The engine client adds and removes engines under its lock; the
//! interrupt handler ([`super::signals`]) closes it before it kills them, so that no engine can
//! start while it does, and the sweep of strays ([`super::subreaper::sweep`]) holds it so that
//! a starting engine never looks like a stray.

use std::collections::HashSet;
use std::sync::{Mutex, MutexGuard};

/// The live engines (by process id, also their group id), and whether the referee is being
/// interrupted (then no engine may start).
#[derive(Default)]
pub struct Registry {
    /// The live engines' process ids.
    pub engines: HashSet<u32>,
    /// Set once an interrupt is being handled: no engine may start after that.
    pub closing: bool,
}

static REGISTRY: Mutex<Option<Registry>> = Mutex::new(None);

/// The registry, locked. A panic elsewhere does not stop the cleanup.
pub fn registry() -> RegistryGuard {
    let mut guard = REGISTRY.lock().unwrap_or_else(|e| e.into_inner());
    guard.get_or_insert_with(Registry::default);
    RegistryGuard(guard)
}

/// The registry while it is locked.
pub struct RegistryGuard(MutexGuard<'static, Option<Registry>>);

impl std::ops::Deref for RegistryGuard {
    type Target = Registry;
    fn deref(&self) -> &Registry {
        self.0.as_ref().expect("initialised")
    }
}

impl std::ops::DerefMut for RegistryGuard {
    fn deref_mut(&mut self) -> &mut Registry {
        self.0.as_mut().expect("initialised")
    }
}

/// Whether an interrupt is being handled: then the interrupt thread is killing the engines
/// and will end the process with status 130, which no other exit may overtake.
pub fn interrupted() -> bool {
    registry().closing
}
