//! `plots RUN.md OUT_DIR`: SVG bar charts of a benchmark run's tables —
//! for every table, ours over the best peer (median and fastest round),
//! one chart per kind of kernel (the word before the first space of the
//! table's title: `SpGEMM`, `Sparse`, a matrix name for conversions…),
//! with the 1.0 line the targets are measured against. Reads the markdown
//! the bench prints (`#### title` then a table whose `**(ours)**` row has
//! the ratios in its 4th and 6th columns), so any saved run can be drawn
//! again (a table measured twice: the later one); `bench/desktop/plot.sh`
//! makes the committed ones. Given BENCHMARKS.md, it draws the per-core
//! firmware table instead (`firmware.svg`: generated over gcc -O2 executed
//! instructions per nonzero per core and opt-level).

use std::collections::BTreeMap;
use std::path::Path;

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// One table's result: its short title and ours over the best peer.
struct Bar {
    label: String,
    median: f64,
    min: f64,
}

/// The tables of a run, grouped by chart (see the module docs).
fn parse(text: &str) -> BTreeMap<String, Vec<Bar>> {
    let mut charts: BTreeMap<String, Vec<Bar>> = BTreeMap::new();
    let mut title: Option<String> = None;
    // Our rows seen in the current table: the first is labelled by the
    // table alone, later ones (another variant of ours, e.g.
    // `#[reassociate]`) also by their attribute.
    let mut ours = 0;
    for line in text.lines() {
        if let Some(t) = line.strip_prefix("#### ") {
            title = Some(short(t));
            ours = 0;
            continue;
        }
        let Some(t) = title.as_ref() else { continue };
        if line.starts_with("| implementation") || line.starts_with("|---") {
            continue;
        }
        if !line.starts_with('|') {
            // The blank line under a title; any other text ends the table.
            if !line.trim().is_empty() {
                title = None;
            }
            continue;
        }
        if !line.contains("**(ours)**") {
            continue;
        }
        ours += 1;
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        // `| name | median | ns | × best | min | × best (min) | IQR |`.
        let num = |k: usize| cells.get(k).and_then(|c| c.parse::<f64>().ok());
        let variant = cells
            .get(1)
            .and_then(|name| {
                // An attribute (`#[reassociate]`) or another layout (`SELL-8-256`).
                name.split_whitespace()
                    .find(|w| w.starts_with("#[") || w.starts_with("SELL"))
            })
            .filter(|_| ours > 1);
        if let (Some(median), Some(min)) = (num(4), num(6)) {
            let bar = Bar {
                label: match variant {
                    Some(v) => format!("{t}, {v}"),
                    None => t.clone(),
                },
                median,
                min,
            };
            // A table measured again later in the file replaces the first.
            let bars = charts.entry(chart_of(t)).or_default();
            match bars.iter_mut().find(|b| b.label == bar.label) {
                Some(old) => *old = bar,
                None => bars.push(bar),
            }
        }
    }
    firmware(text, &mut charts);
    charts
}

/// The per-core CSR SpMV table of BENCHMARKS.md (rows `| **M4F** (...) |
/// s | ... | × C | ...`): generated over gcc -O2 executed instructions per
/// nonzero, per core and opt-level, as the `firmware` chart (both bars the
/// same ratio: one exact count per build).
fn firmware(text: &str, charts: &mut BTreeMap<String, Vec<Bar>>) {
    let mut bars: Vec<Bar> = Vec::new();
    // Inside a table whose header names the generated instructions per
    // nonzero; a row without a core name is the previous core's.
    let mut inside = false;
    let mut core = String::new();
    for line in text.lines() {
        if line.contains("| core (QEMU machine) | opt | generated insns/nnz") {
            inside = true;
            continue;
        }
        if !line.starts_with('|') {
            inside = false;
            continue;
        }
        if !inside {
            continue;
        }
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let (Some(first), Some(opt), Some(ratio)) = (cells.get(1), cells.get(2), cells.get(5))
        else {
            continue;
        };
        let Ok(r) = ratio.trim_matches('*').parse::<f64>() else {
            continue;
        };
        let name = first.trim_start_matches('*');
        if let Some(c) = ["M33", "M4F", "M3", "M0"]
            .iter()
            .find(|c| name.starts_with(*c))
        {
            core = (*c).to_string();
        }
        let label =
            format!("{core}, opt-level {opt}: generated / gcc -O2, instructions per nonzero");
        let bar = Bar {
            label,
            median: r,
            min: r,
        };
        match bars.iter_mut().find(|b| b.label == bar.label) {
            Some(old) => *old = bar,
            None => bars.push(bar),
        }
    }
    if !bars.is_empty() {
        charts.insert("firmware".to_string(), bars);
    }
}

