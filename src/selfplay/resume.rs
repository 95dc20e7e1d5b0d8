//! A match resumed from its games file: the games already written are read back,
//! counted as if just played, and not played again, so a long match can run in
//! parts (stopped at any moment, even in the middle of writing a line).

/// A game read back from a games file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finished {
    pub game: usize,
    pub pair: usize,
    pub variant: String,
    pub a_side: String,
    pub opening: Vec<String>,
    pub moves: Vec<String>,
    /// `a`, `b` or `draw`.
    pub result: String,
}

impl Finished {
    /// A's score in half points.
    pub fn a_half_points(&self) -> u8 {
        half_points(&self.result)
    }
}

/// A's score in half points for a game's `result` (`a`, `draw` or `b`), as a
/// games file writes it.
pub fn half_points(result: &str) -> u8 {
    match result {
        "a" => 2,
        "draw" => 1,
        _ => 0,
    }
}

/// The games of a games file, and how many of its bytes they fill: a last line
/// cut short by an interruption is left out (the caller writes on from there).
/// Any other line that is not a game is an error naming its line.
pub fn read(text: &str) -> Result<(Vec<Finished>, usize), String> {
    let mut games: Vec<Finished> = Vec::new();
    let mut kept = 0;
    let mut at = 0;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let complete = line.ends_with('\n');
        at += line.len();
        if line.trim().is_empty() {
            kept = at;
            continue;
        }
        match parse(line.trim()) {
            Ok(g) if complete => {
                if games.iter().any(|old| old.game == g.game) {
                    return Err(format!("line {}: game {} is there twice", i + 1, g.game));
                }
                games.push(g);
                kept = at;
            }
            // A line written whole but for its newline is kept.
            Ok(g) if !games.iter().any(|old| old.game == g.game) => {
                games.push(g);
                kept = at;
            }
            Ok(_) => {}
            Err(_) if !complete => {}
            Err(e) => return Err(format!("line {}: {e}", i + 1)),
        }
    }
    Ok((games, kept))
}

fn parse(line: &str) -> Result<Finished, String> {
    let v: serde_json::Value =
        serde_json::from_str(line).map_err(|e| format!("not a game written by a match: {e}"))?;
    let number = |k: &str| {
        v[k].as_u64()
            .map(|n| n as usize)
            .ok_or_else(|| format!("no `{k}`"))
    };
    let text = |k: &str| {
        v[k].as_str()
            .map(str::to_owned)
            .ok_or_else(|| format!("no `{k}`"))
    };
    let list = |k: &str| {
        v[k].as_array()
            .and_then(|a| a.iter().map(|m| m.as_str().map(str::to_owned)).collect())
            .ok_or_else(|| format!("no `{k}`"))
    };
    let result = text("result")?;
    if !["a", "b", "draw"].contains(&result.as_str()) {
        return Err(format!("`result` is `{result}`"));
    }
    Ok(Finished {
        game: number("game")?,
        pair: number("pair")?,
        variant: text("variant")?,
        a_side: text("a_side")?,
        opening: list("opening")?,
        moves: list("moves")?,
        result,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(game: usize, result: &str) -> String {
        format!(
            r#"{{"game":{game},"pair":{},"variant":"brandubh","a_side":"attackers","opening":["d7-f7"],"moves":["d7-f7","d5-f5"],"result":"{result}","winner":null,"reason":"x","plies":2,"scores":[]}}"#,
            game / 2
        )
    }

    #[test]
    fn games_are_read_back_and_a_cut_line_is_dropped() {
        let whole = format!("{}\n{}\n", line(0, "a"), line(1, "draw"));
        let (games, kept) = read(&whole).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(kept, whole.len());
        assert_eq!(games[1].a_half_points(), 1);
        let cut = format!("{whole}{}", &line(2, "b")[..40]);
        let (games, kept) = read(&cut).unwrap();
        assert_eq!((games.len(), kept), (2, whole.len()));
        // Whole but for its newline.
        let last = format!("{whole}{}", line(2, "b"));
        assert_eq!(read(&last).unwrap().0.len(), 3);
    }

    #[test]
    fn a_broken_line_before_the_end_is_an_error() {
        let text = format!("{}\nnonsense\n{}\n", line(0, "a"), line(1, "a"));
        assert!(read(&text).unwrap_err().starts_with("line 2:"));
        let twice = format!("{}\n{}\n", line(0, "a"), line(0, "a"));
        assert!(read(&twice).unwrap_err().contains("twice"));
        let result = format!("{}\n", line(0, "won"));
        assert!(read(&result).is_err());
    }
}
