#![allow(missing_docs, clippy::unwrap_used)]
use notation::*;
#[test]
#[ignore]
fn probe() {
    let dir = std::env::var("PROBE").unwrap();
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    for p in paths {
        let rules = if p.extension().is_some_and(|e| e == "pdn") {
            RawRules::PDN
        } else {
            RawRules::PGN
        };
        let f = std::fs::File::open(&p).unwrap();
        let mut r = GameReader::new(&rules, f, ReadOptions::default());
        let (mut g, mut e, mut w) = (0, 0, 0);
        let mut msgs = Vec::new();
        for game in &mut r {
            let game = game.unwrap();
            g += 1;
            for d in &game.diagnostics {
                if d.severity == Severity::Error {
                    e += 1
                } else {
                    w += 1
                }
                if msgs.len() < 4 {
                    msgs.push(d.to_string());
                }
            }
        }
        for d in r.take_orphans() {
            msgs.push(format!("orphan {d}"));
        }
        println!(
            "{:50} games={g} errors={e} warnings={w}",
            p.file_name().unwrap().to_string_lossy()
        );
        for m in msgs {
            println!("      {m}");
        }
    }
}
