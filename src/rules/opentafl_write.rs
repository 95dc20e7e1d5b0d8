//! OpenTafl's rules strings, written: a rule set as the string OpenTafl reads,
//! where OpenTafl can express it (docs/rules.md, "OpenTafl rules strings").

use super::bitboard::SquareSet;
use super::geometry::Geometry;
use super::movement_rules::{Fortress, SpeedLimits};
use super::rule_set::RuleSet;
use super::rule_terms::{
    Escape, Hostility, KingArms, KingCapture, NoMovesOutcome, Repetition, RepetitionOutcome,
};
use super::setup::Setup;
use super::square::Side;

/// A hostility written as a piece-type list of OpenTafl's (`tTK`, any of them).
fn letters(h: Hostility) -> String {
    [(h.attackers, 't'), (h.defenders, 'T'), (h.king, 'K')]
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, c)| *c)
        .collect()
}

/// The king alone, OpenTafl's default of `cens`.
const KING_ONLY: Hostility = Hostility {
    attackers: false,
    defenders: false,
    king: true,
};

/// Whether every piece of `a` is in `b`.
fn within(a: Hostility, b: Hostility) -> bool {
    (!a.attackers || b.attackers) && (!a.defenders || b.defenders) && (!a.king || b.king)
}

/// The OpenTafl rules string of a rule set, where OpenTafl can express it: `None`
/// for a no-capture limit, a repetition rule other than the third occurrence
/// drawing or losing for the one who repeats, a drawn "no legal move", the
/// defenders winning once no attacker is left, the king strong on the throne only
/// (`throne_four`), or a start whose counter is not zero.
pub fn to_string(rules: &RuleSet) -> Option<String> {
    if rules.no_capture_limit.is_some()
        || (rules.repetition.occurrence != 3
            && rules.repetition.outcome != RepetitionOutcome::Ignored)
        || rules.repetition.outcome == RepetitionOutcome::DefendersLose
        || rules.no_legal_moves != NoMovesOutcome::Loses
        || rules.attackers_eliminated_wins
        || rules.king_capture == KingCapture::ThroneFour
        || (rules.features.edge_forts && rules.escape == Escape::Edges)
    {
        return None;
    }
    let setup: Setup = rules.start.parse().ok()?;
    if setup.plies_since_capture != 0 || setup.size != rules.size {
        return None;
    }
    let canonical = setup.canonical();
    let rows = canonical.split(' ').next()?;
    let mut s = format!("dim:{}", rules.size);
    if let Some(name) = &rules.name {
        let name: String = name
            .chars()
            .map(|c| if c.is_whitespace() { '_' } else { c })
            .filter(|c| *c != ':')
            .collect();
        if !name.is_empty() {
            s.push_str(" name:");
            s.push_str(&name);
        }
    }
    if rules.escape == Escape::Edges {
        s.push_str(" esc:e cor:");
    }
    if !rules.features.encirclement {
        s.push_str(" surf:n");
    }
    s.push_str(match setup.turn {
        Side::Attackers => " atkf:y",
        Side::Defenders => " atkf:n",
    });
    match rules.repetition.outcome {
        RepetitionOutcome::MoverLoses => s.push_str(" tfr:w"),
        RepetitionOutcome::MoverWins => s.push_str(" tfr:l"),
        RepetitionOutcome::Ignored => s.push_str(" tfr:i"),
        RepetitionOutcome::Draw | RepetitionOutcome::DefendersLose => {}
    }
    let f = rules.features;
    match (f.king_armed, f.king_arms) {
        (false, _) => s.push_str(" ka:n"),
        (true, KingArms::Hammer) => s.push_str(" ka:h"),
        (true, KingArms::Anvil) => s.push_str(" ka:a"),
        (true, KingArms::HammerAndAnvil) => {}
    }
    match rules.king_capture {
        KingCapture::Weak => s.push_str(" ks:w"),
        KingCapture::ThroneFourBesideThree => s.push_str(" ks:c"),
        KingCapture::Middleweight => s.push_str(" ks:m"),
        KingCapture::FourSides | KingCapture::ThroneFour => {}
    }
    let (m, squares) = rules.played_movement_and_squares();
    if !squares.throne {
        s.push_str(" cen:");
    } else {
        // OpenTafl stops a piece only where it may also pass.
        let pass = m.throne_passable;
        let stop = Hostility {
            king: rules.throne_reentry,
            ..m.throne_stoppable
        };
        if !within(stop, pass) {
            return None;
        }
        if pass != Hostility::ALL {
            s.push_str(" cenp:");
            s.push_str(&letters(pass));
        }
        if stop != KING_ONLY {
            s.push_str(" cens:");
            s.push_str(&letters(stop));
        }
        if squares.empty_throne_hostile != Hostility::ALL {
            s.push_str(" cenhe:");
            s.push_str(&letters(squares.empty_throne_hostile));
        }
        // OpenTafl's default: the occupied throne hostile to attackers only.
        let occupied = squares.occupied_throne_hostile;
        if !occupied.attackers || occupied.defenders {
            s.push_str(" cenh:");
            s.push_str(&letters(occupied));
        }
    }
    if rules.escape == Escape::Corners {
        if squares.corner_block > 1 {
            s.push_str(" cor:");
            let corners: SquareSet = Geometry::corner_blocks(rules.size, squares.corner_block);
            for sq in corners {
                s.push_str(&format!("{sq},"));
            }
        }
        if squares.corners_hostile != Hostility::ALL {
            s.push_str(" corh:");
            s.push_str(&letters(squares.corners_hostile));
        }
        if m.corners_stoppable != Hostility::NONE {
            let may = letters(Hostility {
                king: true,
                ..m.corners_stoppable
            });
            s.push_str(&format!(" cors:{may} corp:{may}"));
        }
    }
    if m.speed != SpeedLimits::NONE {
        let n = |x: Option<u8>| x.map_or(-1, i32::from);
        let (t, d, k) = (n(m.speed.attackers), n(m.speed.defenders), n(m.speed.king));
        // Twelve values, `t c n k m g T C N K M G`, as OpenTafl writes and reads
        // them since it has mercenaries and guards.
        s.push_str(&format!(" spd:{t},-1,-1,-1,-1,-1,{d},-1,-1,{k},-1,-1,"));
    }
    let mut reentry = false;
    for (key, fort, default) in [
        ("afor", m.attacker_forts, Fortress::ATTACKERS),
        ("dfor", m.defender_forts, Fortress::DEFENDERS),
    ] {
        if fort.is_empty() {
            continue;
        }
        if !within(fort.stoppable, fort.passable) {
            return None;
        }
        s.push_str(&format!(" {key}:"));
        for sq in fort.squares {
            s.push_str(&format!("{sq},"));
        }
        for (suffix, list, default) in [
            ("h", fort.hostile, default.hostile),
            ("p", fort.passable, default.passable),
            ("s", fort.stoppable, default.stoppable),
        ] {
            if list != default {
                s.push_str(&format!(" {key}{suffix}:{}", letters(list)));
            }
        }
        reentry |= fort.reentry != Hostility::ALL;
    }
    if reentry {
        // OpenTafl reads the fortresses' re-entry lists only with `cenre`, and
        // then an absent list means no piece: all four are written.
        s.push_str(" cenre:tTK corre:tTK");
        for (key, fort) in [("afor", m.attacker_forts), ("dfor", m.defender_forts)] {
            s.push_str(&format!(" {key}re:{}", letters(fort.reentry)));
        }
    }
    if f.shieldwall {
        s.push_str(if f.shieldwall_corners {
            " sw:s"
        } else {
            " sw:w"
        });
        if !f.shieldwall_flanking {
            s.push_str(" swf:n");
        }
    }
    if rules.features.edge_forts {
        s.push_str(" efe:y");
    }
    if rules.plays_linnaean_capture() {
        s.push_str(" linc:y");
    }
    s.push_str(" start:/");
    let ranks: Vec<&str> = rows.split('/').collect();
    for rank in ranks.iter().rev() {
        s.push_str(rank);
        s.push('/');
    }
    Some(s)
}

