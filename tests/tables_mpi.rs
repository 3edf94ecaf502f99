//! `awari tables build --mpi` as the ranks of a real MPI job (`mpirun`, oversubscribed on this
//! machine's cores): the files are byte for byte those of the single-process build, for oware
//! and kalah, with 2 and 4 ranks; a rank killed in the middle of a layer ends the job with an
//! error, the layers written before it stay whole, and a new run resumes after them; a
//! directory that takes no new file is refused on every rank before any layer is solved, and so
//! are ranks given different builds.
//!
//! The binary is the one `AWARI_MPI_BIN` names, built with the `mpi` feature (`.ci/run` builds
//! it: `cargo build --profile ci --features mpi`); without it, or without `mpirun`, the tests
//! skip and say why.

use crate::common;
use crate::common::{scratch, skipped, Group, Need};
use awari::rules::Variant;
use awari::tables::file::layer_path;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The largest layer the byte comparisons build.
const SEEDS: usize = 12;

/// `mpirun` and the MPI build of `awari`, or why not.
fn mpi() -> Option<(PathBuf, PathBuf)> {
    let Some(mpirun) = common::on_path("mpirun") else {
        skipped(Need::Mpi, "no mpirun on PATH (Debian: openmpi-bin)");
        return None;
    };
    let Some(bin) = std::env::var_os("AWARI_MPI_BIN").map(PathBuf::from) else {
        skipped(
            Need::Mpi,
            "AWARI_MPI_BIN names no awari built with `--features mpi`",
        );
        return None;
    };
    assert!(bin.is_file(), "AWARI_MPI_BIN: no file {}", bin.display());
    Some((mpirun, bin))
}

/// `mpirun`, with what Open MPI wants to run more ranks than cores, and as root.
fn launcher(mpirun: &Path) -> Command {
    let mut command = common::hermetic(mpirun);
    let version = Command::new(mpirun)
        .arg("--version")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default();
    if version.contains("Open MPI") {
        command.args(["--oversubscribe", "--allow-run-as-root"]);
    }
    command
}

/// `mpirun -np RANKS BIN tables build --mpi ARGS`.
fn job(mpirun: &Path, bin: &Path, ranks: usize, args: &[&str]) -> Command {
    let mut command = launcher(mpirun);
    command
        .args(["-np", &ranks.to_string()])
        .arg(bin)
        .args(["tables", "build", "--mpi"])
        .args(args);
    command
}

/// `mpirun` with one rank per argument list, each `BIN tables build --mpi ARGS` (MPI's
/// "multiple programs" form, `A : B`) with its standard error in a file of its own: mpirun's own
/// forwarding of the ranks' output may lose a rank's last lines when another rank's error ends
/// the job.
fn ranks_given(mpirun: &Path, bin: &Path, each: &[(Vec<String>, PathBuf)]) -> Command {
    let mut command = launcher(mpirun);
    for (r, (args, errors)) in each.iter().enumerate() {
        if r > 0 {
            command.arg(":");
        }
        command
            .args([
                "-np",
                "1",
                "sh",
                "-c",
                "f=$1; shift; exec \"$@\" 2>\"$f\"",
                "sh",
            ])
            .arg(errors)
            .arg(bin)
            .args(["tables", "build", "--mpi"])
            .args(args);
    }
    command
}

/// Every layer file of `variant` up to `seeds` in `a` and `b` holds the same bytes.
fn same_files(a: &Path, b: &Path, variant: Variant, seeds: usize, what: &str) {
    for n in 0..=seeds {
        let (x, y) = (layer_path(a, variant, n), layer_path(b, variant, n));
        let (x, y) = (
            std::fs::read(&x).unwrap_or_else(|e| panic!("{what}: {}: {e}", x.display())),
            std::fs::read(&y).unwrap_or_else(|e| panic!("{what}: {}: {e}", y.display())),
        );
        assert!(
            x == y,
            "{what}: layer {n} differs from the single-process build"
        );
    }
}

