//! Player names as lichess users choose them: words run together or joined by `_` or `-`,
//! digits after them, made-up words, and first and last names, some of them accented.

use crate::Rng;

const ADJECTIVES: &[&str] = &[
    "dark", "silent", "lucky", "crazy", "happy", "angry", "quiet", "little", "big", "old", "young",
    "wild", "fast", "slow", "brave", "lazy", "sneaky", "royal", "iron", "golden", "silver", "red",
    "blue", "green", "black", "white", "grand", "super", "mega", "ultra", "cosmic", "mighty",
    "tiny", "sleepy", "hungry", "frozen", "burning", "lost", "last", "first", "mad", "wise",
    "bold", "shy", "deep", "sharp", "tricky", "magic", "rusty",
];

const NOUNS: &[&str] = &[
    "knight",
    "bishop",
    "rook",
    "queen",
    "king",
    "pawn",
    "gambit",
    "castle",
    "tiger",
    "wolf",
    "bear",
    "eagle",
    "fox",
    "dragon",
    "panda",
    "shark",
    "falcon",
    "lion",
    "owl",
    "cat",
    "dog",
    "monkey",
    "ninja",
    "wizard",
    "pirate",
    "samurai",
    "viking",
    "master",
    "player",
    "hunter",
    "storm",
    "thunder",
    "shadow",
    "fire",
    "ice",
    "blitz",
    "bullet",
    "patzer",
    "fish",
    "engine",
    "potato",
    "banana",
    "cookie",
    "coffee",
    "pizza",
    "noob",
    "legend",
    "ghost",
    "robot",
    "zugzwang",
    "fianchetto",
    "endgame",
    "opening",
    "tactic",
    "checkmate",
    "stalemate",
];

const FIRST_NAMES: &[&str] = &[
    "alex", "andrei", "anna", "carlos", "daniel", "david", "elena", "felix", "hugo", "ivan",
    "james", "jan", "john", "juan", "julia", "karl", "lucas", "maria", "mark", "max", "michael",
    "nikita", "olga", "omar", "paul", "pedro", "peter", "rahul", "sam", "sara", "sergei", "thomas",
    "tom", "viktor", "wei", "yusuf", "arjun", "mateo", "emma", "lena",
];

const FIRST_NAMES_ACCENTED: &[&str] = &[
    "José",
    "Jürgen",
    "François",
    "Łukasz",
    "Søren",
    "Zoë",
    "Andrés",
    "Björn",
    "Ömer",
    "Tomáš",
    "Dávid",
    "Réka",
    "Iñaki",
    "Chloé",
    "Müge",
    "Jiří",
    "Ángel",
    "Hélène",
    "Çağrı",
    "Sérgio",
];

const LAST_NAMES: &[&str] = &[
    "smith",
    "ivanov",
    "garcia",
    "mueller",
    "rossi",
    "kowalski",
    "nguyen",
    "silva",
    "petrov",
    "novak",
    "jensen",
    "dubois",
    "kim",
    "singh",
    "khan",
    "lopez",
    "fischer",
    "tal",
    "morphy",
    "capablanca",
    "sokolov",
    "horvat",
    "yilmaz",
    "popescu",
    "andersen",
    "costa",
    "wagner",
];

const LAST_NAMES_ACCENTED: &[&str] = &[
    "Müller",
    "Peña",
    "Nuñez",
    "Gonçalves",
    "Dvořák",
    "Wiśniewski",
    "Öztürk",
    "Sørensen",
    "Lefèvre",
    "Kovács",
    "Márquez",
    "Schröder",
    "Håkansson",
    "Ibáñez",
    "Čapek",
    "Ferréira",
];

const SYLLABLES: &[&str] = &[
    "ka", "ro", "mi", "ten", "zu", "bar", "lo", "vin", "sha", "del", "qu", "ix", "or", "pe", "tan",
    "gor", "li", "na", "vek", "sto", "ra", "mon", "el", "dur", "fi", "ga", "zen", "op",
];

fn pick<'a>(rng: &mut Rng, words: &[&'a str]) -> &'a str {
    words.get(rng.below(words.len())).copied().unwrap_or("x")
}

/// The word with its first letter in capitals.
fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Digits after a name: a year, a small number, or a large one.
fn digits(rng: &mut Rng) -> String {
    match rng.below(4) {
        0 => (1960 + rng.below(50)).to_string(),
        1 => rng.below(100).to_string(),
        2 => format!("{:02}", rng.below(100)),
        _ => rng.below(100_000).to_string(),
    }
}

/// A name in one of the shapes users give themselves (it may repeat another's: the pool
/// draws again).
pub fn name(rng: &mut Rng) -> String {
    let mut name = match rng.below(12) {
        0 | 1 => format!(
            "{}{}",
            capitalised(pick(rng, ADJECTIVES)),
            capitalised(pick(rng, NOUNS))
        ),
        2 => format!("{}_{}", pick(rng, ADJECTIVES), pick(rng, NOUNS)),
        3 | 4 => format!("{}{}", pick(rng, NOUNS), digits(rng)),
        5 => format!(
            "{}_{}",
            capitalised(pick(rng, FIRST_NAMES)),
            capitalised(pick(rng, LAST_NAMES))
        ),
        6 => format!("{}{}", pick(rng, FIRST_NAMES), digits(rng)),
        7 => format!("{}-{}", pick(rng, NOUNS), pick(rng, NOUNS)),
        8 => {
            let length = 2 + rng.below(3);
            (0..length).map(|_| pick(rng, SYLLABLES)).collect()
        }
        9 => format!(
            "{}_{}",
            pick(rng, FIRST_NAMES_ACCENTED),
            pick(rng, LAST_NAMES_ACCENTED)
        ),
        10 => format!("{}{}", pick(rng, FIRST_NAMES_ACCENTED), digits(rng)),
        _ => format!(
            "{}{}",
            capitalised(pick(rng, SYLLABLES)),
            capitalised(pick(rng, LAST_NAMES))
        ),
    };
    if rng.one_in(6) {
        name.push('_');
        name.push_str(&digits(rng));
    }
    name
}
