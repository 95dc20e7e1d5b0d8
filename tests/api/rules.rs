//! Rule sets sent as `rules` (an OpenTafl rules string or a rule object) through a
//! real server: a preset's own rules behave exactly as the preset, a custom rule set
//! plays its own rules (the same as `branan perft --rules`), every malformed rule set
//! gets a located 4xx problem, and two spellings of the same rules share the cache.

use std::process::Command;

use crate::real_server::{get_json as get, post, start};
use branan::api::Background;
use serde_json::{Value, json};

/// A preset's rule object as `GET /v1/variants/{id}` answers it.
fn rule_object(server: &Background, id: &str) -> Value {
    let (status, body) = get(server, &format!("/v1/variants/{id}"), &[]);
    assert_eq!(status, 200, "{body}");
    body
}

/// Brandubh with the king escaping to any edge square: no preset's rules. The
/// derived fields are left out, as a client writing rules would.
fn brandubh_edge() -> Value {
    json!({
        "name": "Brandubh, edge escape",
        "board_size": 7,
        "start_position": "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0",
        "escape": "edges",
        "king_capture": "weak",
        "throne_reentry": true,
        "repetition": {"occurrence": 3, "outcome": "draw"},
        "no_capture_limit": 120,
        "no_legal_moves": "loses",
        "attackers_eliminated_wins": true,
        "king_armed": true,
        "shieldwall": false,
        "edge_forts": false,
        "encirclement": false
    })
}

/// An analysis answer without what differs between two runs of the same search.
fn search_result(mut v: Value) -> Value {
    if let Some(o) = v.as_object_mut() {
        for k in ["time_ms", "nps", "cached"] {
            o.remove(k);
        }
    }
    v
}

