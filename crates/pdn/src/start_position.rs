//! The start position of a game from its tags
//! ([`Rules::start_position`](notation::Rules::start_position)): the game type its
//! `GameType` or `Variant` tag declares, or, where it declares none, each game type it may
//! be inferred to be ([`INFERRED_VARIANTS`]) in which its set-up stands, the first
//! preferred and the others set up when a move needs them.

use std::sync::Arc;

use notation::{Setup, SetupError, Tags};

use crate::fen::{FenShape, fen_shape};
use crate::gametype::{GameType, GameTypeError};
use crate::geometry::{GeometryError, NotationKind};
use crate::pdn_position::{Inference, PdnPosition, Start};
use crate::setups::start_in;
use crate::variant::Variant;

/// The variants a game that declares no type may be inferred to be, in order of
/// preference (after the reader's default, which comes first).
///
/// Each is tried on the set-up and the moves; the first that reads them all is kept.
/// Frisian, American pool, Portuguese and Spantsiretti draughts are left out of a game's
/// first reading: each reads the same move text as an earlier variant (International,
/// English, Spanish, Russian) for long stretches of a game, so that they could only be
/// told apart late and at a cost, and files of them mostly name their game type. A game
/// that none of these reads to the end is read again with those held in reserve (see
/// [`Rules::second_reading`](notation::Rules::second_reading)): an untagged Frisian game
/// is read as Frisian draughts from its first Frisian move.
pub const INFERRED_VARIANTS: [Variant; 10] = [
    Variant::International,
    Variant::English,
    Variant::Italian,
    Variant::Russian,
    Variant::Czech,
    Variant::Brazilian,
    Variant::Spanish,
    Variant::Thai,
    Variant::Turkish,
    Variant::Canadian,
];

/// The standard game types of [`INFERRED_VARIANTS`], made once.
const INFERRED_GAME_TYPES: [GameType; INFERRED_VARIANTS.len()] = {
    let mut out = [GameType::new(Variant::International); INFERRED_VARIANTS.len()];
    let mut i = 0;
    while i < out.len() {
        out[i] = GameType::new(INFERRED_VARIANTS[i]);
        i += 1;
    }
    out
};

