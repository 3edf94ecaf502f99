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
mod engine_loop;
mod engine_pipes;
mod full_disk;
mod invariants;
mod jobs;
mod kalah_values;
mod multipv;
mod network;
mod notation;
mod outputs;
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
mod referee_shards;
mod referee_verify;
mod report;
mod rules;
mod search;
mod serve;
mod serve_http;
mod serve_page;
mod serve_puzzles;
mod serve_review;
mod serve_tables;
mod solve;
mod table_root;
mod tables;
mod tables_guards;
mod tables_mpi;
mod tables_solvers;
mod tables_values;