/// A title without its trailing parenthesis of sizes, at most 64 chars.
fn short(title: &str) -> String {
    let t = match title.rfind(" (") {
        Some(k) if title.ends_with(')') && title[k..].contains("nnz") => &title[..k],
        _ => title,
    };
    t.chars().take(64).collect()
}

/// Which chart a table goes to: SpGEMM, sparse add, SDDMM, SpMV or the
/// conversions (whose titles start with the matrix).
fn chart_of(title: &str) -> String {
    let t = title.to_lowercase();
    for (key, name) in [
        // "Conversion for vectorized SpMV ...": a conversion, not an SpMV.
        ("conversion", "conversions"),
        ("spgemm", "spgemm"),
        ("sparse add", "add"),
        ("c = a + b", "add"),
        ("sddmm", "sddmm"),
        ("spmv", "spmv"),
        ("csc", "conversions"),
        ("coo", "conversions"),
    ] {
        if t.contains(key) {
            return name.to_string();
        }
    }
    "other".to_string()
}

/// Draws one chart: a pair of bars per table (median, fastest round).
fn draw(path: &Path, name: &str, bars: &[Bar]) -> Result<(), Box<dyn std::error::Error>> {
    let rows = bars.len() as f64;
    let height = 80 + 26 * bars.len() as u32;
    let top = bars
        .iter()
        .flat_map(|b| [b.median, b.min])
        .fold(1.5f64, f64::max)
        .min(4.0);
    let root = SVGBackend::new(path, (980, height)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            if name == "firmware" {
                "firmware CSR SpMV: generated / gcc -O2 executed instructions per nonzero (exact; < 1 is fewer)"
                    .to_string()
            } else {
                format!("{name}: ours / best peer (median dark, fastest round light; < 1 is faster)")
            },
            ("sans-serif", 15),
        )
        .margin(8)
        .x_label_area_size(28)
        .y_label_area_size(470)
        .build_cartesian_2d(0f64..top, 0f64..rows)?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .y_labels(0)
        .x_desc("ratio")
        .draw()?;
    // Each table's title left of its bars, right-aligned on the axis.
    let style = ("sans-serif", 12)
        .into_text_style(&root)
        .pos(Pos::new(HPos::Right, VPos::Center));
    for (k, b) in bars.iter().enumerate() {
        let (px, py) = chart.backend_coord(&(0.0, rows - k as f64 - 0.5));
        root.draw(&Text::new(b.label.clone(), (px - 6, py), style.clone()))?;
    }
    for (k, b) in bars.iter().enumerate() {
        let y = rows - k as f64 - 1.0;
        let clip = |v: f64| v.min(top);
        chart.draw_series([
            Rectangle::new([(0.0, y + 0.52), (clip(b.median), y + 0.9)], BLUE.filled()),
            Rectangle::new(
                [(0.0, y + 0.1), (clip(b.min), y + 0.48)],
                BLUE.mix(0.35).filled(),
            ),
        ])?;
    }
    chart.draw_series(LineSeries::new(
        [(1.0, 0.0), (1.0, rows)],
        RED.stroke_width(2),
    ))?;
    root.present()?;
    Ok(())
}

/// Entry point of `plots RUN.md OUT_DIR`: one `NAME.svg` per chart.
pub fn run(args: &[String]) {
    let (Some(input), Some(out)) = (args.first(), args.get(1)) else {
        panic!("usage: plots RUN.md OUT_DIR");
    };
    let text = std::fs::read_to_string(input).expect("read the run");
    std::fs::create_dir_all(out).expect("make the output folder");
    for (name, bars) in parse(&text) {
        let path = Path::new(out).join(format!("{name}.svg"));
        draw(&path, &name, &bars).expect("draw");
        println!("{} ({} tables)", path.display(), bars.len());
    }
}
