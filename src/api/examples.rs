//! The documented examples' answers, as the OpenAPI document shows them.
//!
//! `tests/api/spec.rs` replays every example request against the service and checks
//! that the answer is exactly the one here. To rewrite them after a deliberate change:
//! `cargo test --test api spec::print_examples -- --ignored --nocapture`.

use serde_json::{Value, json};

pub fn variants_all() -> Value {
    json!({
        "variants": [
            {
                "attackers_eliminated_wins": true,
                "board_size": 7,
                "description": "The small Irish game on 7x7: the king flees to a corner and is captured like any piece.",
                "edge_forts": false,
                "encirclement": false,
                "escape": "corners",
                "escape_squares": [
                    "a1",
                    "g1",
                    "a7",
                    "g7"
                ],
                "hostile_squares": [
                    "a1",
                    "g1",
                    "d4",
                    "a7",
                    "g7"
                ],
                "rules_id": "r-8cfc3e604d34",
                "id": "brandubh",
                "king_armed": true,
                "king_armed_as": "hammer_and_anvil",
                "shieldwall_flanking": true,
                "shieldwall_corners": true,
                "king_capture": "weak",
                "name": "Brandubh",
                "no_capture_limit": 120,
                "no_legal_moves": "loses",
                "repetition": {
                    "occurrence": 3,
                    "outcome": "draw"
                },
                "restricted_squares": [
                    "a1",
                    "g1",
                    "d4",
                    "a7",
                    "g7"
                ],
                "shieldwall": false,
                "source": "Brandubh, the Irish tafl game, in a modern reconstruction: a draw by threefold repetition or after 120 plies without a capture",
                "start_position": "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0",
                "throne": "d4",
                "has_throne": true,
                "empty_throne_hostile": {"attackers": true, "defenders": true, "king": true},
                "occupied_throne_hostile": {"attackers": true, "defenders": false, "king": false},
                "corners_hostile": {"attackers": true, "defenders": true, "king": true},
                "throne_reentry": true
            },
            {
                "attackers_eliminated_wins": true,
                "board_size": 9,
                "description": "The 9x9 Sami game: the king escapes to any edge square.",
                "edge_forts": false,
                "encirclement": false,
                "escape": "edges",
                "escape_squares": [
                    "a1",
                    "b1",
                    "c1",
                    "d1",
                    "e1",
                    "f1",
                    "g1",
                    "h1",
                    "i1",
                    "a2",
                    "i2",
                    "a3",
                    "i3",
                    "a4",
                    "i4",
                    "a5",
                    "i5",
                    "a6",
                    "i6",
                    "a7",
                    "i7",
                    "a8",
                    "i8",
                    "a9",
                    "b9",
                    "c9",
                    "d9",
                    "e9",
                    "f9",
                    "g9",
                    "h9",
                    "i9"
                ],
                "hostile_squares": [
                    "e5"
                ],
                "rules_id": "r-bcd9cc58861a",
                "id": "tablut",
                "king_armed": true,
                "king_armed_as": "hammer_and_anvil",
                "shieldwall_flanking": true,
                "shieldwall_corners": true,
                "king_capture": "throne_four_beside_three",
                "name": "Tablut",
                "no_capture_limit": 120,
                "no_legal_moves": "loses",
                "repetition": {
                    "occurrence": 3,
                    "outcome": "draw"
                },
                "restricted_squares": [
                    "e5"
                ],
                "shieldwall": false,
                "source": "Tablut after Linnaeus's 1732 diary, as commonly played today: a draw by threefold repetition or after 120 plies without a capture",
                "start_position": "3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3 a 0",
                "throne": "e5",
                "has_throne": true,
                "empty_throne_hostile": {"attackers": true, "defenders": true, "king": true},
                "occupied_throne_hostile": {"attackers": true, "defenders": false, "king": false},
                "corners_hostile": {"attackers": true, "defenders": true, "king": true},
                "throne_reentry": true
            },
            {
                "attackers_eliminated_wins": false,
                "board_size": 11,
                "description": "The Welsh game on 11x11: the king escapes to any edge square.",
                "edge_forts": false,
                "encirclement": false,
                "escape": "edges",
                "escape_squares": [
                    "a1",
                    "b1",
                    "c1",
                    "d1",
                    "e1",
                    "f1",
                    "g1",
                    "h1",
                    "i1",
                    "j1",
                    "k1",
                    "a2",
                    "k2",
                    "a3",
                    "k3",
                    "a4",
                    "k4",
                    "a5",
                    "k5",
                    "a6",
                    "k6",
                    "a7",
                    "k7",
                    "a8",
                    "k8",
                    "a9",
                    "k9",
                    "a10",
                    "k10",
                    "a11",
                    "b11",
                    "c11",
                    "d11",
                    "e11",
                    "f11",
                    "g11",
                    "h11",
                    "i11",
                    "j11",
                    "k11"
                ],
                "hostile_squares": [
                    "f6"
                ],
                "rules_id": "r-7413100bcfff",
                "id": "tawlbwrdd",
                "king_armed": true,
                "king_armed_as": "hammer_and_anvil",
                "shieldwall_flanking": true,
                "shieldwall_corners": true,
                "king_capture": "throne_four_beside_three",
                "name": "Tawlbwrdd",
                "no_capture_limit": null,
                "no_legal_moves": "draw",
                "repetition": {
                    "occurrence": 2,
                    "outcome": "draw"
                },
                "restricted_squares": [
                    "f6"
                ],
                "shieldwall": false,
                "source": "Tawlbwrdd after Robert ap Ifan's Welsh manuscript of 1587, as reconstructed by R. C. Bell",
                "start_position": "4ttt4/4t1t4/5t5/5T5/tt2TTT2tt/t1tTTKTTt1t/tt2TTT2tt/5T5/5t5/4t1t4/4ttt4 a 0",
                "throne": "f6",
                "has_throne": true,
                "empty_throne_hostile": {"attackers": true, "defenders": true, "king": true},
                "occupied_throne_hostile": {"attackers": true, "defenders": false, "king": false},
                "corners_hostile": {"attackers": true, "defenders": true, "king": true},
                "throne_reentry": false
            },
            {
                "attackers_eliminated_wins": false,
                "board_size": 7,
                "description": "Brandubh with a strong king on the throne; repeating a position three times loses.",
                "edge_forts": false,
                "encirclement": false,
                "escape": "corners",
                "escape_squares": [
                    "a1",
                    "g1",
                    "a7",
                    "g7"
                ],
                "hostile_squares": [
                    "a1",
                    "g1",
                    "d4",
                    "a7",
                    "g7"
                ],
                "rules_id": "r-4c31ec156a68",
                "id": "brandubh-classic",
                "king_armed": true,
                "king_armed_as": "hammer_and_anvil",
                "shieldwall_flanking": true,
                "shieldwall_corners": true,
                "king_capture": "throne_four",
                "name": "Brandubh (classic)",
                "no_capture_limit": null,
                "no_legal_moves": "loses",
                "repetition": {
                    "occurrence": 3,
                    "outcome": "mover_loses"
                },
                "restricted_squares": [
                    "a1",
                    "g1",
                    "d4",
                    "a7",
                    "g7"
                ],
                "shieldwall": false,
                "source": "Brandubh in the reconstruction found in most tafl books and apps",
                "start_position": "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0",
                "throne": "d4",
                "has_throne": true,
                "empty_throne_hostile": {"attackers": true, "defenders": true, "king": false},
                "occupied_throne_hostile": {"attackers": true, "defenders": false, "king": false},
                "corners_hostile": {"attackers": true, "defenders": true, "king": true},
                "throne_reentry": true
            },
            {
                "attackers_eliminated_wins": false,
                "board_size": 9,
                "description": "Tablut as Linnaeus noted it: the king may not return to the throne; a repeated position is a draw.",
                "edge_forts": false,
                "encirclement": false,
                "escape": "edges",
                "escape_squares": [
                    "a1",
                    "b1",
                    "c1",
                    "d1",
                    "e1",
                    "f1",
                    "g1",
                    "h1",
                    "i1",
                    "a2",
                    "i2",
                    "a3",
                    "i3",
                    "a4",
                    "i4",
                    "a5",
                    "i5",
                    "a6",
                    "i6",
                    "a7",
                    "i7",
                    "a8",
                    "i8",
                    "a9",
                    "b9",
                    "c9",
                    "d9",
                    "e9",
                    "f9",
                    "g9",
                    "h9",
                    "i9"
                ],
                "hostile_squares": [
                    "e5"
                ],
                "rules_id": "r-93d91c750199",
                "id": "tablut-linnaeus",
                "king_armed": true,
                "king_armed_as": "hammer_and_anvil",
                "shieldwall_flanking": true,
                "shieldwall_corners": true,
                "king_capture": "throne_four_beside_three",
                "name": "Tablut (Linnaeus)",
                "no_capture_limit": null,
                "no_legal_moves": "draw",
                "repetition": {
                    "occurrence": 2,
                    "outcome": "draw"
                },
                "restricted_squares": [
                    "e5"
                ],
                "shieldwall": false,
                "source": "Tablut after Linnaeus's 1732 diary, in its most literal reading",
                "start_position": "3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3 a 0",
                "throne": "e5",
                "has_throne": true,
                "empty_throne_hostile": {"attackers": true, "defenders": true, "king": true},
                "occupied_throne_hostile": {"attackers": true, "defenders": false, "king": false},
                "corners_hostile": {"attackers": true, "defenders": true, "king": true},
                "throne_reentry": false
            },
            {
                "attackers_eliminated_wins": false,
                "board_size": 11,
                "description": "The 11x11 tournament game: an armed king flees to a corner, captured only from four sides; shieldwalls, edge forts and encirclement.",
                "edge_forts": true,
                "encirclement": true,
                "escape": "corners",
                "escape_squares": [
                    "a1",
                    "k1",
                    "a11",
                    "k11"
                ],
                "hostile_squares": [
                    "a1",
                    "k1",
                    "f6",
                    "a11",
                    "k11"
                ],
                "rules_id": "r-8abf914933f7",
                "id": "copenhagen",
                "king_armed": true,
                "king_armed_as": "hammer_and_anvil",
                "shieldwall_flanking": true,
                "shieldwall_corners": true,
                "king_capture": "four_sides",
                "name": "Copenhagen Hnefatafl",
                "no_capture_limit": null,
                "no_legal_moves": "loses",
                "repetition": {
                    "occurrence": 3,
                    "outcome": "defenders_lose"
                },
                "restricted_squares": [
                    "a1",
                    "k1",
                    "f6",
                    "a11",
                    "k11"
                ],
                "shieldwall": true,
                "source": "Copenhagen Hnefatafl, the rules of the World Tafl Federation's tournaments",
                "start_position": "3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3 a 0",
                "throne": "f6",
                "has_throne": true,
                "empty_throne_hostile": {"attackers": true, "defenders": true, "king": true},
                "occupied_throne_hostile": {"attackers": true, "defenders": false, "king": false},
                "corners_hostile": {"attackers": true, "defenders": true, "king": true},
                "throne_reentry": true
            },
            {
                "attackers_eliminated_wins": false,
                "board_size": 11,
                "description": "The older 11x11 standard: an armed king flees to a corner, captured only from four sides; encirclement wins, repetition draws.",
                "edge_forts": false,
                "encirclement": true,
                "escape": "corners",
                "escape_squares": [
                    "a1",
                    "k1",
                    "a11",
                    "k11"
                ],
                "hostile_squares": [
                    "a1",
                    "k1",
                    "f6",
                    "a11",
                    "k11"
                ],
                "opentafl": "dim:11 name:Fetlar_Hnefatafl atkf:y start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/",
                "rules_id": "r-36e711e75924",
                "id": "fetlar",
                "king_armed": true,
                "king_armed_as": "hammer_and_anvil",
                "shieldwall_flanking": true,
                "shieldwall_corners": true,
                "king_capture": "four_sides",
                "name": "Fetlar Hnefatafl",
                "no_capture_limit": null,
                "no_legal_moves": "loses",
                "repetition": {
                    "occurrence": 3,
                    "outcome": "draw"
                },
                "restricted_squares": [
                    "a1",
                    "k1",
                    "f6",
                    "a11",
                    "k11"
                ],
                "shieldwall": false,
                "source": "Fetlar Hnefatafl, the rules of the Fetlar Hnefatafl Panel (2007)",
                "start_position": "3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3 a 0",
                "throne": "f6",
                "has_throne": true,
                "empty_throne_hostile": {"attackers": true, "defenders": true, "king": true},
                "occupied_throne_hostile": {"attackers": true, "defenders": false, "king": false},
                "corners_hostile": {"attackers": true, "defenders": true, "king": true},
                "throne_reentry": true
            }
        ]
    })
}

