//! Section `cache`: how fast this machine reads an array it has just
//! read against one it read before a gigabyte of other data, by size.
//! It shows the size below which the last-level cache keeps a matrix
//! between calls, and why the timer starts every batch from the same
//! cache state (`harness::CacheState`).

use std::hint::black_box;
use std::time::Instant;

use crate::harness::{distinct_words as words, read_all as read};

pub fn run() {
    println!("\n### Reading an array just read against one read before 1 GiB of other data");
    println!();
    println!("Best of 7 rounds each. `cargo build --release && target/release/sparse-bench-desktop cache`");
    println!();
    println!("| array | just read GB/s | after 1 GiB of other data GB/s | ratio |");
    println!("|---:|---:|---:|---:|");
    let other = words(1 << 27, 7);
    for mb in [8usize, 16, 32, 48, 64, 128, 256] {
        let a = words(mb << 17, 3);
        let (mut hot, mut cold) = (f64::MAX, f64::MAX);
        for _ in 0..7 {
            black_box(read(&a));
            let t = Instant::now();
            black_box(read(black_box(&a)));
            hot = hot.min(t.elapsed().as_secs_f64());
            black_box(read(&other));
            let t = Instant::now();
            black_box(read(black_box(&a)));
            cold = cold.min(t.elapsed().as_secs_f64());
        }
        let bytes = (mb << 20) as f64;
        println!(
            "| {mb} MiB | {:.1} | {:.1} | {:.2} |",
            bytes / hot / 1e9,
            bytes / cold / 1e9,
            cold / hot
        );
    }
}
