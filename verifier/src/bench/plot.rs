//! The growth curves of [`super::growth`] as one SVG figure (the `plotters` crate): one
//! panel per curve, ratios on a log axis, points that were not proved (a timeout) drawn as
//! red crosses.

use super::growth::Series;
use plotters::prelude::*;
use std::path::Path;

/// Draw `series` into `path` (SVG, 1500 x 900 pixels), `caption` on top.
///
/// Errors: the file cannot be written, as text.
pub fn svg(path: &Path, caption: &str, series: &[Series]) -> Result<(), String> {
    let root = SVGBackend::new(path, (1500, 900)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let (top, body) = root.split_vertically(36);
    top.titled(caption, ("sans-serif", 20))
        .map_err(|e| e.to_string())?;
    for (area, s) in body.split_evenly((2, 3)).iter().zip(series) {
        panel(area, s).map_err(|e| format!("{}: {e}", s.title))?;
    }
    root.present().map_err(|e| e.to_string())
}

type Area<'a> = DrawingArea<SVGBackend<'a>, plotters::coord::Shift>;

fn panel(area: &Area<'_>, s: &Series) -> Result<(), String> {
    let e = |e: DrawingAreaErrorKind<std::io::Error>| e.to_string();
    // Word counts span decades: plot them as log10 so the small runs stay visible.
    let log_x = s.x_label == "words";
    let pts: Vec<(f64, f64, bool)> = s
        .points
        .iter()
        .map(|p| {
            let x = if log_x { p.x.log10() } else { p.x };
            let ok = p.verdict == "proved" || s.points.iter().all(|q| q.verdict != "proved");
            (x, p.ratio.max(1e-3), ok)
        })
        .collect();
    let (x0, x1) = pts
        .iter()
        .fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p.0), b.max(p.0)));
    let (y0, y1) = pts
        .iter()
        .fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p.1), b.max(p.1)));
    let pad = ((x1 - x0) * 0.05).max(0.5);
    let mut chart = ChartBuilder::on(area)
        .caption(&s.title, ("sans-serif", 16))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(
            (x0 - pad)..(x1 + pad),
            ((y0 / 1.5).min(0.5)..(y1 * 1.5).max(2.0)).log_scale(),
        )
        .map_err(e)?;
    chart
        .configure_mesh()
        .x_desc(if log_x { "log10 words" } else { s.x_label })
        .y_desc(s.y_label)
        .label_style(("sans-serif", 12))
        .draw()
        .map_err(e)?;
    chart
        .draw_series(LineSeries::new(pts.iter().map(|p| (p.0, p.1)), &BLUE))
        .map_err(e)?;
    chart
        .draw_series(
            pts.iter()
                .filter(|p| p.2)
                .map(|p| Circle::new((p.0, p.1), 4, BLUE.filled())),
        )
        .map_err(e)?;
    chart
        .draw_series(
            pts.iter()
                .filter(|p| !p.2)
                .map(|p| Cross::new((p.0, p.1), 6, RED.stroke_width(2))),
        )
        .map_err(e)?;
    Ok(())
}
