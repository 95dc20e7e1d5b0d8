//! Perft from each preset's start (criterion). `cargo bench --bench perft`.
//!
//! The figures and the command are in the README ("Perft figures").

use std::hint::black_box;
use std::time::Duration;

use branan::rules::AnyVariant;
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

/// (preset, depth, leaves): the table of docs/rules.md, "Perft from the start";
/// brandubh-classic and tablut-linnaeus share their starts and, to these depths, their
/// counts (see `tests/rules/perft.rs`).
const CASES: [(&str, u32, u64); 5] = [
    ("brandubh", 5, 41_843_336),
    ("tablut", 4, 19_913_864),
    ("tawlbwrdd", 4, 61_550_700),
    ("brandubh-classic", 5, 41_843_336),
    ("tablut-linnaeus", 4, 19_913_864),
];

fn perft_from_the_start(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4));
    for (id, depth, leaves) in CASES {
        let Some(variant) = AnyVariant::by_id(id) else {
            panic!("no preset {id}");
        };
        let game = variant.start_position().game();
        group.throughput(Throughput::Elements(leaves));
        group.bench_with_input(BenchmarkId::new(id, depth), &depth, |b, &depth| {
            b.iter(|| {
                let n = black_box(&game).perft(depth);
                assert_eq!(n, leaves, "{id} perft {depth}");
                n
            });
        });
    }
    group.finish();
}

criterion_group!(benches, perft_from_the_start);
criterion_main!(benches);
