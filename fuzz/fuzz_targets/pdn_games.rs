//! DraughtsRules PDN: the tree builder and the validating reader agree on every game (with the
//! game type inferred from the moves, or fixed), and the PDN 3.0 export is a fixed point.
#![no_main]

use libfuzzer_sys::fuzz_target;
use notation::GameReader;
use notation_fuzz::{assert_export_fixed_point, options_for};
use pdn::{DraughtsRules, GameType, PDN_WRITE, ValidatingReader, Variant};

fuzz_target!(|data: &[u8]| {
    let Some((&selector, input)) = data.split_first() else {
        return;
    };
    let options = options_for(selector);
    let rules = if selector & 0x80 == 0 {
        DraughtsRules::new()
    } else {
        let variant = Variant::ALL[usize::from(selector >> 1) % Variant::ALL.len()];
        DraughtsRules::with_default(GameType::new(variant)).inferring(false)
    };
    let mut tree_reader = GameReader::new(&rules, input, options);
    let tree: Vec<_> = (&mut tree_reader)
        .map(|g| g.expect("reading a slice"))
        .collect();
    let mut fast_reader = ValidatingReader::with_rules(input, rules, options);
    let fast: Vec<_> = (&mut fast_reader)
        .map(|g| g.expect("reading a slice"))
        .collect();
    notation_fuzz::assert_validator_agrees!(tree, fast);
    assert_eq!(tree_reader.take_orphans(), fast_reader.take_orphans());

    assert_export_fixed_point(&rules, input, &PDN_WRITE);
});