/// The start position of a game from its tags (see
/// [`Rules::start_position`](notation::Rules::start_position)), for rules whose games that
/// declare no type are `default` games first, inferring others or not (`infer`); in a
/// `second` reading (see [`Rules::second_reading`](notation::Rules::second_reading)), with
/// the game types not inferred held in reserve.
pub(crate) fn from_tags(
    tags: &Tags,
    default: GameType,
    infer: bool,
    second: bool,
) -> Result<Setup<PdnPosition>, SetupError> {
    let declared = declared(tags)?;
    let mut warnings = Vec::new();
    let (mut candidates, inference, start_fen) = match declared {
        Some(d) => {
            warnings.extend(d.warnings);
            if !infer && d.game_type.variant() != default.variant() {
                // The reader was told what the games are; this one says otherwise.
                warnings.push(format!(
                    "the tags declare {} draughts (GameType \"{}\"), not the {} draughts \
                     the reader was given; read as the tags say",
                    d.game_type.variant(),
                    d.game_type.to_short_string(),
                    default.variant()
                ));
            }
            let standard = GameType::new(d.game_type.variant());
            if d.game_type == standard {
                (vec![d.game_type], Inference::None, d.start_fen)
            } else {
                (
                    vec![d.game_type, standard],
                    Inference::Numbering(d.game_type),
                    d.start_fen,
                )
            }
        }
        None => (
            undeclared_candidates(default, infer),
            Inference::Undeclared,
            None,
        ),
    };
    // A second reading holds the game types not inferred in reserve, behind.
    let mut reserve: Vec<GameType> = if second && inference == Inference::Undeclared {
        Variant::ALL
            .iter()
            .map(|&v| GameType::new(v))
            .filter(|gt| !candidates.contains(gt))
            .collect()
    } else {
        Vec::new()
    };

    let fen_tag = tags.get("FEN").map(str::trim).filter(|f| !f.is_empty());
    let set_up = tags
        .get("SetUp")
        .or_else(|| tags.get("Setup"))
        .map(str::trim);
    match (set_up, fen_tag) {
        (None | Some("1"), _) | (Some("0"), None) => {}
        (Some("0"), Some(_)) => {
            warnings.push("SetUp \"0\" with a FEN tag: the FEN is used".to_owned());
        }
        (Some(other), _) => warnings.push(format!(
            "SetUp \"{other}\" is neither 0 nor 1; the FEN tag decides"
        )),
    }
    if set_up == Some("1") && fen_tag.is_none() {
        warnings.push("SetUp \"1\" without a FEN tag: the standard start is used".to_owned());
    }
    let fen = fen_tag.or(start_fen);

    // A FEN of algebraic squares fits the algebraic game types first, a FEN of
    // numbers the numeric ones; boards too small for its squares are left out.
    if let (Some(fen), Inference::Undeclared) = (fen, inference) {
        let FenShape { algebraic, largest } = fen_shape(fen);
        for candidates in [&mut candidates, &mut reserve] {
            candidates
                .sort_by_key(|gt| (gt.notation().kind == NotationKind::Alphanumeric) != algebraic);
            if let Some(max) = largest.filter(|_| !algebraic) {
                candidates.retain(|gt| gt.playing_squares() >= max);
            }
        }
    }
    // The first game type the set-up stands in is preferred; the others are set up
    // when the first move is read. Those in reserve stay there unless the preferred
    // one is one of them (none of the others can be set up).
    let in_reserve = reserve.len();
    candidates.append(&mut reserve);
    let in_play = candidates.len() - in_reserve;
    let mut first_error = None;
    let mut tried = 0;
    let mut rest = candidates.into_iter();
    let ((position, fen_warnings), reserve) = loop {
        let Some(game_type) = rest.next() else {
            return Err(SetupError::Invalid(first_error.unwrap_or_default()));
        };
        tried += 1;
        match start_in(game_type, fen) {
            Ok(found) if tried <= in_play => break (found, in_reserve),
            Ok(found) => break (found, 0),
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    };
    warnings.extend(fen_warnings.iter().map(|w| format!("FEN: {w}")));
    if first_error.is_some() {
        let why = match inference {
            Inference::Numbering(gt) => {
                format!("GameType \"{gt}\" numbers the squares otherwise")
            }
            _ => "no GameType tag".to_owned(),
        };
        warnings.push(format!(
            "{why}, and the FEN reads as {} draughts (GameType \"{}\")",
            position.variant(),
            position.game_type().to_short_string()
        ));
    }
    let candidates: Vec<GameType> = rest.collect();
    let start =
        (!candidates.is_empty()).then(|| Arc::new(Start::new(candidates, fen.map(str::to_owned))));
    Ok(Setup {
        position: PdnPosition::from_readings(
            position,
            Vec::new(),
            start,
            inference,
            reserve,
            second,
        ),
        warnings,
    })
}

/// The game types to read an undeclared game in: the default, then the inferred
/// variants' standard game types.
fn undeclared_candidates(default: GameType, infer: bool) -> Vec<GameType> {
    let mut out = Vec::with_capacity(1 + INFERRED_GAME_TYPES.len());
    out.push(default);
    if infer {
        out.extend(INFERRED_GAME_TYPES.iter().filter(|&&gt| gt != default));
    }
    out
}

/// The game type the tags declare, if they declare one: `GameType`, else `Variant`.
/// Also returns the start FEN the variant implies (lidraughts' Frysk!) and what was
/// forgiven.
pub(crate) fn declared(tags: &Tags) -> Result<Option<Declared>, SetupError> {
    if let Some(value) = tags.get("GameType").filter(|v| !v.trim().is_empty()) {
        let (game_type, warnings) =
            GameType::parse_lenient(value).map_err(|e| game_type_error(value, e))?;
        return Ok(Some(Declared {
            game_type,
            start_fen: None,
            warnings: warnings
                .into_iter()
                .map(|w| format!("GameType \"{value}\": {w}"))
                .collect(),
        }));
    }
    if let Some(value) = tags.get("Variant").filter(|v| !v.trim().is_empty()) {
        let tag = GameType::from_variant_tag(value)
            .map_err(|e| SetupError::Unsupported(e.to_string()))?;
        return Ok(Some(Declared {
            game_type: tag.game_type,
            start_fen: tag.start_fen,
            warnings: Vec::new(),
        }));
    }
    Ok(None)
}

/// A game type given by the tags.
pub(crate) struct Declared {
    /// The game type.
    pub(crate) game_type: GameType,
    /// The start position the `Variant` tag implies, if it is not the standard one.
    start_fen: Option<&'static str>,
    /// What reading the `GameType` tag forgave.
    warnings: Vec<String>,
}

/// A `GameType` tag this crate cannot read: unsupported where it names a game or a
/// board this crate does not play, invalid otherwise.
fn game_type_error(value: &str, error: GameTypeError) -> SetupError {
    match error {
        GameTypeError::Unsupported(u) => SetupError::Unsupported(u.to_string()),
        GameTypeError::Board {
            source: source @ (GeometryError::San | GeometryError::TooLarge { .. }),
            ..
        } => SetupError::Unsupported(format!("GameType \"{value}\": {source}")),
        other => SetupError::Invalid(format!("GameType \"{value}\": {other}")),
    }
}