pub fn variant_brandubh() -> Value {
    json!({
        "attackers_eliminated_wins": true,
        "board_size": 7,
        "description": "The small Irish game on 7x7: the king flees to a corner and is captured like any piece.",
        "edge_forts": false,
        "encirclement": false,
        "escape": "corners",
        "escape_squares": [
            "a1",
            "g1",
            "a7",
            "g7"
        ],
        "hostile_squares": [
            "a1",
            "g1",
            "d4",
            "a7",
            "g7"
        ],
        "rules_id": "r-8cfc3e604d34",
        "id": "brandubh",
        "king_armed": true,
        "king_armed_as": "hammer_and_anvil",
        "shieldwall_flanking": true,
        "shieldwall_corners": true,
        "king_capture": "weak",
        "name": "Brandubh",
        "no_capture_limit": 120,
        "no_legal_moves": "loses",
        "repetition": {
            "occurrence": 3,
            "outcome": "draw"
        },
        "restricted_squares": [
            "a1",
            "g1",
            "d4",
            "a7",
            "g7"
        ],
        "shieldwall": false,
        "source": "Brandubh, the Irish tafl game, in a modern reconstruction: a draw by threefold repetition or after 120 plies without a capture",
        "start_position": "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0",
        "throne": "d4",
        "has_throne": true,
        "empty_throne_hostile": {"attackers": true, "defenders": true, "king": true},
        "occupied_throne_hostile": {"attackers": true, "defenders": false, "king": false},
        "corners_hostile": {"attackers": true, "defenders": true, "king": true},
        "throne_reentry": true
    })
}

pub fn variant_unknown() -> Value {
    json!({
        "detail": "unknown variant \"chess\" (one of: brandubh, tablut, tawlbwrdd, brandubh-classic, tablut-linnaeus, copenhagen, fetlar)",
        "status": 404,
        "title": "Unknown variant",
        "type": "/problems/unknown-variant"
    })
}