fn perft_cli(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_branan"))
        .arg("perft")
        .args(args)
        .output()
        .expect("branan runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).trim().to_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_presets_own_rules_behave_exactly_as_the_preset() {
    let server = start();
    let (_, list) = get(&server, "/v1/variants", &[]);
    let variants = list["variants"].as_array().expect("variants").clone();
    assert_eq!(variants.len(), 9);
    let mut strings = 0;
    for v in &variants {
        let id = v["id"].as_str().unwrap();
        let by_id = post(&server, "/v1/moves", &json!({"variant": id}));
        assert_eq!(by_id.0, 200, "{id}: {}", by_id.1);
        assert!(
            by_id.1["rules_id"]
                .as_str()
                .is_some_and(|r| r.starts_with("r-")),
            "{id}: {}",
            by_id.1
        );
        assert_eq!(by_id.1["rules_id"], v["rules_id"], "{id}");
        let by_object = post(&server, "/v1/moves", &json!({"rules": v}));
        assert_eq!(by_object, by_id, "{id}: the rule object");
        // After a move too (the preset's repetition and counter rules apply).
        let (s, a) = post(
            &server,
            "/v1/play",
            &json!({"variant": id, "move": "d1-c1"}),
        );
        let (s2, b) = post(&server, "/v1/play", &json!({"rules": v, "move": "d1-c1"}));
        assert_eq!((s, &a), (s2, &b), "{id}: play");
        if let Some(text) = v["opentafl"].as_str() {
            strings += 1;
            let by_string = post(&server, "/v1/moves", &json!({"rules": text}));
            assert_eq!(by_string, by_id, "{id}: the OpenTafl string {text}");
        }
    }
    assert!(strings >= 1, "no preset has an OpenTafl string");
    // The same search, move for move and node for node.
    let brandubh = rule_object(&server, "brandubh");
    let (s1, a1) = post(
        &server,
        "/v1/analyze",
        &json!({"variant": "brandubh", "depth": 3}),
    );
    let (s2, a2) = post(
        &server,
        "/v1/analyze",
        &json!({"rules": brandubh, "depth": 3}),
    );
    assert_eq!((s1, s2), (200, 200), "{a1} {a2}");
    assert_eq!(search_result(a1.clone()), search_result(a2), "analyze");
    assert_eq!(a1["variant"], "brandubh");
    let fetlar = rule_object(&server, "fetlar");
    if let Some(text) = fetlar["opentafl"].as_str() {
        let (_, a1) = post(
            &server,
            "/v1/analyze",
            &json!({"variant": "fetlar", "depth": 2}),
        );
        let (_, a2) = post(&server, "/v1/analyze", &json!({"rules": text, "depth": 2}));
        assert_eq!(
            search_result(a1),
            search_result(a2),
            "analyze, OpenTafl string"
        );
    }
    server.stop();
}

#[test]
fn a_custom_rule_set_plays_its_own_rules_as_the_cli_does() {
    let server = start();
    let rules = brandubh_edge();
    let (status, custom) = post(&server, "/v1/moves", &json!({"rules": rules}));
    assert_eq!(status, 200, "{custom}");
    let rules_id = custom["rules_id"].as_str().expect("rules_id").to_owned();
    assert_eq!(
        custom["variant"],
        json!(rules_id),
        "a custom variant is named by its rules"
    );
    let moves: Vec<String> = custom["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap().to_owned())
        .collect();
    // Different from every preset's moves and id at the same position.
    let (_, list) = get(&server, "/v1/variants", &[]);
    for v in list["variants"].as_array().unwrap() {
        assert_ne!(v["rules_id"], json!(rules_id));
        if v["board_size"] == 7 {
            let (_, preset) = post(&server, "/v1/moves", &json!({"variant": v["id"]}));
            assert_ne!(preset["moves"], custom["moves"], "{}", v["id"]);
        }
    }
    // Perft 2 through the API (every reply to every first move) equals the CLI's.
    let mut api_perft2 = 0;
    for m in &moves {
        let (s, after) = post(&server, "/v1/moves", &json!({"rules": rules, "moves": [m]}));
        assert_eq!(s, 200, "{after}");
        api_perft2 += after["moves"].as_array().unwrap().len();
    }
    let text = rules.to_string();
    let (ok, out, err) = perft_cli(&["--rules", &text, "--depth", "1"]);
    assert!(ok, "{err}");
    assert_eq!(out.lines().last(), Some(moves.len().to_string().as_str()));
    let (ok, out, err) = perft_cli(&["--rules", &text, "--depth", "2"]);
    assert!(ok, "{err}");
    assert_eq!(out.lines().last(), Some(api_perft2.to_string().as_str()));
    let (_, custom3, _) = perft_cli(&["--rules", &text, "--depth", "3"]);
    for preset in ["brandubh", "brandubh-classic"] {
        let (_, preset3, _) = perft_cli(&["--variant", preset, "--depth", "3"]);
        assert_ne!(preset3, custom3, "{preset}");
    }
    // The king reaches an edge square that is no corner: a win under these rules only.
    let escape = json!({"rules": rules, "position": "7/7/7/3K3/7/7/t6 d 0", "move": "d4-d7"});
    let (s, played) = post(&server, "/v1/play", &escape);
    assert_eq!(s, 200, "{played}");
    assert_eq!(played["status"]["reason"], "king_escaped");
    assert_eq!(played["rules_id"], json!(rules_id));
    // The query forms take it as URL-encoded JSON.
    let (s, by_query) = get(&server, "/v1/moves", &[("rules", &text)]);
    assert_eq!((s, &by_query), (200, &custom));
    let (s, _) = get(&server, "/v1/board.svg", &[("rules", &text)]);
    assert_eq!(s, 200);
    server.stop();
}

/// Alea Evangelii (19x19, OpenTafl's string): its king escapes to a 2x2 block of
/// corner squares in each corner, which a rule object says as `corner_block`.
#[test]
fn alea_evangelii_plays_on_19x19_with_its_corner_blocks() {
    let server = start();
    let alea = "dim:19 name:Alea_Evangelii esc:c atkf:y cor:a1,a2,b1,b2,a18,b18,a19,b19,\
        r1,r2,s1,s2,r18,r19,s18,s19, cens: cenp:tcnkTCNK cenh: cenhe:tcnkTCNK tfr:w \
        start:/2t2t7t2t2/19/t4t7t4t/7t1t1t7/6t1T1T1t6/t1t2t7t2t1t/4t4T4t4/3t4T1T4t3/\
        4T2T1T1T2T4/3t2T1TKT1T2t3/4T2T1T1T2T4/3t4T1T4t3/4t4T4t4/t1t2t7t2t1t/6t1T1T1t6/\
        7t1t1t7/t4t7t4t/19/2t2t7t2t2/";
    let (status, start) = post(&server, "/v1/moves", &json!({"rules": alea}));
    assert_eq!(status, 200, "{start}");
    assert_eq!(start["size"], 19);
    // OpenTafl's own count of the first moves.
    assert_eq!(start["moves"].as_array().map(Vec::len), Some(580));
    // A rule object says it as `corner_block`: on 7x7, b2 is then a corner.
    let mut object = brandubh_edge();
    object["escape"] = json!("corners");
    object["corner_block"] = json!(2);
    let on_b3 = json!({"rules": object, "position": "7/7/7/6t/1K5/7/7 d 0", "move": "b3-b2"});
    let (status, played) = post(&server, "/v1/play", &on_b3);
    assert_eq!(status, 200, "{played}");
    assert_eq!(played["status"]["reason"], "king_escaped", "{played}");
    object["shieldwall"] = json!(true);
    let (status, refused) = post(&server, "/v1/moves", &json!({"rules": object}));
    assert_eq!(
        (status, &refused["field"]),
        (422, &json!("rules.shieldwall")),
        "{refused}"
    );
    // The king on b5 reaches b2, a square of the corner block: he has escaped.
    let mut rows = vec!["19".to_owned(); 19];
    rows[19 - 5] = "1K17".to_owned();
    rows[19 - 10] = "18t".to_owned();
    let position = format!("{} d 0", rows.join("/"));
    let (status, played) = post(
        &server,
        "/v1/play",
        &json!({"rules": alea, "position": position, "move": "b5-b2"}),
    );
    assert_eq!(status, 200, "{played}");
    assert_eq!(played["status"]["reason"], "king_escaped", "{played}");
    let (status, analysis) = post(
        &server,
        "/v1/analyze",
        &json!({"rules": alea, "position": position, "depth": 2}),
    );
    assert_eq!(status, 200, "{analysis}");
    assert_eq!(analysis["score"]["win"], 1, "{analysis}");
    let (status, _) = get(&server, "/v1/board.svg", &[("rules", alea)]);
    assert_eq!(status, 200);
    server.stop();
}

#[test]
fn the_cache_is_shared_between_spellings_of_the_same_rules() {
    let server = start();
    let rules = brandubh_edge();
    let (s, first) = post(&server, "/v1/analyze", &json!({"rules": rules, "depth": 3}));
    assert_eq!(s, 200, "{first}");
    assert_eq!(first["cached"], false);
    // Another spelling: another name, OpenTafl's form of the start, the counter left
    // out, a derived field given.
    let mut other = rules.clone();
    other["name"] = json!("My edge Brandubh");
    other["start_position"] = json!("/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ a");
    other["throne"] = json!("d4");
    let (s, second) = post(&server, "/v1/analyze", &json!({"rules": other, "depth": 3}));
    assert_eq!(s, 200, "{second}");
    assert_eq!(second["cached"], true, "{second}");
    assert_eq!(second["rules_id"], first["rules_id"]);
    assert_eq!(search_result(second), search_result(first));
    // A preset by id, then by its rule object.
    let (_, a) = post(
        &server,
        "/v1/analyze",
        &json!({"variant": "tablut", "depth": 2}),
    );
    assert_eq!(a["cached"], false);
    let tablut = rule_object(&server, "tablut");
    let (_, b) = post(
        &server,
        "/v1/analyze",
        &json!({"rules": tablut, "depth": 2}),
    );
    assert_eq!(b["cached"], true, "{b}");
    server.stop();
}

#[test]
fn malformed_rule_sets_get_located_client_problems() {
    let server = start();
    let base = brandubh_edge();
    let with = |field: &str, value: Value| {
        let mut r = base.clone();
        r[field] = value;
        json!({"rules": r})
    };
    let without = |field: &str| {
        let mut r = base.clone();
        r.as_object_mut().unwrap().remove(field);
        json!({"rules": r})
    };
    let start = "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
    // (what, body, status, field, key)
    let cases: Vec<(&str, Value, u16, &str, Option<&str>)> = vec![
        (
            "13x13 with a 7x7 start",
            with("board_size", json!(13)),
            422,
            "rules.start_position",
            None,
        ),
        (
            "21x21",
            with("board_size", json!(21)),
            422,
            "rules.board_size",
            None,
        ),
        (
            "even size",
            with("board_size", json!(8)),
            422,
            "rules.board_size",
            None,
        ),
        (
            "size over a byte",
            with("board_size", json!(300)),
            400,
            "rules.board_size",
            None,
        ),
        (
            "size as text",
            with("board_size", json!("7")),
            400,
            "rules.board_size",
            None,
        ),
        (
            "start for another size",
            with("board_size", json!(9)),
            422,
            "rules.start_position",
            None,
        ),
        (
            "bad start",
            with(
                "start_position",
                json!("3t3/3x3/3T3/ttTKTtt/3T3/3t3/3t3 a 0"),
            ),
            422,
            "rules.start_position",
            None,
        ),
        (
            "no king",
            with(
                "start_position",
                json!("3t3/3t3/3T3/ttT1Ttt/3T3/3t3/3t3 a 0"),
            ),
            422,
            "rules.start_position",
            None,
        ),
        (
            "soldier on the throne",
            with(
                "start_position",
                json!("3t3/3t3/3T3/ttTtTtt/3K3/3t3/3t3 a 0"),
            ),
            422,
            "rules.start_position",
            None,
        ),
        (
            "unknown field",
            with("kings", json!(1)),
            400,
            "rules.kings",
            None,
        ),
        (
            "missing field",
            without("escape"),
            400,
            "rules.escape",
            None,
        ),
        (
            "missing nullable field",
            without("no_capture_limit"),
            400,
            "rules.no_capture_limit",
            None,
        ),
        (
            "unknown escape",
            with("escape", json!("sideways")),
            400,
            "rules.escape",
            None,
        ),
        (
            "boolean as text",
            with("king_armed", json!("yes")),
            400,
            "rules.king_armed",
            None,
        ),
        (
            "wrong derived field",
            with("throne", json!("a1")),
            422,
            "rules.throne",
            None,
        ),
        (
            "king armed as hammer, unarmed",
            {
                let mut b = with("king_armed", json!(false));
                b["rules"]["king_armed_as"] = json!("hammer");
                b
            },
            422,
            "rules.king_armed_as",
            None,
        ),
        (
            "shieldwall option without a shieldwall",
            with("shieldwall_flanking", json!(false)),
            422,
            "rules.shieldwall_flanking",
            None,
        ),
        (
            "Linnaean capture without a throne",
            {
                let mut b = with("has_throne", json!(false));
                b["rules"]["linnaean_capture"] = json!(true);
                b
            },
            422,
            "rules.linnaean_capture",
            None,
        ),
        (
            "unknown king_armed_as",
            with("king_armed_as", json!("sword")),
            400,
            "rules.king_armed_as",
            None,
        ),
        (
            "repetition out of range",
            with("repetition", json!({"occurrence": 9, "outcome": "draw"})),
            422,
            "rules.repetition.occurrence",
            None,
        ),
        ("rules as a number", json!({"rules": 5}), 400, "rules", None),
        (
            "rules as a list",
            json!({"rules": [1, 2]}),
            400,
            "rules",
            None,
        ),
        (
            "unknown key",
            json!({"rules": format!("dim:7 foo:y start:{start}")}),
            422,
            "rules",
            Some("foo"),
        ),
        (
            "unsupported key",
            json!({"rules": format!("dim:7 ber:c start:{start}")}),
            422,
            "rules",
            Some("ber"),
        ),
        (
            "a corner block of 3",
            with("corner_block", json!(3)),
            422,
            "rules.corner_block",
            None,
        ),
        (
            "corner squares OpenTafl lists that are no corner block",
            json!({"rules": "dim:7 cor:a1,b2,g1,a7,g7, start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"}),
            422,
            "rules",
            Some("cor"),
        ),
        (
            "Linnaean capture without a throne, as a string",
            json!({"rules": format!("dim:7 cen: linc:y start:/{start}")}),
            422,
            "rules",
            Some("linc"),
        ),
        (
            "21x21 string",
            json!({"rules": "dim:21 start:/10t10/21/21/21/21/21/21/21/21/21/10K10/21/21/21/21/21/21/21/21/21/21/"}),
            422,
            "rules",
            Some("dim"),
        ),
        (
            "string without a king",
            json!({"rules": "dim:7 start:/3t3/3t3/3T3/ttT1Ttt/3T3/3t3/3t3/"}),
            422,
            "rules",
            Some("start"),
        ),
        (
            "speed limit of zero (string)",
            json!({"rules": format!("dim:7 spd:0 start:{start}")}),
            422,
            "rules",
            Some("spd"),
        ),
        (
            "per-side speed limits",
            json!({"rules": format!("dim:7 spd:1,2, start:{start}")}),
            422,
            "rules",
            Some("spd"),
        ),
        (
            "fortress on the throne (string)",
            json!({"rules": format!("dim:7 afor:d4, start:/{start}")}),
            422,
            "rules",
            Some("afor"),
        ),
        (
            "malformed inverted start",
            json!({"rules": "dim:7 starti:3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3"}),
            422,
            "rules",
            Some("starti"),
        ),
        (
            "speed limit of zero",
            with("speed_limits", json!({"king": 0})),
            422,
            "rules.speed_limits.king",
            None,
        ),
        (
            "fortress square off the board",
            with("attacker_forts", json!({"squares": ["k11"]})),
            422,
            "rules.attacker_forts.squares",
            None,
        ),
        (
            "fortress square not a square",
            with("attacker_forts", json!({"squares": ["z99"]})),
            400,
            "rules.attacker_forts.squares",
            None,
        ),
        (
            "fortresses overlapping",
            {
                let mut r = base.clone();
                r["attacker_forts"] = json!({"squares": ["b2", "c2"]});
                r["defender_forts"] = json!({"squares": ["b2"]});
                json!({"rules": r})
            },
            422,
            "rules.defender_forts.squares",
            None,
        ),
        (
            "variant and rules",
            json!({"variant": "brandubh", "rules": base}),
            422,
            "rules",
            None,
        ),
        ("neither", json!({"moves": []}), 422, "variant", None),
        (
            "too long",
            json!({"rules": format!("dim:7 name:{} start:{start}", "x".repeat(5000))}),
            413,
            "rules",
            None,
        ),
    ];
    let mut failures = Vec::new();
    for (what, body, status, field, key) in &cases {
        for path in ["/v1/moves", "/v1/analyze"] {
            let (s, p) = post(&server, path, body);
            let ok = s == *status
                && p["status"] == json!(status)
                && p["field"] == json!(field)
                && key.is_none_or(|k| p["key"] == json!(k))
                && p["detail"].as_str().is_some_and(|d| !d.is_empty());
            if !ok {
                failures.push(format!(
                    "{what} on {path}: want {status} {field} {key:?}, got {s} {p}"
                ));
            }
        }
    }
    // The start's square is named.
    let (_, p) = post(&server, "/v1/moves", &cases[8].1);
    assert_eq!(p["square"], "d4", "{p}");
    // A batch item's problem is located in the batch.
    let (s, batch) = post(
        &server,
        "/v1/analyze/batch",
        &json!({"items": [with("board_size", json!(13)), {"variant": "brandubh", "depth": 1}]}),
    );
    assert_eq!(s, 200, "{batch}");
    assert_eq!(
        batch["results"][0]["field"], "items[0].rules.start_position",
        "{batch}"
    );
    assert_eq!(batch["results"][1]["variant"], "brandubh");
    // The query forms.
    let (s, p) = get(&server, "/v1/moves", &[("rules", "{\"board_size\": ")]);
    assert_eq!((s, &p["field"]), (400, &json!("rules")), "{p}");
    let (s, p) = get(
        &server,
        "/v1/moves",
        &[("rules", "dim:7 foo:y"), ("variant", "brandubh")],
    );
    assert_eq!((s, &p["field"]), (422, &json!("rules")), "{p}");
    let (s, p) = get(&server, "/v1/analyze/stream", &[("rules", "dim:7 foo:y")]);
    assert_eq!((s, &p["key"]), (422, &json!("foo")), "{p}");
    let (s, p) = get(&server, "/v1/board.svg", &[("rules", &"x".repeat(5000))]);
    assert_eq!((s, &p["field"]), (413, &json!("rules")), "{p}");
    server.stop();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn perft_takes_rules_instead_of_a_variant() {
    let brandubh = branan::json::variant::VariantDto::from(
        branan::rules::AnyVariant::by_id("brandubh").unwrap(),
    );
    let text = serde_json::to_string(&brandubh).unwrap();
    let (ok, by_rules, err) = perft_cli(&["--rules", &text, "--depth", "3"]);
    assert!(ok, "{err}");
    let (_, by_id, _) = perft_cli(&["--variant", "brandubh", "--depth", "3"]);
    assert_eq!(by_rules, by_id);
    let (ok, _, err) = perft_cli(&["--variant", "brandubh", "--rules", &text, "--depth", "1"]);
    assert!(!ok);
    assert!(
        err.contains("--rules") && err.contains("--variant"),
        "{err}"
    );
    let (ok, _, err) = perft_cli(&["--rules", "{\"board_size\": 13}", "--depth", "1"]);
    assert!(!ok);
    assert!(err.contains("start_position"), "{err}");
    let (ok, _, err) = perft_cli(&["--rules", "dim:7 foo:y", "--depth", "1"]);
    assert!(!ok);
    assert!(err.contains("`foo`"), "{err}");
}