/// The OpenTafl rules string nearest a rule set: its own where OpenTafl can
/// express it ([`to_string`]), else that of the rule set with each term OpenTafl
/// has no key for replaced by OpenTafl's own rule (no no-capture limit, the third
/// occurrence of a position drawing, a side without a move losing, no win by
/// eliminating the attackers, the king strong beside the throne as on it, no edge
/// fort where the king escapes to the edge). `None` where even that is not
/// expressible (a start whose counter is not zero, a square a piece may stop on
/// but not pass).
pub fn nearest(rules: &RuleSet) -> Option<String> {
    if let Some(s) = to_string(rules) {
        return Some(s);
    }
    let mut r = rules.clone();
    r.no_capture_limit = None;
    if r.repetition.outcome == RepetitionOutcome::DefendersLose
        || (r.repetition.occurrence != 3 && r.repetition.outcome != RepetitionOutcome::Ignored)
    {
        r.repetition = Repetition {
            occurrence: 3,
            outcome: RepetitionOutcome::Draw,
        };
    }
    r.no_legal_moves = NoMovesOutcome::Loses;
    r.attackers_eliminated_wins = false;
    if r.king_capture == KingCapture::ThroneFour {
        r.king_capture = KingCapture::ThroneFourBesideThree;
    }
    if r.escape == Escape::Edges {
        r.features.edge_forts = false;
    }
    to_string(&r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::AnyVariant;
    use crate::rules::opentafl::parse;

    #[test]
    fn presets_opentafl_can_express_round_trip() {
        let mut written = 0;
        for &v in AnyVariant::presets() {
            let rules = v.rule_set();
            if let Some(s) = to_string(&rules) {
                written += 1;
                let back = parse(&s).unwrap_or_else(|e| panic!("{}: {s}: {e}", v.id()));
                let built = back.build().unwrap();
                assert_eq!(built.preset_index(), v.preset_index(), "{}: {s}", v.id());
                assert_eq!(back.canonical_id(), rules.canonical_id(), "{}", v.id());
            }
        }
        assert!(written >= 1);
    }

    #[test]
    fn throne_less_and_non_hostile_thrones_build() {
        let brandub = "dim:7 name:Brandub surf:n atkf:y ks:w nj:n cj:n cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
        let rules = parse(brandub).unwrap();
        assert!(rules.squares.throne);
        assert_eq!(rules.squares.empty_throne_hostile, Hostility::NONE);
        let v = rules.build().unwrap().typed::<u64>().unwrap();
        assert!(!v.is_preset());
        assert!(!v.hostile_to[0].is_empty() && !v.hostile_to[0].contains(v.geometry.throne));
        assert!(!v.king_anvils.contains(v.geometry.throne));
        let back = to_string(&rules).unwrap();
        assert!(back.contains(" cenhe: "), "{back}");
        assert_eq!(parse(&back).unwrap().canonical_id(), rules.canonical_id());

        let tawlbwrdd = "dim:11 name:Tawlbwrdd esc:e atkf:y ks:w nj:n cj:n cor: cen: start:/4ttt4/4t1t4/5t5/5T5/tt2TTT2tt/t1tTTKTTt1t/tt2TTT2tt/5T5/5t5/4t1t4/4ttt4/";
        let sea_battle = "dim:9 name:Sea_Battle esc:e atkf:y ka:n nj:n cj:n cor: cen: start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/";
        for s in [tawlbwrdd, sea_battle] {
            let rules = parse(s).unwrap();
            assert!(!rules.squares.throne, "{s}");
            let v = rules.build().unwrap().typed::<u128>().unwrap();
            assert!(v.throne.is_empty() && v.restricted.is_empty() && v.hostile.is_empty());
            assert!(v.may_stop(v.geometry.throne, false));
            let back = to_string(&rules).unwrap();
            assert!(back.contains(" cen: "), "{back}");
            assert_eq!(parse(&back).unwrap().canonical_id(), rules.canonical_id());
        }
    }

    /// OpenTafl's Magpie: Brandub with a middleweight king who moves one square.
    pub(crate) const MAGPIE: &str = "dim:7 name:Magpie surf:n atkf:y ks:m spd:-1,-1,-1,-1,-1,-1,-1,1, start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
    /// OpenTafl's Foteviken Tablut, as its serializer writes it.
    pub(crate) const FOTEVIKEN: &str = "dim:9 name:Foteviken_Tablut esc:e atkf:y ka:n ks:c nj:n cj:n cor: afor:a4,a5,a6,b5,d1,e1,f1,e2,i4,i5,i6,h5,d9,e9,f9,e8, cens: cenh: cenhe:K aforh:K cenre: aforre: start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/";

    #[test]
    fn magpie_and_foteviken_read_and_write_back() {
        let magpie = parse(MAGPIE).unwrap();
        assert_eq!(magpie.movement.speed.king, Some(1));
        assert_eq!(magpie.movement.speed.attackers, None);
        let inverted = MAGPIE.replace("start:", "starti:");
        assert_eq!(
            parse(&inverted).unwrap().canonical_id(),
            magpie.canonical_id()
        );
        let written = to_string(&magpie).unwrap();
        assert!(
            written.contains(" spd:-1,-1,-1,-1,-1,-1,-1,-1,-1,1,-1,-1, "),
            "{written}"
        );
        assert_eq!(
            parse(&written).unwrap().canonical_id(),
            magpie.canonical_id()
        );

        let f = parse(FOTEVIKEN).unwrap();
        let m = f.movement;
        assert_eq!(m.attacker_forts.squares.len(), 16);
        assert_eq!(m.attacker_forts.reentry, Hostility::NONE);
        assert_eq!(
            m.attacker_forts.hostile,
            Hostility {
                attackers: false,
                defenders: false,
                king: true
            }
        );
        assert_eq!(m.throne_passable, Hostility::NONE);
        assert!(!f.throne_reentry);
        assert_eq!(
            f.squares.empty_throne_hostile,
            Hostility {
                attackers: false,
                defenders: false,
                king: true
            }
        );
        let written = to_string(&f).unwrap();
        assert_eq!(
            parse(&written).unwrap().canonical_id(),
            f.canonical_id(),
            "{written}"
        );
        let v = f.build().unwrap().typed::<u128>().unwrap();
        assert!(v.special_moves && !v.is_preset());
        // An inverted record reads the ranks from the top.
        let e = parse("dim:7 starti:/3t3/3t3/7/ttTKTtt/3T3/3t3/3t3/").unwrap();
        assert!(e.start.starts_with("3t3/3t3/7/"), "{}", e.start);
    }
}