pub fn moves_start() -> Value {
    json!({
        "moves": [
            {
                "captures": [],
                "from": "d1",
                "move": "d1-e1",
                "to": "e1"
            },
            {
                "captures": [],
                "from": "d1",
                "move": "d1-f1",
                "to": "f1"
            },
            {
                "captures": [],
                "from": "d1",
                "move": "d1-c1",
                "to": "c1"
            },
            {
                "captures": [],
                "from": "d1",
                "move": "d1-b1",
                "to": "b1"
            },
            {
                "captures": [],
                "from": "d2",
                "move": "d2-e2",
                "to": "e2"
            },
            {
                "captures": [],
                "from": "d2",
                "move": "d2-f2",
                "to": "f2"
            },
            {
                "captures": [],
                "from": "d2",
                "move": "d2-g2",
                "to": "g2"
            },
            {
                "captures": [],
                "from": "d2",
                "move": "d2-c2",
                "to": "c2"
            },
            {
                "captures": [],
                "from": "d2",
                "move": "d2-b2",
                "to": "b2"
            },
            {
                "captures": [],
                "from": "d2",
                "move": "d2-a2",
                "to": "a2"
            },
            {
                "captures": [],
                "from": "a4",
                "move": "a4-a5",
                "to": "a5"
            },
            {
                "captures": [],
                "from": "a4",
                "move": "a4-a6",
                "to": "a6"
            },
            {
                "captures": [],
                "from": "a4",
                "move": "a4-a3",
                "to": "a3"
            },
            {
                "captures": [],
                "from": "a4",
                "move": "a4-a2",
                "to": "a2"
            },
            {
                "captures": [],
                "from": "b4",
                "move": "b4-b5",
                "to": "b5"
            },
            {
                "captures": [],
                "from": "b4",
                "move": "b4-b6",
                "to": "b6"
            },
            {
                "captures": [],
                "from": "b4",
                "move": "b4-b7",
                "to": "b7"
            },
            {
                "captures": [],
                "from": "b4",
                "move": "b4-b3",
                "to": "b3"
            },
            {
                "captures": [],
                "from": "b4",
                "move": "b4-b2",
                "to": "b2"
            },
            {
                "captures": [],
                "from": "b4",
                "move": "b4-b1",
                "to": "b1"
            },
            {
                "captures": [],
                "from": "f4",
                "move": "f4-f5",
                "to": "f5"
            },
            {
                "captures": [],
                "from": "f4",
                "move": "f4-f6",
                "to": "f6"
            },
            {
                "captures": [],
                "from": "f4",
                "move": "f4-f7",
                "to": "f7"
            },
            {
                "captures": [],
                "from": "f4",
                "move": "f4-f3",
                "to": "f3"
            },
            {
                "captures": [],
                "from": "f4",
                "move": "f4-f2",
                "to": "f2"
            },
            {
                "captures": [],
                "from": "f4",
                "move": "f4-f1",
                "to": "f1"
            },
            {
                "captures": [],
                "from": "g4",
                "move": "g4-g5",
                "to": "g5"
            },
            {
                "captures": [],
                "from": "g4",
                "move": "g4-g6",
                "to": "g6"
            },
            {
                "captures": [],
                "from": "g4",
                "move": "g4-g3",
                "to": "g3"
            },
            {
                "captures": [],
                "from": "g4",
                "move": "g4-g2",
                "to": "g2"
            },
            {
                "captures": [],
                "from": "d6",
                "move": "d6-e6",
                "to": "e6"
            },
            {
                "captures": [],
                "from": "d6",
                "move": "d6-f6",
                "to": "f6"
            },
            {
                "captures": [],
                "from": "d6",
                "move": "d6-g6",
                "to": "g6"
            },
            {
                "captures": [],
                "from": "d6",
                "move": "d6-c6",
                "to": "c6"
            },
            {
                "captures": [],
                "from": "d6",
                "move": "d6-b6",
                "to": "b6"
            },
            {
                "captures": [],
                "from": "d6",
                "move": "d6-a6",
                "to": "a6"
            },
            {
                "captures": [],
                "from": "d7",
                "move": "d7-e7",
                "to": "e7"
            },
            {
                "captures": [],
                "from": "d7",
                "move": "d7-f7",
                "to": "f7"
            },
            {
                "captures": [],
                "from": "d7",
                "move": "d7-c7",
                "to": "c7"
            },
            {
                "captures": [],
                "from": "d7",
                "move": "d7-b7",
                "to": "b7"
            }
        ],
        "pieces": {
            "attackers": [
                "d1",
                "d2",
                "a4",
                "b4",
                "f4",
                "g4",
                "d6",
                "d7"
            ],
            "defenders": [
                "d3",
                "c4",
                "e4",
                "d5"
            ],
            "king": "d4"
        },
        "position": "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0",
        "size": 7,
        "status": {
            "over": false,
            "reason": null,
            "winner": null
        },
        "to_move": "attackers",
        "rules_id": "r-8cfc3e604d34",
        "variant": "brandubh"
    })
}

pub fn moves_king_in_danger() -> Value {
    json!({
        "moves": [
            {
                "captures": [],
                "from": "c4",
                "move": "c4-c5",
                "to": "c5"
            },
            {
                "captures": [],
                "from": "c4",
                "move": "c4-c6",
                "to": "c6"
            },
            {
                "captures": [],
                "from": "c4",
                "move": "c4-c7",
                "to": "c7"
            },
            {
                "captures": [],
                "from": "c4",
                "move": "c4-c3",
                "to": "c3"
            },
            {
                "captures": [],
                "from": "c4",
                "move": "c4-c2",
                "to": "c2"
            },
            {
                "captures": [],
                "from": "c4",
                "move": "c4-c1",
                "to": "c1"
            },
            {
                "captures": [],
                "from": "c4",
                "move": "c4-b4",
                "to": "b4"
            },
            {
                "captures": [],
                "from": "c4",
                "move": "c4-a4",
                "to": "a4"
            },
            {
                "captures": [],
                "from": "e7",
                "move": "e7-f7",
                "to": "f7"
            },
            {
                "captures": [],
                "from": "e7",
                "move": "e7-e6",
                "to": "e6"
            },
            {
                "captures": [],
                "from": "e7",
                "move": "e7-e5",
                "to": "e5"
            },
            {
                "captures": [
                    "d4"
                ],
                "from": "e7",
                "move": "e7-e4",
                "to": "e4"
            },
            {
                "captures": [],
                "from": "e7",
                "move": "e7-e3",
                "to": "e3"
            },
            {
                "captures": [],
                "from": "e7",
                "move": "e7-e2",
                "to": "e2"
            },
            {
                "captures": [],
                "from": "e7",
                "move": "e7-e1",
                "to": "e1"
            },
            {
                "captures": [],
                "from": "e7",
                "move": "e7-d7",
                "to": "d7"
            },
            {
                "captures": [],
                "from": "e7",
                "move": "e7-c7",
                "to": "c7"
            },
            {
                "captures": [],
                "from": "e7",
                "move": "e7-b7",
                "to": "b7"
            }
        ],
        "pieces": {
            "attackers": [
                "c4",
                "e7"
            ],
            "defenders": [],
            "king": "d4"
        },
        "position": "4t2/7/7/2tK3/7/7/7 a 0",
        "size": 7,
        "status": {
            "over": false,
            "reason": null,
            "winner": null
        },
        "to_move": "attackers",
        "rules_id": "r-8cfc3e604d34",
        "variant": "brandubh"
    })
}

