//! Random games played through the API (`/v1/moves`, its GET form, `/v1/play`),
//! every answer compared with the independent implementation of docs/rules.md in
//! `tests/reference`: the position, the side to move, the status, every legal move
//! with its captures, and each move's captures and result.

use crate::reference;

use actix_web::test;
use branan::api::{AppState, ServerConfig, app};
use serde_json::{Value, json};

/// A small deterministic generator (xorshift64*), so a failure replays.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }
}

fn names(squares: &[(usize, usize)]) -> Vec<String> {
    let mut v: Vec<String> = squares.iter().map(|&s| reference::square_name(s)).collect();
    v.sort();
    v
}

fn status_of(end: Option<(&str, &str)>) -> Value {
    match end {
        None => json!({"over": false, "winner": null, "reason": null}),
        Some(("draw", reason)) => json!({"over": true, "winner": null, "reason": reason}),
        Some((winner, reason)) => json!({"over": true, "winner": winner, "reason": reason}),
    }
}

fn side_name(side: char) -> &'static str {
    if side == 'a' {
        "attackers"
    } else {
        "defenders"
    }
}

/// The reference's legal moves and captures, sorted, as the API writes them.
fn reference_moves(game: &reference::Game) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = game
        .moves()
        .into_iter()
        .map(|m| {
            let mut next = game.now().clone();
            (reference::move_name(m), names(&next.play(m)))
        })
        .collect();
    out.sort();
    out
}

fn api_moves(answer: &Value) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = answer["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| {
            let mv = m["move"].as_str().expect("move").to_owned();
            assert_eq!(
                format!(
                    "{}-{}",
                    m["from"].as_str().unwrap(),
                    m["to"].as_str().unwrap()
                ),
                mv
            );
            let mut caps: Vec<String> = m["captures"]
                .as_array()
                .expect("captures")
                .iter()
                .map(|c| c.as_str().expect("square").to_owned())
                .collect();
            caps.sort();
            (mv, caps)
        })
        .collect();
    out.sort();
    out
}

fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b',' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[actix_web::test]
async fn random_games_agree_with_the_reference() {
    let svc = test::init_service(app(AppState::new(ServerConfig::default()))).await;
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut plies = 0;
    let mut ended = 0;
    for id in [
        "brandubh",
        "tablut",
        "tawlbwrdd",
        "brandubh-classic",
        "tablut-linnaeus",
    ] {
        for game_no in 0..3 {
            let mut game = reference::Game::new(reference::Pos::start(id));
            let start = reference::start(id).to_owned();
            let mut history: Vec<String> = Vec::new();
            for ply in 0..200 {
                let at = format!("{id} game {game_no} ply {ply} after {history:?}");
                // The legal moves, alternately by POST and by GET.
                let answer: Value = if ply % 2 == 0 {
                    let req = test::TestRequest::post()
                        .uri("/v1/moves")
                        .set_json(json!({"variant": id, "position": start, "moves": history}))
                        .to_request();
                    test::call_and_read_body_json(&svc, req).await
                } else {
                    let uri = format!(
                        "/v1/moves?variant={id}&position={}&moves={}",
                        encode(&start),
                        encode(&history.join(","))
                    );
                    test::call_and_read_body_json(
                        &svc,
                        test::TestRequest::get().uri(&uri).to_request(),
                    )
                    .await
                };
                let now = game.now();
                assert_eq!(answer["position"], now.format(), "{at}");
                assert_eq!(answer["to_move"], side_name(now.side), "{at}");
                assert_eq!(answer["status"], status_of(game.end()), "{at}");
                let legal = api_moves(&answer);
                assert_eq!(legal, reference_moves(&game), "{at}");
                if legal.is_empty() {
                    // Over: any move is refused, at the `move` field.
                    let req = test::TestRequest::post()
                        .uri("/v1/play")
                        .set_json(json!({"variant": id, "position": start, "moves": history, "move": "a1-a2"}))
                        .to_request();
                    let res = test::call_service(&svc, req).await;
                    assert_eq!(res.status(), 422, "{at}");
                    let problem: Value = test::read_body_json(res).await;
                    assert_eq!(problem["type"], "/problems/game-over", "{at}");
                    ended += 1;
                    break;
                }
                let (mv, _) = &legal[rng.below(legal.len())];
                let req = test::TestRequest::post()
                    .uri("/v1/play")
                    .set_json(
                        json!({"variant": id, "position": start, "moves": history, "move": mv}),
                    )
                    .to_request();
                let played: Value = test::call_and_read_body_json(&svc, req).await;
                let rmove = game
                    .moves()
                    .into_iter()
                    .find(|&m| reference::move_name(m) == *mv)
                    .expect("the reference knows the move");
                let captures = names(&game.play(rmove));
                assert_eq!(played["move"], mv.as_str(), "{at}");
                let mut api_caps: Vec<String> =
                    serde_json::from_value(played["captures"].clone()).expect("captures");
                api_caps.sort();
                assert_eq!(api_caps, captures, "{at} {mv}");
                assert_eq!(played["position"], game.now().format(), "{at} {mv}");
                assert_eq!(played["to_move"], side_name(game.now().side), "{at} {mv}");
                assert_eq!(played["status"], status_of(game.end()), "{at} {mv}");
                history.push(mv.clone());
                plies += 1;
            }
        }
    }
    assert!(plies > 500, "only {plies} plies played");
    assert!(ended > 0, "no game reached its end");
}
