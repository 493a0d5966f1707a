//! `cargo run --release -p columnar --example writer_alone -- FILE.parquet [RUNS]`: how long
//! the Parquet writer alone takes to write a games table, with nothing read or built.
//!
//! FILE is a games table that `notate parquet` wrote (with its default zstd). Its rows are
//! read into memory first (not timed), then written again RUNS times (5 by default) with
//! [`columnar::ParquetWriter`], on one thread, into memory. Every run must give the file's
//! own bytes, or the example fails: what is timed is exactly the writing that `notate
//! parquet` does. It prints the median and the fastest run.
//!
//! This is the part of `notate parquet` that belongs to the `parquet` crate (encodings,
//! dictionaries, levels, zstd, pages): with `notate check --jobs 1` on the same games it
//! bounds how fast `parquet` can be beside `check` on a given number of cores.

use std::process::ExitCode;
use std::time::Instant;

use columnar::ParquetWriter;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (path, runs) = match args.as_slice() {
        [path] => (path, 5),
        [path, runs] => match runs.parse::<usize>() {
            Ok(runs) if runs > 0 => (path, runs),
            _ => return usage(),
        },
        _ => return usage(),
    };
    match run(path, runs) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{path}: {e}");
            ExitCode::from(2)
        }
    }
}

fn usage() -> ExitCode {
    eprintln!("usage: writer_alone FILE.parquet [RUNS]");
    ExitCode::from(2)
}

fn run(path: &str, runs: usize) -> Result<(), Box<dyn std::error::Error>> {
    let original = bytes::Bytes::from(std::fs::read(path)?);
    let batches = ParquetRecordBatchReaderBuilder::try_new(original.clone())?
        .build()?
        .collect::<Result<Vec<_>, _>>()?;
    let schema = columnar::games_schema();
    if batches.iter().any(|batch| *batch.schema() != *schema) {
        return Err("not a games table of this version of notate".into());
    }
    let rows: usize = batches.iter().map(|batch| batch.num_rows()).sum();
    let mut seconds = Vec::with_capacity(runs);
    for _ in 0..runs {
        let start = Instant::now();
        let mut out = Vec::with_capacity(original.len());
        let mut writer = ParquetWriter::new(&mut out, schema.clone())?;
        for batch in &batches {
            writer.write(batch)?;
        }
        writer.close()?;
        seconds.push(start.elapsed().as_secs_f64());
        if out[..] != original[..] {
            return Err("written again, the rows do not give the file's bytes \
                        (was it written with another compression?)"
                .into());
        }
    }
    seconds.sort_by(f64::total_cmp);
    println!(
        "rows={rows} bytes={} runs={runs} median={:.3}s fastest={:.3}s",
        original.len(),
        seconds[runs / 2],
        seconds[0]
    );
    Ok(())
}