pub fn moves_after_moves() -> Value {
    json!({
        "moves": [
            {
                "captures": [],
                "from": "c5",
                "move": "c5-c6",
                "to": "c6"
            },
            {
                "captures": [],
                "from": "c5",
                "move": "c5-c7",
                "to": "c7"
            },
            {
                "captures": [],
                "from": "c5",
                "move": "c5-d5",
                "to": "d5"
            },
            {
                "captures": [],
                "from": "c5",
                "move": "c5-e5",
                "to": "e5"
            },
            {
                "captures": [],
                "from": "c5",
                "move": "c5-f5",
                "to": "f5"
            },
            {
                "captures": [],
                "from": "c5",
                "move": "c5-g5",
                "to": "g5"
            },
            {
                "captures": [],
                "from": "c5",
                "move": "c5-c4",
                "to": "c4"
            },
            {
                "captures": [],
                "from": "c5",
                "move": "c5-c3",
                "to": "c3"
            },
            {
                "captures": [],
                "from": "c5",
                "move": "c5-c2",
                "to": "c2"
            },
            {
                "captures": [],
                "from": "c5",
                "move": "c5-c1",
                "to": "c1"
            },
            {
                "captures": [],
                "from": "c5",
                "move": "c5-b5",
                "to": "b5"
            },
            {
                "captures": [],
                "from": "c5",
                "move": "c5-a5",
                "to": "a5"
            },
            {
                "captures": [],
                "from": "e7",
                "move": "e7-f7",
                "to": "f7"
            },
            {
                "captures": [],
                "from": "e7",
                "move": "e7-e6",
                "to": "e6"
            },
            {
                "captures": [],
                "from": "e7",
                "move": "e7-e5",
                "to": "e5"
            },
            {
                "captures": [],
                "from": "e7",
                "move": "e7-e4",
                "to": "e4"
            },
            {
                "captures": [],
                "from": "e7",
                "move": "e7-e3",
                "to": "e3"
            },
            {
                "captures": [],
                "from": "e7",
                "move": "e7-e2",
                "to": "e2"
            },
            {
                "captures": [],
                "from": "e7",
                "move": "e7-e1",
                "to": "e1"
            },
            {
                "captures": [],
                "from": "e7",
                "move": "e7-d7",
                "to": "d7"
            },
            {
                "captures": [],
                "from": "e7",
                "move": "e7-c7",
                "to": "c7"
            },
            {
                "captures": [],
                "from": "e7",
                "move": "e7-b7",
                "to": "b7"
            }
        ],
        "pieces": {
            "attackers": [
                "c5",
                "e7"
            ],
            "defenders": [],
            "king": "d3"
        },
        "position": "4t2/7/2t4/7/3K3/7/7 a 2",
        "size": 7,
        "status": {
            "over": false,
            "reason": null,
            "winner": null
        },
        "to_move": "attackers",
        "rules_id": "r-8cfc3e604d34",
        "variant": "brandubh"
    })
}

pub fn moves_game_over() -> Value {
    json!({
        "moves": [],
        "pieces": {
            "attackers": [
                "c4",
                "e4"
            ],
            "defenders": [],
            "king": null
        },
        "position": "7/7/7/2t1t2/7/7/7 d 0",
        "size": 7,
        "status": {
            "over": true,
            "reason": "king_captured",
            "winner": "attackers"
        },
        "to_move": "defenders",
        "rules_id": "r-8cfc3e604d34",
        "variant": "brandubh"
    })
}

pub fn moves_malformed_move() -> Value {
    json!({
        "column": 3,
        "detail": "moves[1] (\"d5:d6\"): column 3: unexpected character ':' (expected a move like `e7-e4`)",
        "field": "moves",
        "index": 1,
        "status": 400,
        "title": "Malformed move",
        "type": "/problems/malformed-move"
    })
}

pub fn moves_malformed_position() -> Value {
    json!({
        "column": 6,
        "detail": "position: column 6: unexpected character 'x' in rank 6 (expected `t`, `T`, `K`, a number or `/`)",
        "field": "position",
        "status": 400,
        "title": "Malformed position string",
        "type": "/problems/malformed-position"
    })
}

pub fn moves_unknown_variant() -> Value {
    json!({
        "detail": "unknown variant \"chess\" (one of: brandubh, tablut, tawlbwrdd, brandubh-classic, tablut-linnaeus, copenhagen, fetlar)",
        "field": "variant",
        "status": 404,
        "title": "Unknown variant",
        "type": "/problems/unknown-variant"
    })
}

pub fn moves_illegal_move() -> Value {
    json!({
        "detail": "moves[0] (d7-d5): the path is blocked on d6",
        "field": "moves",
        "index": 0,
        "square": "d6",
        "status": 422,
        "title": "Illegal move",
        "type": "/problems/illegal-move"
    })
}

pub fn moves_move_after_end() -> Value {
    json!({
        "detail": "moves[1] (c4-c5): the game is already over: attackers won (king_captured)",
        "field": "moves",
        "index": 1,
        "status": 422,
        "title": "The game is over",
        "type": "/problems/game-over"
    })
}

pub fn moves_invalid_position() -> Value {
    json!({
        "detail": "position: an attacker on d4: only the king may stand on a restricted square (the throne and the corners)",
        "field": "position",
        "square": "d4",
        "status": 422,
        "title": "Position not valid for this variant",
        "type": "/problems/invalid-position"
    })
}

pub fn play_opening() -> Value {
    json!({
        "captures": [],
        "move": "d9-d8",
        "pieces": {
            "attackers": [
                "d1",
                "e1",
                "f1",
                "e2",
                "a4",
                "i4",
                "a5",
                "b5",
                "h5",
                "i5",
                "a6",
                "i6",
                "d8",
                "e8",
                "e9",
                "f9"
            ],
            "defenders": [
                "e3",
                "e4",
                "c5",
                "d5",
                "f5",
                "g5",
                "e6",
                "e7"
            ],
            "king": "e5"
        },
        "position": "4tt3/3tt4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3 d 1",
        "size": 9,
        "status": {
            "over": false,
            "reason": null,
            "winner": null
        },
        "to_move": "defenders",
        "rules_id": "r-bcd9cc58861a",
        "variant": "tablut"
    })
}

pub fn play_capture_king() -> Value {
    json!({
        "captures": [
            "d4"
        ],
        "move": "e7-e4",
        "pieces": {
            "attackers": [
                "c4",
                "e4"
            ],
            "defenders": [],
            "king": null
        },
        "position": "7/7/7/2t1t2/7/7/7 d 0",
        "size": 7,
        "status": {
            "over": true,
            "reason": "king_captured",
            "winner": "attackers"
        },
        "to_move": "defenders",
        "rules_id": "r-8cfc3e604d34",
        "variant": "brandubh"
    })
}

pub fn play_escape() -> Value {
    json!({
        "captures": [],
        "move": "b8-b9",
        "pieces": {
            "attackers": [
                "i1"
            ],
            "defenders": [],
            "king": "b9"
        },
        "position": "1K7/9/9/9/9/9/9/9/8t a 1",
        "size": 9,
        "status": {
            "over": true,
            "reason": "king_escaped",
            "winner": "defenders"
        },
        "to_move": "attackers",
        "rules_id": "r-bcd9cc58861a",
        "variant": "tablut"
    })
}

