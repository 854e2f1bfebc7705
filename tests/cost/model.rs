//! The cost models: the paper's ANN is configured exactly as specified, and
//! the default model learns known cost curves to a stated accuracy.

use flowcast::cost::ann::{PaperAnn, HIDDEN, INIT_RANGE};
use flowcast::cost::eval::{accuracy, accuracy_table, curves, median, speed};
use flowcast::cost::model::{Model, ModelKind, SplitMix, WINDOW};

/// t = 3e-9·n³ with 2 % multiplicative noise, deterministic seed: the
/// default model's median error (against the noisy times of 100 queries)
/// is under 5 % after 10 observations and under 2 % after 90.
#[test]
fn default_model_learns_a_cubic_curve() {
    let eigen = curves()
        .into_iter()
        .find(|c| c.name == "eigen n^3")
        .unwrap();
    let a = accuracy(ModelKind::LogLinear, &eigen, 0.02, 1);
    assert!(a.after_10 < 0.05, "after 10: {}", a.after_10);
    assert!(a.after_90 < 0.02, "after 90: {}", a.after_90);
}

#[test]
fn default_model_meets_the_targets_on_every_curve() {
    for (name, a) in accuracy_table(ModelKind::LogLinear, 0.02, 3) {
        assert!(a.after_10 < 0.05, "{name} after 10: {}", a.after_10);
        assert!(a.after_90 < 0.021, "{name} after 90: {}", a.after_90);
    }
}

/// The default was chosen because it beats the paper's network on these
/// curves; if that stops being true the choice must be revisited.
#[test]
fn default_model_beats_the_paper_ann() {
    let errs = |kind| {
        let mut v: Vec<f64> = accuracy_table(kind, 0.02, 1)
            .into_iter()
            .map(|(_, a)| a.after_90)
            .collect();
        median(&mut v)
    };
    assert!(errs(ModelKind::LogLinear) < errs(ModelKind::Paper));
}

#[test]
fn paper_ann_initial_weights_are_seeded_and_within_range() {
    let mut a = PaperAnn::new(42);
    a.observe(&[10.0, 20.0, 30.0], 1.0);
    assert_eq!(a.hidden.len(), HIDDEN);
    assert!(a.hidden.iter().all(|row| row.len() == 4)); // 3 inputs + bias
    assert_eq!(a.output.len(), HIDDEN + 1);
    let all: Vec<f64> = a
        .hidden
        .iter()
        .flatten()
        .chain(&a.output)
        .copied()
        .collect();
    assert!(all.iter().all(|w| w.abs() <= INIT_RANGE), "{all:?}");
    assert!(all.iter().any(|w| *w != 0.0));
    let mut b = PaperAnn::new(42);
    b.observe(&[10.0, 20.0, 30.0], 1.0);
    assert_eq!(a, b, "same seed, same network");
    let mut c = PaperAnn::new(43);
    c.observe(&[10.0, 20.0, 30.0], 1.0);
    assert_ne!(a.hidden, c.hidden);
    // Many seeds: the draws fill [-0.01, 0.01], not a corner of it.
    let mut lo = f64::INFINITY;
    let mut hi = f64::NEG_INFINITY;
    for s in 0..200 {
        let mut n = PaperAnn::new(s);
        n.observe(&[1.0], 1.0);
        for w in n.hidden.iter().flatten().chain(&n.output) {
            lo = lo.min(*w);
            hi = hi.max(*w);
        }
    }
    assert!((-INIT_RANGE..-0.0095).contains(&lo), "{lo}");
    assert!(hi > 0.0095 && hi <= INIT_RANGE, "{hi}");
}

#[test]
fn paper_ann_window_keeps_the_40_most_recent() {
    assert_eq!(WINDOW, 40);
    let mut a = PaperAnn::new(1);
    for i in 1..=100 {
        a.observe(&[i as f64], i as f64);
    }
    assert_eq!(a.window.len(), 40);
    let secs: Vec<f64> = a.window.items.iter().map(|o| o.seconds).collect();
    assert_eq!(secs, (61..=100).map(f64::from).collect::<Vec<_>>());
}

#[test]
fn paper_ann_normalisation_follows_the_window() {
    let mut a = PaperAnn::new(1);
    for i in 0..10 {
        a.observe(&[100.0 + i as f64], 1.0 + i as f64);
    }
    a.retrain();
    let r = a.input_range[0];
    assert_eq!((r.min, r.max), (100.0, 109.0));
    let out = a.output_range.unwrap();
    assert_eq!((out.min, out.max), (1.0, 10.0));
    // Inside the range: no re-normalisation.
    let before = a.renormalisations;
    a.observe(&[105.0], 5.0);
    assert_eq!(a.renormalisations, before);
    // Outside: the window is re-normalised at once, before any retrain.
    a.observe(&[500.0], 50.0);
    assert_eq!(a.renormalisations, before + 1);
    assert_eq!(a.input_range[0].max, 500.0);
    assert_eq!(a.output_range.unwrap().max, 50.0);
    // Once the extremes leave the window, a retrain narrows the range again.
    for _ in 0..WINDOW {
        a.observe(&[200.0 + 1.0], 2.0);
        a.observe(&[300.0], 3.0);
    }
    a.retrain();
    assert_eq!((a.input_range[0].min, a.input_range[0].max), (201.0, 300.0));
    let out = a.output_range.unwrap();
    assert_eq!((out.min, out.max), (2.0, 3.0));
}

#[test]
fn paper_ann_learns_a_linear_curve() {
    let mut a = Model::new(ModelKind::Paper, "mean");
    let mut rng = SplitMix(3);
    for _ in 0..40 {
        let n = rng.range(1e3, 1e5);
        a.observe(&[n], 1e-8 * n);
        a.retrain();
    }
    let p = a.predict(&[5e4]);
    assert!((p / 5e-4 - 1.0).abs() < 0.05, "{p}");
}

#[test]
fn models_survive_a_json_round_trip() {
    for kind in [ModelKind::Paper, ModelKind::LogLinear] {
        let mut m = Model::new(kind, "solve");
        for n in [100.0, 200.0, 400.0] {
            m.observe(&[n, n], 1e-9 * n * n * n);
        }
        m.retrain();
        let back = Model::from_json(&m.to_json()).unwrap();
        assert_eq!(back.predict(&[300.0, 300.0]), m.predict(&[300.0, 300.0]));
        assert_eq!(back.window(), m.window());
    }
}

/// Timing check, not asserted (wall clock varies): prediction should take
/// well under 10 µs and a retrain of 40 observations under 5 ms.
#[test]
#[ignore]
fn print_accuracy_and_speed() {
    for kind in [ModelKind::LogLinear, ModelKind::Paper] {
        for noise in [0.02, 0.0] {
            for (name, a) in accuracy_table(kind, noise, 5) {
                println!(
                    "{:<10} noise {:>2.0}%  {:<20} after 10: {:>6.2}%  after 90: {:>6.2}%",
                    kind.name(),
                    noise * 100.0,
                    name,
                    a.after_10 * 100.0,
                    a.after_90 * 100.0
                );
            }
        }
        let s = speed(kind);
        println!(
            "{:<10} predict {:.3} us, retrain(40) {:.3} ms",
            kind.name(),
            s.predict_us,
            s.retrain_ms
        );
    }
}
