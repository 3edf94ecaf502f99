//! Starting an engine: the command from its [`Spec`] (in a process group of its own, never
//! through a shell), its registration among the live engines, the check before the first game
//! that it can start at all, and room for many at once (open files).

use crate::sys::registry::registry;
use crate::sys::subreaper::pid;
use nix::sys::signal::{kill, Signal};
use nix::sys::wait::{waitpid, WaitStatus};
use std::fs::File;
use std::io::{self, Read};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};

/// How to start an engine.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Spec {
    /// The name in results (default: the command's file name).
    pub name: String,
    /// The executable.
    pub command: PathBuf,
    /// Its arguments.
    pub args: Vec<String>,
    /// Its working directory (default: the referee's).
    pub dir: Option<PathBuf>,
    /// `setoption` pairs sent after the handshake.
    pub options: Vec<(String, String)>,
}

impl Spec {
    /// The command that starts the engine, in a process group of its own; the caller sets
    /// its standard streams.
    pub(super) fn command(&self) -> Result<Command, String> {
        if let Some(dir) = &self.dir {
            if !dir.is_dir() {
                return Err(format!("dir={}: not a directory", dir.display()));
            }
        }
        let mut command = Command::new(&self.command);
        command.args(&self.args).process_group(0);
        if let Some(dir) = &self.dir {
            command.current_dir(dir);
        }
        Ok(command)
    }
}

/// Starts `command` (the engine of `spec`) and registers it, under the registry's lock: the
/// interrupt thread either sees this engine or stops it from starting. The error names the
/// command.
pub(super) fn spawn(command: &mut Command, spec: &Spec) -> Result<Child, String> {
    let mut registry = registry();
    if registry.closing {
        return Err("the referee is stopping".to_string());
    }
    let child = command
        .spawn()
        .map_err(|e| format!("{}: {e}", spec.command.display()))?;
    registry.engines.insert(child.id());
    Ok(child)
}

/// Whether `spec` can be started here, found out before the first game: a command that is
/// missing, not executable or not a program the system runs (a script whose interpreter is
/// missing), or a `dir=` that is not a directory, would lose or void every game. The engine
/// is started as a game starts it (a `cmd=` without a `/` looked up on the `PATH`) and ended
/// before any of its code runs, so that a wrapper that logs its starts or opens a connection
/// to another machine does nothing: on Linux it asks to be traced, and a traced process stops
/// once its new program is loaded. Where tracing is refused (a sandbox), or elsewhere, it is
/// started untraced and killed at once. The error names the command.
pub fn can_start(spec: &Spec) -> Result<(), String> {
    #[cfg(target_os = "linux")]
    if let Some(verdict) = traced_start(spec) {
        return verdict;
    }
    let mut command = spec.command()?;
    command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    let child = spawn(&mut command, spec)?;
    end_at_once(child.id());
    Ok(())
}

/// [`can_start`] with the engine stopped once its program is loaded: the verdict, or `None`
/// when the start failed (tracing refused, or the command cannot start: [`can_start`] then
/// starts it untraced, for the error a game would meet).
#[cfg(target_os = "linux")]
fn traced_start(spec: &Spec) -> Option<Result<(), String>> {
    let mut command = spec.command().ok()?;
    command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    let trace_me = || {
        // SAFETY: PTRACE_TRACEME takes no pointers; it is one system call, which is all a
        // hook between fork and exec may make.
        let traced = unsafe {
            nix::libc::ptrace(
                nix::libc::PTRACE_TRACEME,
                0,
                std::ptr::null_mut::<nix::libc::c_void>(),
                std::ptr::null_mut::<nix::libc::c_void>(),
            )
        };
        if traced == -1 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    };
    // SAFETY: the hook makes one system call and allocates nothing, as a hook between fork
    // and exec must.
    unsafe {
        command.pre_exec(trace_me);
    }
    let child = spawn(&mut command, spec).ok()?;
    let id = child.id();
    let stopped = pid(id).is_some_and(|p| matches!(waitpid(p, None), Ok(WaitStatus::Stopped(..))));
    // A hook makes the start go through fork and execvp, which runs a file in no format the
    // system knows with /bin/sh, where a game's start reports "Exec format error".
    let no_format = run_by_shell(id, spec);
    end_at_once(id);
    if !stopped {
        return None;
    }
    if no_format {
        let why = io::Error::from_raw_os_error(nix::libc::ENOEXEC);
        return Some(Err(format!("{}: {why}", spec.command.display())));
    }
    Some(Ok(()))
}