pub fn play_capture_suffix() -> Value {
    json!({
        "captures": [
            "d4"
        ],
        "move": "e7-e4",
        "pieces": {
            "attackers": [
                "c4",
                "e4"
            ],
            "defenders": [],
            "king": null
        },
        "position": "7/7/7/2t1t2/7/7/7 d 0",
        "size": 7,
        "status": {
            "over": true,
            "reason": "king_captured",
            "winner": "attackers"
        },
        "to_move": "defenders",
        "rules_id": "r-8cfc3e604d34",
        "variant": "brandubh"
    })
}

pub fn play_malformed_move() -> Value {
    json!({
        "column": 4,
        "detail": "move (\"d7-z4\"): column 4: \"z4\" is not a square (files a-k, ranks 1-11)",
        "field": "move",
        "status": 400,
        "title": "Malformed move",
        "type": "/problems/malformed-move"
    })
}

pub fn play_missing_move() -> Value {
    json!({
        "detail": "invalid JSON body: missing field `move` at line 1 column 22",
        "field": "move",
        "status": 400,
        "title": "Malformed JSON body",
        "type": "/problems/malformed-json"
    })
}

pub fn play_capture_mismatch() -> Value {
    json!({
        "detail": "move (e7-e4): the move captures [], not the declared [d4]",
        "field": "move",
        "status": 422,
        "title": "Declared captures do not match",
        "type": "/problems/capture-mismatch"
    })
}

pub fn play_game_over() -> Value {
    json!({
        "detail": "move (c4-c5): the game is already over: attackers won (king_captured)",
        "field": "move",
        "status": 422,
        "title": "The game is over",
        "type": "/problems/game-over"
    })
}

pub fn play_illegal_move() -> Value {
    json!({
        "detail": "move (d5-e5): the piece on d5 is not the attackers'",
        "field": "move",
        "square": "d5",
        "status": 422,
        "title": "Illegal move",
        "type": "/problems/illegal-move"
    })
}

pub fn get_moves_missing_variant() -> Value {
    json!({
        "detail": "neither `variant` nor `rules` is given: send a preset id in `variant` (one of: brandubh, tablut, tawlbwrdd, brandubh-classic, tablut-linnaeus, copenhagen, fetlar) or a rule set in `rules`",
        "field": "variant",
        "status": 422,
        "title": "Invalid field value",
        "type": "/problems/invalid-field"
    })
}

pub fn get_moves_malformed_move() -> Value {
    json!({
        "column": 4,
        "detail": "moves[0] (\"d7-z4\"): column 4: \"z4\" is not a square (files a-k, ranks 1-11)",
        "field": "moves",
        "index": 0,
        "status": 400,
        "title": "Malformed move",
        "type": "/problems/malformed-move"
    })
}

/// An OpenTafl rules string: Brandubh's board with OpenTafl's defaults (a strong,
/// armed king escaping to the corners).
pub const RULES_OPENTAFL: &str = "dim:7 start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";

/// A rule object: Brandubh with edge escape, its derived fields left out.
pub fn rules_object_request() -> Value {
    json!({
        "rules": {
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
        },
        "position": "4t2/7/7/2tK3/7/7/7 a 0"
    })
}

/// The same rule object on a 15x15 board.
pub fn rules_board_size_request() -> Value {
    let mut req = rules_object_request();
    req["rules"]["board_size"] = json!(15);
    req.as_object_mut().map(|o| o.remove("position"));
    req
}

pub fn moves_rules_object() -> Value {
    json!({
        "moves": [
            {
                "captures": [],
                "from": "c4",
                "move": "c4-c5",
                "to": "c5"
            },
            {
                "captures": [],
                "from": "c4",
                "move": "c4-c6",
                "to": "c6"
            },
            {
                "captures": [],
                "from": "c4",
                "move": "c4-c7",
                "to": "c7"
            },
            {
                "captures": [],
                "from": "c4",
                "move": "c4-c3",
                "to": "c3"
            },
            {
                "captures": [],
                "from": "c4",
                "move": "c4-c2",
                "to": "c2"
            },
            {
                "captures": [],
                "from": "c4",
                "move": "c4-c1",
                "to": "c1"
            },
            {
                "captures": [],
                "from": "c4",
                "move": "c4-b4",
                "to": "b4"
            },
            {
                "captures": [],
                "from": "c4",
                "move": "c4-a4",
                "to": "a4"
            },
            {
                "captures": [],
                "from": "e7",
                "move": "e7-f7",
                "to": "f7"
            },
            {
                "captures": [],
                "from": "e7",
                "move": "e7-g7",
                "to": "g7"
            },
            {
                "captures": [],
                "from": "e7",
                "move": "e7-e6",
                "to": "e6"
            },
            {
                "captures": [],
                "from": "e7",
                "move": "e7-e5",
                "to": "e5"
            },
            {
                "captures": [
                    "d4"
                ],
                "from": "e7",
                "move": "e7-e4",
                "to": "e4"
            },
            {
                "captures": [],
                "from": "e7",
                "move": "e7-e3",
                "to": "e3"
            },
            {
                "captures": [],
                "from": "e7",
                "move": "e7-e2",
                "to": "e2"
            },
            {
                "captures": [],
                "from": "e7",
                "move": "e7-e1",
                "to": "e1"
            },
            {
                "captures": [],
                "from": "e7",
                "move": "e7-d7",
                "to": "d7"
            },
            {
                "captures": [],
                "from": "e7",
                "move": "e7-c7",
                "to": "c7"
            },
            {
                "captures": [],
                "from": "e7",
                "move": "e7-b7",
                "to": "b7"
            },
            {
                "captures": [],
                "from": "e7",
                "move": "e7-a7",
                "to": "a7"
            }
        ],
        "pieces": {
            "attackers": [
                "c4",
                "e7"
            ],
            "defenders": [],
            "king": "d4"
        },
        "position": "4t2/7/7/2tK3/7/7/7 a 0",
        "rules_id": "r-f44b9d019c4f",
        "size": 7,
        "status": {
            "over": false,
            "reason": null,
            "winner": null
        },
        "to_move": "attackers",
        "variant": "r-f44b9d019c4f"
    })
}

