//! Files and file systems for the tests that write: a small tmpfs mounted for a test (a full
//! disk, a read-only one), unmounted however the test ends, and a directory's whole contents,
//! to compare before and after a command that must leave them alone.

use super::{skipped, Need};
use std::path::{Path, PathBuf};
use std::process::Command;

/// A tmpfs mounted on a directory, unmounted when it goes out of scope, also when the test
/// fails.
pub struct Mount(pub PathBuf);

impl Drop for Mount {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

impl Mount {
    /// Makes it read-only: no file can be created in it, by root either.
    pub fn read_only(&self) {
        let done = Command::new("mount")
            .args(["-o", "remount,ro"])
            .arg(&self.0)
            .status();
        assert!(done.is_ok_and(|s| s.success()), "remount,ro {:?}", self.0);
    }
}

/// A tmpfs of `kib` KiB on `dir`, or `None` (said as a skip) where the test cannot mount one.
pub fn small_disk(dir: &Path, kib: u64) -> Option<Mount> {
    if !nix::unistd::geteuid().is_root() {
        skipped(Need::Root, "mounting a small tmpfs needs root");
        return None;
    }
    std::fs::create_dir_all(dir).unwrap();
    let mounted = Command::new("mount")
        .args(["-t", "tmpfs", "-o", &format!("size={kib}k"), "tmpfs"])
        .arg(dir)
        .status();
    if !mounted.is_ok_and(|s| s.success()) {
        skipped(
            Need::Root,
            format!("mount -t tmpfs on {} failed", dir.display()),
        );
        return None;
    }
    Some(Mount(dir.to_path_buf()))
}

/// A folder no new file can be made in, holding what was put there before it was sealed: a
/// read-only tmpfs where the test runs as root (root writes past permission bits), else a
/// folder (and the folders in it) whose permission bits forbid writing, set back when dropped,
/// also when the test fails.
pub struct ReadOnly {
    mount: Option<Mount>,
    dir: PathBuf,
    /// What the system says when a file cannot be created in it.
    pub says: &'static str,
}

impl ReadOnly {
    /// `dir`, filled by `fill`, then sealed; `None`, said as a skip, where root cannot mount a
    /// tmpfs.
    pub fn new(dir: &Path, fill: impl FnOnce(&Path)) -> Option<ReadOnly> {
        let root = nix::unistd::geteuid().is_root();
        let mount = if root {
            Some(small_disk(dir, 16 * 1024)?)
        } else {
            std::fs::create_dir_all(dir).unwrap();
            None
        };
        fill(dir);
        match &mount {
            Some(mount) => mount.read_only(),
            None => set_mode(dir, 0o555),
        }
        Some(ReadOnly {
            mount,
            dir: dir.to_path_buf(),
            says: if root {
                "Read-only file system"
            } else {
                "Permission denied"
            },
        })
    }
}

impl Drop for ReadOnly {
    fn drop(&mut self) {
        if self.mount.is_none() {
            set_mode(&self.dir, 0o755);
        }
    }
}

/// Gives `dir` and every folder in it the permission bits `mode` (0o555 and 0o755 both leave
/// them readable, so the walk reaches each).
fn set_mode(dir: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    let _ = std::fs::set_permissions(dir, std::fs::Permissions::from_mode(mode));
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            set_mode(&entry.path(), mode);
        }
    }
}

/// Every entry under `dir`: its path, and a symbolic link's target or a file's bytes (a FIFO's
/// or a device's none: they are not read).
pub fn snapshot(dir: &Path) -> Vec<(PathBuf, String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().flatten().collect();
    entries.sort_by_key(|e| e.path());
    for e in entries {
        let path = e.path();
        let kind = e.file_type().unwrap();
        if kind.is_symlink() {
            let target = std::fs::read_link(&path).unwrap();
            out.push((path, format!("-> {}", target.display()), vec![]));
        } else if kind.is_dir() {
            out.push((path.clone(), "dir".into(), vec![]));
            out.extend(snapshot(&path));
        } else if kind.is_file() {
            let bytes = std::fs::read(&path).unwrap();
            out.push((path, "file".into(), bytes));
        } else {
            out.push((path, format!("{kind:?}"), vec![]));
        }
    }
    out
}