/// Whether the stopped process `id`, started from `spec`, is a shell running a file that is
/// no script: execvp's way with a file in no format the system knows. A program loaded by
/// itself has the command as its first argument; a script (`#!`) and such a file have their
/// interpreter there, then the file's path (a path found on the `PATH`, for a plain name),
/// which tells them apart by the file's first two bytes.
#[cfg(target_os = "linux")]
fn run_by_shell(id: u32, spec: &Spec) -> bool {
    let Ok(cmdline) = std::fs::read(format!("/proc/{id}/cmdline")) else {
        return false;
    };
    let command = spec.command.as_os_str().as_encoded_bytes();
    let mut args = cmdline.split(|&b| b == 0);
    if args.next() == Some(command) {
        return false;
    }
    let ends_with_command = |arg: &&[u8]| {
        *arg == command || (arg.ends_with(command) && arg[arg.len() - command.len() - 1] == b'/')
    };
    let Some(file) = args.find(ends_with_command) else {
        return false;
    };
    // Relative to the process's own directory (dir=).
    use std::os::unix::ffi::OsStrExt;
    let file = PathBuf::from(format!("/proc/{id}/cwd")).join(std::ffi::OsStr::from_bytes(file));
    let mut head = [0; 2];
    let read = File::open(&file).and_then(|mut f| f.read_exact(&mut head));
    read.is_ok() && head != *b"#!"
}

/// Kills the engine `id` just started (running, or stopped by tracing), reaps it, and takes it
/// off the registry.
fn end_at_once(id: u32) {
    if let Some(pid) = pid(id) {
        let _ = kill(pid, Signal::SIGKILL);
        // Until it is gone: a traced process reports its stops too.
        while let Ok(status) = waitpid(pid, None) {
            if matches!(status, WaitStatus::Exited(..) | WaitStatus::Signaled(..)) {
                break;
            }
        }
    }
    registry().engines.remove(&id);
}

/// Whether engines are started to die with the thread that starts them ([`die_with_starter`]).
static DIE_WITH_STARTER: AtomicBool = AtomicBool::new(false);

/// Linux: every engine started from now on is killed (SIGKILL) when the thread that started it
/// ends, and so when this process dies in any way, a SIGKILL or an abort included, where
/// nothing of this program runs to end it. Only for a program whose threads that start
/// engines outlive them (the page's sessions do; the referee's match threads need not).
pub fn die_with_starter() {
    DIE_WITH_STARTER.store(true, Ordering::Relaxed);
}

/// File descriptors the referee holds per engine at most: its input pipe (twice: written and
/// watched), its output and stderr pipes and two log files.
pub const FILES_PER_ENGINE: u64 = 6;

/// Makes room for `engines` engines at once: raises the soft limit on open files as far as
/// the hard limit allows; an error says how many are needed and what the limit is.
pub fn make_room_for(engines: u64) -> Result<(), String> {
    use nix::sys::resource::{getrlimit, setrlimit, Resource};
    // The engines' files, plus the referee's own (records, standard streams, /proc reads).
    let needed = engines * FILES_PER_ENGINE + 64;
    let Ok((soft, hard)) = getrlimit(Resource::RLIMIT_NOFILE) else {
        return Ok(());
    };
    if soft >= needed {
        return Ok(());
    }
    if hard >= needed && setrlimit(Resource::RLIMIT_NOFILE, needed, hard).is_ok() {
        return Ok(());
    }
    Err(format!(
        "{engines} engines at once need about {needed} open files; this system allows {hard}"
    ))
}

/// Asks, when engines die with their starter ([`die_with_starter`]), that the engine `command`
/// starts be killed when the thread starting it ends.
pub(super) fn die_with_starter_hook(command: &mut Command) {
    #[cfg(not(target_os = "linux"))]
    let _ = command;
    #[cfg(target_os = "linux")]
    if DIE_WITH_STARTER.load(Ordering::Relaxed) {
        let parent = nix::unistd::getpid();
        // SAFETY: the closure runs in the child between fork and exec, where only
        // async-signal-safe calls are allowed: it makes two system calls (`prctl`,
        // `getppid`) and allocates nothing.
        unsafe {
            command.pre_exec(move || {
                let _ = nix::sys::prctl::set_pdeathsig(Signal::SIGKILL);
                // Its starter may have died before the signal was asked for.
                if nix::unistd::getppid() == parent {
                    Ok(())
                } else {
                    Err(io::Error::from_raw_os_error(nix::libc::ESRCH))
                }
            });
        }
    }
}
