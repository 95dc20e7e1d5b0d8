//! `branan train-net`: a net trained on games of the lab is written as a net file
//! the engine reads, with its losses logged; bad options and bad files are named.

use std::path::PathBuf;
use std::process::{Command, Output};

use branan::search::net::{Net, file_len};

fn train_net(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_branan"))
        .arg("train-net")
        .args(args)
        .output()
        .unwrap()
}

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("train-net-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The games of the lab's 200 ms match against another engine (Copenhagen).
const GAMES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/lab/taflzero-200ms.jsonl"
);

#[test]
fn a_net_is_trained_on_games_and_written_as_a_file_the_engine_reads() {
    let dir = scratch("trained");
    let out = dir.join("corner-11.net");
    let o = train_net(&[
        GAMES,
        "--out",
        out.to_str().unwrap(),
        "--epochs",
        "2",
        "--seed",
        "4",
    ]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // 100 games, every tenth held out.
    assert!(stdout.starts_with("11x11: 100 games, "), "{stdout}");
    let losses: Vec<f64> = stdout
        .lines()
        .filter(|l| l.starts_with("epoch"))
        .map(|l| l.rsplit(' ').next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(losses.len(), 2, "{stdout}");
    assert!(losses.iter().all(|l| (0.0..0.25).contains(l)), "{losses:?}");
    let bytes = std::fs::read(&out).unwrap();
    assert_eq!(bytes.len(), file_len(11));
    let net = Net::parse(&bytes).unwrap();
    assert_eq!((net.size, net.residual), (11, false));

    // The same seed, the same net.
    let again = dir.join("again.net");
    let o = train_net(&[
        GAMES,
        "--out",
        again.to_str().unwrap(),
        "--epochs",
        "2",
        "--seed",
        "4",
    ]);
    assert!(o.status.success());
    assert_eq!(std::fs::read(&again).unwrap(), bytes);

    let residual = dir.join("residual.net");
    let o = train_net(&[
        GAMES,
        "--residual",
        "--out",
        residual.to_str().unwrap(),
        "--epochs",
        "1",
    ]);
    assert!(o.status.success());
    assert!(
        Net::parse(&std::fs::read(&residual).unwrap())
            .unwrap()
            .residual
    );
}

#[test]
fn bad_options_and_files_are_named() {
    let dir = scratch("bad");
    let out = dir.join("x.net");
    let out = out.to_str().unwrap();
    let o = train_net(&[GAMES, "--out", out, "--lambda", "2"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--lambda"));

    let missing = dir.join("no-such-games.jsonl");
    let o = train_net(&[missing.to_str().unwrap(), "--out", out]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("cannot open") && err.contains("no-such-games.jsonl"),
        "{err}"
    );

    let bad = dir.join("bad.jsonl");
    std::fs::write(&bad, "{\"variant\":\"copenhagen\"}\nnot json\n").unwrap();
    let o = train_net(&[bad.to_str().unwrap(), "--out", out]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("bad.jsonl line 1: not a game"), "{err}");
    assert!(!std::path::Path::new(out).exists());
}