pub fn moves_rules_opentafl() -> Value {
    json!({
        "moves": [
            {
                "captures": [],
                "from": "c4",
                "move": "c4-c5",
                "to": "c5"
            },
            {
                "captures": [],
                "from": "c4",
                "move": "c4-c6",
                "to": "c6"
            },
            {
                "captures": [],
                "from": "c4",
                "move": "c4-c7",
                "to": "c7"
            },
            {
                "captures": [],
                "from": "c4",
                "move": "c4-c3",
                "to": "c3"
            },
            {
                "captures": [],
                "from": "c4",
                "move": "c4-c2",
                "to": "c2"
            },
            {
                "captures": [],
                "from": "c4",
                "move": "c4-c1",
                "to": "c1"
            },
            {
                "captures": [],
                "from": "c4",
                "move": "c4-b4",
                "to": "b4"
            },
            {
                "captures": [],
                "from": "c4",
                "move": "c4-a4",
                "to": "a4"
            },
            {
                "captures": [],
                "from": "e7",
                "move": "e7-f7",
                "to": "f7"
            },
            {
                "captures": [],
                "from": "e7",
                "move": "e7-e6",
                "to": "e6"
            },
            {
                "captures": [],
                "from": "e7",
                "move": "e7-e5",
                "to": "e5"
            },
            {
                "captures": [],
                "from": "e7",
                "move": "e7-e4",
                "to": "e4"
            },
            {
                "captures": [],
                "from": "e7",
                "move": "e7-e3",
                "to": "e3"
            },
            {
                "captures": [],
                "from": "e7",
                "move": "e7-e2",
                "to": "e2"
            },
            {
                "captures": [],
                "from": "e7",
                "move": "e7-e1",
                "to": "e1"
            },
            {
                "captures": [],
                "from": "e7",
                "move": "e7-d7",
                "to": "d7"
            },
            {
                "captures": [],
                "from": "e7",
                "move": "e7-c7",
                "to": "c7"
            },
            {
                "captures": [],
                "from": "e7",
                "move": "e7-b7",
                "to": "b7"
            }
        ],
        "pieces": {
            "attackers": [
                "c4",
                "e7"
            ],
            "defenders": [],
            "king": "d4"
        },
        "position": "4t2/7/7/2tK3/7/7/7 a 0",
        "rules_id": "r-9eda4b8f757b",
        "size": 7,
        "status": {
            "over": false,
            "reason": null,
            "winner": null
        },
        "to_move": "attackers",
        "variant": "r-9eda4b8f757b"
    })
}

pub fn moves_rules_board_size() -> Value {
    json!({
        "detail": "rules.board_size: a 15x15 board is not a tafl board branan plays (odd sizes 7 to 13)",
        "field": "rules.board_size",
        "status": 422,
        "title": "Rule set not supported",
        "type": "/problems/invalid-rules"
    })
}

pub fn moves_rules_unknown_key() -> Value {
    json!({
        "detail": "rules: OpenTafl key `foo`: not a key of OpenTafl's rules strings",
        "field": "rules",
        "key": "foo",
        "status": 422,
        "title": "Rule set not supported",
        "type": "/problems/invalid-rules"
    })
}

pub fn moves_variant_and_rules() -> Value {
    json!({
        "detail": "`variant` and `rules` are both given: send a preset id in `variant` or a rule set in `rules`, not both",
        "field": "rules",
        "status": 422,
        "title": "Invalid field value",
        "type": "/problems/invalid-field"
    })
}

pub fn get_moves_illegal_move() -> Value {
    json!({
        "detail": "moves[1] (e8-e7): the piece on e8 is not the defenders'",
        "field": "moves",
        "index": 1,
        "square": "e8",
        "status": 422,
        "title": "Illegal move",
        "type": "/problems/illegal-move"
    })
}

// The error documents below are made by the same code as the service's answers;
// `tests/api/spec.rs` checks that the service really answers them.

/// `404` for an unknown path.
pub fn not_found(path: &str) -> Value {
    problem(crate::api::ApiError::NotFound {
        path: path.to_owned(),
    })
}

/// `413` for a body over the default limit.
pub fn body_too_large() -> Value {
    problem(crate::api::ApiError::BodyTooLarge {
        limit: crate::api::ServerConfig::default().body_limit,
    })
}

/// `415` for a `text/plain` body.
pub fn unsupported_media_type() -> Value {
    problem(crate::api::extract::not_json(Some("text/plain")))
}

/// `503` when every search thread is busy and the queue is full.
pub fn pool_full() -> Value {
    serde_json::to_value(
        crate::api::analyze::Overloaded(crate::api::pool::SubmitError::Full).problem(),
    )
    .unwrap_or_default()
}

/// `429` for a client over its rate limit.
pub fn rate_limited() -> Value {
    serde_json::to_value(crate::api::ratelimit::over_limit_problem(60, 1)).unwrap_or_default()
}

fn problem(e: crate::api::ApiError) -> Value {
    serde_json::to_value(e.problem()).unwrap_or_default()
}

pub fn batch_two_items_request() -> Value {
    json!({"items": [
        {"id": "opening", "variant": "brandubh", "depth": 2},
        {"id": 2, "variant": "tablut", "position": "9/1K7/9/9/9/9/9/9/8t d 0", "depth": 2}
    ]})
}

pub fn batch_bad_item_request() -> Value {
    json!({"items": [
        {"id": "a", "variant": "brandubh", "depth": 2},
        {"id": "b", "variant": "chess"},
        {"id": "c", "variant": "brandubh", "moves": ["d7-d5"], "depth": 2}
    ]})
}

pub fn batch_too_many_request() -> Value {
    json!({"items": vec![json!({}); crate::api::ServerConfig::default().max_batch + 1]})
}

pub fn batch_two_items() -> Value {
    json!({
        "results": [
            {
                "best_move": "d1-e1",
                "cached": false,
                "depth": 2,
                "engine": {
                    "name": "branan",
                    "version": "0.1.0"
                },
                "id": "opening",
                "limits": {
                    "depth": 2,
                    "nodes": null,
                    "time_ms": 10000
                },
                "nodes": 147,
                "nps": 1275200,
                "pieces": {
                    "attackers": [
                        "d1",
                        "d2",
                        "a4",
                        "b4",
                        "f4",
                        "g4",
                        "d6",
                        "d7"
                    ],
                    "defenders": [
                        "d3",
                        "c4",
                        "e4",
                        "d5"
                    ],
                    "king": "d4"
                },
                "position": "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0",
                "pv": [
                    "d1-e1",
                    "d3-e3"
                ],
                "rules_id": "r-8cfc3e604d34",
                "score": {
                    "cp": 665
                },
                "size": 7,
                "status": {
                    "over": false,
                    "reason": null,
                    "winner": null
                },
                "time_ms": 0,
                "to_move": "attackers",
                "variant": "brandubh",
                "win_chance": 0.585
            },
            {
                "best_move": "b8-b9",
                "cached": false,
                "depth": 1,
                "engine": {
                    "name": "branan",
                    "version": "0.1.0"
                },
                "id": 2,
                "limits": {
                    "depth": 2,
                    "nodes": null,
                    "time_ms": 10000
                },
                "nodes": 16,
                "nps": 197748,
                "pieces": {
                    "attackers": [
                        "i1"
                    ],
                    "defenders": [],
                    "king": "b8"
                },
                "position": "9/1K7/9/9/9/9/9/9/8t d 0",
                "pv": [
                    "b8-b9"
                ],
                "rules_id": "r-bcd9cc58861a",
                "score": {
                    "win": 1
                },
                "size": 9,
                "status": {
                    "over": false,
                    "reason": null,
                    "winner": null
                },
                "time_ms": 0,
                "to_move": "defenders",
                "variant": "tablut",
                "win_chance": 1.0
            }
        ]
    })
}