#[test]
fn mpi_builds_write_the_bytes_of_the_single_process_build() {
    let Some((mpirun, bin)) = mpi() else { return };
    for variant in [Variant::Oware, Variant::Kalah] {
        let single = scratch("mpi-single", variant.name());
        common::build_tables(&single, variant, SEEDS);
        for ranks in [2, 4] {
            let dir = scratch("mpi-ranks", &format!("{}-{ranks}", variant.name()));
            let out = job(
                &mpirun,
                &bin,
                ranks,
                &[
                    "--variant",
                    variant.name(),
                    "--seeds",
                    &SEEDS.to_string(),
                    "--dir",
                    &dir.to_string_lossy(),
                ],
            )
            .output()
            .unwrap();
            let text = common::printed(&out);
            assert!(out.status.success(), "{ranks} ranks, {variant}: {text}");
            assert!(
                text.contains(&format!("with {ranks} MPI ranks")),
                "rank 0 alone speaks, and names the ranks: {text}"
            );
            assert_eq!(
                text.matches(&format!("layer {SEEDS:>2}:")).count(),
                1,
                "one line per layer, from rank 0: {text}"
            );
            same_files(
                &single,
                &dir,
                variant,
                SEEDS,
                &format!("{variant}, {ranks} ranks"),
            );
        }
    }
}

