//! The integration tests, one program: each module below is a file of tests beside this one
//! (`tests/NAME.rs`), and `common` what they share. One program links once and runs the
//! files' tests side by side (`cargo test --test suite NAME::` runs one file's). Two files
//! change what is process-wide, and are programs of their own: `tests/quiescence.rs` sets the
//! search's switches, and `tests/slurm.rs` makes its process the reaper of the cluster's
//! daemons, waiting for any child of it.

mod common;

mod cli;
mod datagen;
mod docs;
mod docs_figures;
mod engine_clocks;
mod engine_loop;
mod engine_order;
mod engine_pipes;
mod engine_resources;
mod full_disk;
mod invariants;
mod jobs;
mod kalah_values;
mod multipv;
mod network;
mod notation;
mod outputs;
mod outputs_checked;
mod perft;
mod play;
mod protocol;
mod puzzles;
mod python_example;
mod referee_check;
mod referee_faults;
mod referee_game;
mod referee_match;
mod referee_misbehave;
mod referee_newcomer;
mod referee_outputs;
mod referee_process;
mod referee_reads;
mod referee_records;
mod referee_shards;
mod referee_verify;
mod report;
mod rules;
mod search;
mod serve;
mod serve_http;
mod serve_kept;
mod serve_page;
mod serve_puzzles;
mod serve_review;
mod serve_start;
mod serve_tables;
mod serve_variations;
mod solve;
mod table_root;
mod tables;
mod tables_cli;
mod tables_guards;
mod tables_mpi;
mod tables_search;
mod tables_solvers;
mod tables_strategy;
mod tables_values;
mod web;

/// With `autotests = false` a new file of `tests/` runs only if it is named: here, or as a
/// `[[test]]` of its own in `Cargo.toml`. One named nowhere would never be compiled.
#[test]
fn every_file_of_tests_is_a_module_here_or_a_program_of_its_own() {
    let root = env!("CARGO_MANIFEST_DIR");
    let suite = std::fs::read_to_string(format!("{root}/tests/suite.rs")).unwrap();
    let manifest = std::fs::read_to_string(format!("{root}/Cargo.toml")).unwrap();
    let mut files = 0;
    for entry in std::fs::read_dir(format!("{root}/tests")).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().to_string();
        let Some(stem) = name.strip_suffix(".rs") else {
            continue;
        };
        files += 1;
        let module = format!("\nmod {stem};\n");
        let program = format!("path = \"tests/{name}\"");
        assert!(
            stem == "suite" || suite.contains(&module) || manifest.contains(&program),
            "tests/{name} is neither `mod {stem};` in tests/suite.rs nor a [[test]] in Cargo.toml"
        );
    }
    assert!(files > 40, "{files} files in tests/");
}
