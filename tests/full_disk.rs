//! A write that fails for want of space leaves no temporary file behind: `referee merge`'s
//! merged records, `referee report`'s page and `awari tables build`'s layers, each on a real
//! full disk (a small tmpfs, mounted by the test; it needs root, and is skipped, saying so,
//! without it).

use crate::common;
use crate::common::disk::small_disk;
use crate::common::{awari, referee, scratch, text};
use std::path::Path;

/// Fills the disk of `dir` to the last byte.
fn fill(dir: &Path) {
    use std::io::Write;
    let mut filler = std::fs::File::create(dir.join("filler")).unwrap();
    let block = [0u8; 4096];
    while filler.write_all(&block).is_ok() {}
    // The last partial block, byte by byte.
    while filler.write_all(&[0]).is_ok() {}
}

/// Temporary files (`.NAME.tmp-PID-N`) under `dir`.
fn temporaries(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let p = entry.path();
        if p.is_dir() {
            found.extend(temporaries(&p));
        } else if p.to_string_lossy().contains(".tmp-") {
            found.push(p.display().to_string());
        }
    }
    found
}

#[test]
fn merge_and_report_on_a_full_disk_leave_no_temporary_file() {
    let tmp = scratch("full-disk", "referee");
    let played = tmp.join("played");
    let out = referee()
        .args(common::two_engines())
        .args(["--games", "4", "--out-dir"])
        .arg(&played)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let Some(disk) = small_disk(&tmp.join("disk"), 200) else {
        return;
    };
    let od = disk.0.join("od");
    std::fs::create_dir(&od).unwrap();
    for entry in std::fs::read_dir(&played).unwrap().flatten() {
        std::fs::copy(entry.path(), od.join(entry.file_name())).unwrap();
    }
    let shard = std::fs::read(od.join("shard-0-of-1.jsonl")).unwrap();
    fill(&disk.0);

    let out = referee().arg("merge").arg(&od).output().unwrap();
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "merge on a full disk: {err}");
    assert!(err.contains("No space left"), "{err}");
    assert_eq!(temporaries(&disk.0), Vec::<String>::new(), "after merge");
    assert_eq!(std::fs::read(od.join("shard-0-of-1.jsonl")).unwrap(), shard);

    let page = disk.0.join("r.html");
    let out = referee()
        .arg("report")
        .arg(&od)
        .arg("--html")
        .arg(&page)
        .output()
        .unwrap();
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "report on a full disk: {err}");
    assert!(err.contains("No space left"), "{err}");
    assert_eq!(temporaries(&disk.0), Vec::<String>::new(), "after report");
    assert!(!page.exists());
}

#[test]
fn a_table_build_on_a_full_disk_leaves_no_temporary_file() {
    let tmp = scratch("full-disk", "tables");
    // The disk holds the layers up to 9 seeds with room to spare, not the 10-seed layer.
    let sizes = tmp.join("sizes");
    let d = sizes.to_str().unwrap();
    let out = awari(&["tables", "build", "--seeds", "9", "--dir", d]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let nine: u64 = std::fs::read_dir(&sizes)
        .unwrap()
        .flatten()
        .map(|e| e.metadata().unwrap().len())
        .sum();
    let Some(disk) = small_disk(&tmp.join("disk"), nine / 1024 + 64) else {
        return;
    };
    let d = disk.0.to_str().unwrap();
    let out = awari(&["tables", "build", "--seeds", "10", "--dir", d]);
    let err = text(&out.stderr);
    assert!(!out.status.success(), "the 10-seed layer cannot fit: {err}");
    assert!(err.contains("No space left"), "{err}");
    assert_eq!(temporaries(&disk.0), Vec::<String>::new());
    assert!(
        disk.0.join("oware-09.awtb").is_file(),
        "the layers that fit are kept"
    );
}