pub fn batch_bad_item() -> Value {
    json!({
        "results": [
            {
                "best_move": "d1-e1",
                "cached": false,
                "depth": 2,
                "engine": {
                    "name": "branan",
                    "version": "0.1.0"
                },
                "id": "a",
                "limits": {
                    "depth": 2,
                    "nodes": null,
                    "time_ms": 10000
                },
                "nodes": 147,
                "nps": 1038018,
                "pieces": {
                    "attackers": [
                        "d1",
                        "d2",
                        "a4",
                        "b4",
                        "f4",
                        "g4",
                        "d6",
                        "d7"
                    ],
                    "defenders": [
                        "d3",
                        "c4",
                        "e4",
                        "d5"
                    ],
                    "king": "d4"
                },
                "position": "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0",
                "pv": [
                    "d1-e1",
                    "d3-e3"
                ],
                "rules_id": "r-8cfc3e604d34",
                "score": {
                    "cp": 665
                },
                "size": 7,
                "status": {
                    "over": false,
                    "reason": null,
                    "winner": null
                },
                "time_ms": 0,
                "to_move": "attackers",
                "variant": "brandubh",
                "win_chance": 0.585
            },
            {
                "detail": "items[1]: unknown variant \"chess\" (one of: brandubh, tablut, tawlbwrdd, brandubh-classic, tablut-linnaeus, copenhagen, fetlar)",
                "field": "items[1].variant",
                "id": "b",
                "index": 1,
                "status": 404,
                "title": "Unknown variant",
                "type": "/problems/unknown-variant"
            },
            {
                "detail": "items[2]: moves[0] (d7-d5): the path is blocked on d6",
                "field": "items[2].moves[0]",
                "id": "c",
                "index": 2,
                "square": "d6",
                "status": 422,
                "title": "Illegal move",
                "type": "/problems/illegal-move"
            }
        ]
    })
}

pub fn batch_bare_array() -> Value {
    json!({
        "detail": "the body is a JSON array; expected a JSON object with `items`, a list of analysis requests",
        "field": "body",
        "status": 400,
        "title": "Malformed JSON body",
        "type": "/problems/malformed-json"
    })
}

pub fn batch_too_many() -> Value {
    json!({
        "detail": "the batch has 257 items; the limit is 256",
        "field": "items",
        "status": 422,
        "title": "Invalid field value",
        "type": "/problems/invalid-field"
    })
}

pub fn analyze_opening() -> Value {
    json!({
        "best_move": "d2-e2",
        "cached": false,
        "depth": 4,
        "engine": {
            "name": "branan",
            "version": "0.1.0"
        },
        "limits": {
            "depth": 4,
            "nodes": null,
            "time_ms": 10000
        },
        "nodes": 4808,
        "nps": 2709713,
        "pieces": {
            "attackers": [
                "d1",
                "d2",
                "a4",
                "b4",
                "f4",
                "g4",
                "d6",
                "d7"
            ],
            "defenders": [
                "d3",
                "c4",
                "e4",
                "d5"
            ],
            "king": "d4"
        },
        "position": "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0",
        "pv": [
            "d2-e2",
            "d5-b5",
            "d6-d5",
            "d3-d2"
        ],
        "rules_id": "r-8cfc3e604d34",
        "score": {
            "cp": 664
        },
        "size": 7,
        "status": {
            "over": false,
            "reason": null,
            "winner": null
        },
        "time_ms": 1,
        "to_move": "attackers",
        "variant": "brandubh",
        "win_chance": 0.583
    })
}

pub fn analyze_escape() -> Value {
    json!({
        "best_move": "b8-b9",
        "cached": false,
        "depth": 1,
        "engine": {
            "name": "branan",
            "version": "0.1.0"
        },
        "limits": {
            "depth": 3,
            "nodes": null,
            "time_ms": 10000
        },
        "nodes": 16,
        "nps": 81066,
        "pieces": {
            "attackers": [
                "i1"
            ],
            "defenders": [],
            "king": "b8"
        },
        "position": "9/1K7/9/9/9/9/9/9/8t d 0",
        "pv": [
            "b8-b9"
        ],
        "rules_id": "r-bcd9cc58861a",
        "score": {
            "win": 1
        },
        "size": 9,
        "status": {
            "over": false,
            "reason": null,
            "winner": null
        },
        "time_ms": 0,
        "to_move": "defenders",
        "variant": "tablut",
        "win_chance": 1.0
    })
}

pub fn analyze_multipv() -> Value {
    json!({
        "best_move": "e4-e7",
        "cached": false,
        "depth": 3,
        "engine": {
            "name": "branan",
            "version": "0.1.0"
        },
        "limits": {
            "depth": 3,
            "nodes": null,
            "time_ms": 10000
        },
        "lines": [
            {
                "move": "e4-e7",
                "pv": [
                    "e4-e7",
                    "d6-c6",
                    "d5-e5"
                ],
                "score": {
                    "cp": -519
                },
                "win_chance": 0.791
            },
            {
                "move": "d5-b5",
                "pv": [
                    "d5-b5",
                    "d6-d5",
                    "e4-e7"
                ],
                "score": {
                    "cp": -564
                },
                "win_chance": 0.693
            },
            {
                "move": "d5-g5",
                "pv": [
                    "d5-g5",
                    "d6-d5",
                    "e4-e7"
                ],
                "score": {
                    "cp": -564
                },
                "win_chance": 0.693
            }
        ],
        "nodes": 2104,
        "nps": 2731070,
        "pieces": {
            "attackers": [
                "d1",
                "d2",
                "a4",
                "b4",
                "f4",
                "g4",
                "d6",
                "f7"
            ],
            "defenders": [
                "d3",
                "c4",
                "e4",
                "d5"
            ],
            "king": "d4"
        },
        "position": "5t1/3t3/3T3/ttTKTtt/3T3/3t3/3t3 d 1",
        "pv": [
            "e4-e7",
            "d6-c6",
            "d5-e5"
        ],
        "rules_id": "r-8cfc3e604d34",
        "score": {
            "cp": -519
        },
        "size": 7,
        "status": {
            "over": false,
            "reason": null,
            "winner": null
        },
        "time_ms": 0,
        "to_move": "defenders",
        "variant": "brandubh",
        "win_chance": 0.791
    })
}

pub fn analyze_malformed_position() -> Value {
    json!({
        "column": 1,
        "detail": "position: column 1: rank 7 has 6 squares, but the other ranks have 7",
        "field": "position",
        "status": 400,
        "title": "Malformed position string",
        "type": "/problems/malformed-position"
    })
}

pub fn analyze_unknown_variant() -> Value {
    json!({
        "detail": "unknown variant \"chess\" (one of: brandubh, tablut, tawlbwrdd, brandubh-classic, tablut-linnaeus, copenhagen, fetlar)",
        "field": "variant",
        "status": 404,
        "title": "Unknown variant",
        "type": "/problems/unknown-variant"
    })
}

// `POST /v1/review`: the requests, and the real answers (printed by
// `cargo test --test api spec::print_examples -- --ignored --nocapture`).

pub fn review_short_game_request() -> Value {
    json!({"variant": "brandubh", "moves": ["d7-f7", "d5-e5", "a4-a5", "e5-e7"], "depth": 3})
}

pub fn review_missed_win_request() -> Value {
    json!({"variant": "brandubh", "position": "7/7/7/t5T/K6/2t4/7 d 0", "moves": ["g4-g5", "c2-a2"], "depth": 3})
}