#[test]
fn a_rank_killed_mid_layer_ends_the_job_and_a_rerun_resumes() {
    let Some((mpirun, bin)) = mpi() else { return };
    let variant = Variant::Oware;
    // A layer smaller than the comparisons': what is checked is the end and the resumption.
    let seeds = SEEDS - 1;
    let dir = scratch("mpi-killed", "oware");
    let args = [
        "--seeds".to_string(),
        seeds.to_string(),
        "--dir".to_string(),
        dir.to_string_lossy().into_owned(),
    ];
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut command = job(&mpirun, &bin, 2, &args);
    command.stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut group = Group::spawn(command).unwrap();
    // The event: the file of the layer two below the top appears; the job is then solving the
    // next one.
    let written = layer_path(&dir, variant, seeds - 2);
    while !written.exists() {
        assert!(
            group.0.try_wait().unwrap().is_none(),
            "the job ended before layer {} was written",
            seeds - 2
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let ranks: Vec<u32> = common::descendants(group.0.id())
        .into_iter()
        .filter(|&pid| {
            std::fs::read(format!("/proc/{pid}/environ")).is_ok_and(|env| {
                env.split(|&b| b == 0)
                    .any(|v| v == b"OMPI_COMM_WORLD_RANK=1" || v == b"PMI_RANK=1")
            })
        })
        .collect();
    assert_eq!(ranks.len(), 1, "rank 1 among the job's processes");
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(ranks[0] as i32),
        nix::sys::signal::Signal::SIGKILL,
    )
    .unwrap();
    // The job must end by itself; the bound only stops a hung test, and is far beyond the
    // time the remaining layers would take.
    let start = Instant::now();
    let status = loop {
        if let Some(status) = group.0.try_wait().unwrap() {
            break status;
        }
        assert!(
            start.elapsed() < Duration::from_secs(600),
            "the job went on after a rank died"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(
        !status.success(),
        "a job whose rank died exits with an error"
    );
    // The layers written before are whole: the verifier reads them, and the rerun keeps them.
    let kept: Vec<usize> = (0..=seeds)
        .filter(|&n| layer_path(&dir, variant, n).exists())
        .collect();
    assert!(
        kept.len() >= seeds - 1,
        "layers 0..={} were written",
        seeds - 2
    );
    let verify = common::awari(&["tables", "verify", "--dir", &dir.to_string_lossy()]);
    assert!(
        verify.status.success(),
        "the files left are whole: {}",
        common::printed(&verify)
    );
    let rerun = job(&mpirun, &bin, 2, &args).output().unwrap();
    let text = common::printed(&rerun);
    assert!(rerun.status.success(), "{text}");
    assert!(
        text.contains(&format!("{} kept", kept.len())),
        "the rerun resumes after the whole layers: {text}"
    );
    let single = scratch("mpi-killed-single", "oware");
    common::build_tables(&single, variant, seeds);
    same_files(&single, &dir, variant, seeds, "after the rerun");
}

#[test]
fn a_build_into_a_directory_that_takes_no_file_is_refused_on_every_rank() {
    let Some((mpirun, bin)) = mpi() else { return };
    let tmp = scratch("mpi-refused", "oware");
    // Layers to 3 seeds, where no file can be added: a build to 5 resumed there.
    let Some(ro) = common::disk::ReadOnly::new(&tmp.join("ro"), |ro| {
        common::build_tables(&ro.join("tables"), Variant::Oware, 3);
    }) else {
        return;
    };
    let dir = tmp.join("ro/tables");
    let before = common::disk::snapshot(&tmp);
    let out = job(
        &mpirun,
        &bin,
        2,
        &["--seeds", "5", "--dir", &dir.to_string_lossy()],
    )
    .output()
    .unwrap();
    let text = common::printed(&out);
    assert_eq!(out.status.code(), Some(2), "{text}");
    let refusal = format!("error: --dir {}: cannot create a file in", dir.display());
    assert_eq!(
        text.matches(&refusal).count(),
        2,
        "each rank refuses: {text}"
    );
    assert!(text.contains(ro.says), "{text}");
    assert!(!text.contains("layer"), "no layer solved: {text}");
    assert!(before == common::disk::snapshot(&tmp), "{text}");
}

#[test]
fn ranks_given_different_builds_refuse_before_any_work() {
    let Some((mpirun, bin)) = mpi() else { return };
    let tmp = scratch("mpi-disagree", "oware");
    let (tables, other) = (tmp.join("tables"), tmp.join("other"));
    // (each rank's rule set, seeds and directory; what every rank says)
    let rows = [
        (
            [("oware", 9, &tables), ("oware", 10, &tables)],
            "--seeds 9 on rank 0, 10 on rank 1",
        ),
        (
            [("oware", 9, &tables), ("kalah", 9, &tables)],
            "--variant oware on rank 0, kalah on rank 1",
        ),
        (
            [("oware", 9, &tables), ("oware", 9, &other)],
            "rank 0 and rank 1 name different directories",
        ),
    ];
    for (builds, said) in rows {
        let errors = |r: usize| tmp.join(format!("rank-{r}.err"));
        let each: Vec<(Vec<String>, PathBuf)> = builds
            .iter()
            .enumerate()
            .map(|(r, (variant, seeds, dir))| {
                let args = ["--variant", variant, "--seeds", &seeds.to_string(), "--dir"];
                let mut args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
                args.push(dir.to_string_lossy().into_owned());
                (args, errors(r))
            })
            .collect();
        let before = common::disk::snapshot(&tmp);
        let out = ranks_given(&mpirun, &bin, &each).output().unwrap();
        let text = common::printed(&out);
        let row = format!("{builds:?}: {text}");
        assert_eq!(out.status.code(), Some(2), "{row}");
        assert!(!text.contains("building"), "no work: {row}");
        for (r, (variant, seeds, dir)) in builds.iter().enumerate() {
            let said_here = std::fs::read_to_string(errors(r)).unwrap();
            std::fs::remove_file(errors(r)).unwrap();
            assert_eq!(
                said_here,
                format!(
                    "error: the MPI ranks were not given the same build: {said} (rank {r}: \
                     --variant {variant} --seeds {seeds} --dir {})\n",
                    dir.display()
                ),
                "rank {r} says it: {row}"
            );
        }
        assert!(
            before == common::disk::snapshot(&tmp),
            "nothing written: {row}"
        );
    }
}