pub fn review_short_game() -> Value {
    json!({
        "plies": [
            {
                "accuracy": 32.8,
                "after": {
                    "score": {
                        "cp": 519
                    },
                    "win_chance": 0.209
                },
                "before": {
                    "score": {
                        "cp": 665
                    },
                    "win_chance": 0.585
                },
                "best": {
                    "score": {
                        "cp": 665
                    },
                    "win_chance": 0.585
                },
                "best_move": "d1-e1",
                "class": "blunder",
                "depth": 3,
                "legal_moves": 40,
                "move": "d7-f7",
                "played": {
                    "score": {
                        "cp": 564
                    },
                    "win_chance": 0.307
                },
                "ply": 1,
                "side": "attackers"
            },
            {
                "accuracy": 38.3,
                "after": {
                    "score": {
                        "cp": -637
                    },
                    "win_chance": 0.494
                },
                "before": {
                    "score": {
                        "cp": -519
                    },
                    "win_chance": 0.791
                },
                "best": {
                    "score": {
                        "cp": -519
                    },
                    "win_chance": 0.791
                },
                "best_move": "e4-e7",
                "class": "blunder",
                "depth": 3,
                "legal_moves": 24,
                "move": "d5-e5",
                "played": {
                    "score": {
                        "cp": -617
                    },
                    "win_chance": 0.552
                },
                "ply": 2,
                "side": "defenders"
            },
            {
                "accuracy": 27.3,
                "after": {
                    "score": {
                        "cp": 504
                    },
                    "win_chance": 0.182
                },
                "before": {
                    "score": {
                        "cp": 637
                    },
                    "win_chance": 0.506
                },
                "best": {
                    "score": {
                        "cp": 637
                    },
                    "win_chance": 0.506
                },
                "best_move": "f7-f5",
                "class": "blunder",
                "depth": 3,
                "legal_moves": 43,
                "move": "a4-a5",
                "played": {
                    "score": {
                        "cp": 504
                    },
                    "win_chance": 0.182
                },
                "ply": 3,
                "side": "attackers"
            },
            {
                "accuracy": 38.9,
                "after": {
                    "score": {
                        "cp": -490
                    },
                    "win_chance": 0.841
                },
                "before": {
                    "score": {
                        "cp": -504
                    },
                    "win_chance": 0.818
                },
                "best": {
                    "score": {
                        "cp": -504
                    },
                    "win_chance": 0.818
                },
                "best_move": "c4-c6",
                "class": "blunder",
                "depth": 3,
                "legal_moves": 23,
                "move": "e5-e7",
                "played": {
                    "score": {
                        "cp": -606
                    },
                    "win_chance": 0.583
                },
                "ply": 4,
                "side": "defenders"
            }
        ],
        "summary": {
            "attackers": {
                "accuracy": 30.1,
                "counts": {
                    "best": 0,
                    "blunder": 2,
                    "forced": 0,
                    "good": 0,
                    "inaccuracy": 0,
                    "missed_win": 0,
                    "mistake": 0
                },
                "moves": 2
            },
            "cached": 0,
            "defenders": {
                "accuracy": 38.6,
                "counts": {
                    "best": 0,
                    "blunder": 2,
                    "forced": 0,
                    "good": 0,
                    "inaccuracy": 0,
                    "missed_win": 0,
                    "mistake": 0
                },
                "moves": 2
            },
            "elapsed_ms": 3,
            "engine": {
                "name": "branan",
                "version": "0.1.0"
            },
            "eval": {
                "score": {
                    "cp": 490
                },
                "win_chance": 0.159
            },
            "limits": {
                "depth": 3,
                "nodes": null,
                "time_ms": 10000
            },
            "plies": 4,
            "position": "4T2/3t3/t6/1tTKTtt/3T3/3t3/3t3 a 0",
            "positions": 5,
            "rules_id": "r-8cfc3e604d34",
            "start": "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0",
            "status": {
                "over": false,
                "reason": null,
                "winner": null
            },
            "to_move": "attackers",
            "variant": "brandubh"
        }
    })
}

pub fn review_missed_win() -> Value {
    json!({
        "plies": [
            {
                "accuracy": 1.8,
                "after": {
                    "score": {
                        "win": -2
                    },
                    "win_chance": 0.0
                },
                "before": {
                    "score": {
                        "win": 1
                    },
                    "win_chance": 1.0
                },
                "best": {
                    "score": {
                        "win": 1
                    },
                    "win_chance": 1.0
                },
                "best_move": "a3-a1",
                "class": "missed_win",
                "depth": 1,
                "legal_moves": 16,
                "move": "g4-g5",
                "played": {
                    "score": {
                        "win": -2
                    },
                    "win_chance": 0.0
                },
                "ply": 1,
                "side": "defenders"
            },
            {
                "accuracy": 100.0,
                "after": {
                    "score": {
                        "win": 1
                    },
                    "win_chance": 1.0
                },
                "before": {
                    "score": {
                        "win": 1
                    },
                    "win_chance": 1.0
                },
                "best": {
                    "score": {
                        "win": 1
                    },
                    "win_chance": 1.0
                },
                "best_move": "c2-a2",
                "class": "best",
                "depth": 1,
                "legal_moves": 19,
                "move": "c2-a2",
                "played": {
                    "score": {
                        "win": 1
                    },
                    "win_chance": 1.0
                },
                "ply": 2,
                "side": "attackers"
            }
        ],
        "summary": {
            "attackers": {
                "accuracy": 100.0,
                "counts": {
                    "best": 1,
                    "blunder": 0,
                    "forced": 0,
                    "good": 0,
                    "inaccuracy": 0,
                    "missed_win": 0,
                    "mistake": 0
                },
                "moves": 1
            },
            "cached": 0,
            "defenders": {
                "accuracy": 1.8,
                "counts": {
                    "best": 0,
                    "blunder": 0,
                    "forced": 0,
                    "good": 0,
                    "inaccuracy": 0,
                    "missed_win": 1,
                    "mistake": 0
                },
                "moves": 1
            },
            "elapsed_ms": 0,
            "engine": {
                "name": "branan",
                "version": "0.1.0"
            },
            "eval": {
                "score": {
                    "cp": 0
                },
                "win_chance": 0.0
            },
            "limits": {
                "depth": 3,
                "nodes": null,
                "time_ms": 10000
            },
            "plies": 2,
            "position": "7/7/6T/t6/7/t6/7 d 0",
            "positions": 3,
            "rules_id": "r-8cfc3e604d34",
            "start": "7/7/7/t5T/K6/2t4/7 d 0",
            "status": {
                "over": true,
                "reason": "king_captured",
                "winner": "attackers"
            },
            "to_move": "defenders",
            "variant": "brandubh"
        }
    })
}

pub fn review_illegal_move() -> Value {
    json!({
        "detail": "ply 2, moves[1] (d7-d6): there is no piece on d7",
        "field": "moves",
        "index": 1,
        "square": "d7",
        "status": 422,
        "title": "Illegal move",
        "type": "/problems/illegal-move"
    })
}

pub fn review_too_slow() -> Value {
    json!({
        "detail": "`time_ms` is 100000; a review searches each position at most 10000 ms",
        "field": "time_ms",
        "status": 422,
        "title": "Invalid field value",
        "type": "/problems/invalid-field"
    })
}

pub fn review_unknown_variant() -> Value {
    json!({
        "detail": "unknown variant \"chess\" (one of: brandubh, tablut, tawlbwrdd, brandubh-classic, tablut-linnaeus, copenhagen, fetlar)",
        "field": "variant",
        "status": 404,
        "title": "Unknown variant",
        "type": "/problems/unknown-variant"
    })
}

pub fn review_malformed_move() -> Value {
    json!({
        "column": 3,
        "detail": "ply 2, moves[1] (\"d5\"): column 3: the move ends early (expected a move like `e7-e4`)",
        "field": "moves",
        "index": 1,
        "status": 400,
        "title": "Malformed move",
        "type": "/problems/malformed-move"
    })
}
