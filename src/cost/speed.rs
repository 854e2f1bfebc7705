//! The machine's speed: seconds per op of [`crate::kernels::work`], which
//! turns a call's operation count into the prior's seconds. Measured by
//! timing a few of our own kernels at small sizes (a matrix product, eigen,
//! distances, normal draws, a rank test), so compute- and memory-bound work
//! both weigh in, and stored in the history beside the communication
//! calibration. Long-double adds are timed apart, on `sum`: they run at
//! the FPU's latency, which no mix of the others predicts. So are the
//! elements a matrix-vector product streams, from the cache and from
//! memory: they run at those bandwidths.

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use nalgebra::DMatrix;

use super::{History, HistoryError};
use crate::kernels::work::{Speed, Work};
use crate::kernels::{registry, Args, Ctx, Rng, ShapeCtx, Type, Value};

/// Seconds per op without a measurement (a Predictor with no history):
/// what centres the priors on the 2-core development machine (`flowcast
/// bench priors`: measured / prior, median 1.0), so what [`measure`] gives
/// there.
pub const DEFAULT_SECONDS_PER_OP: f64 = 1.35e-10;

/// The speed without a measurement: the development machine's.
pub const DEFAULT: Speed = Speed::at(DEFAULT_SECONDS_PER_OP);

/// A stored or measured speed outside this range is a broken timer, not a
/// machine: it is clamped so the priors stay usable.
const SANE: (f64, f64) = (1e-13, 1e-5);

pub fn sane(speed: Speed) -> Speed {
    let one = |s: f64, default: f64| {
        if s.is_finite() {
            s.clamp(SANE.0, SANE.1)
        } else {
            default
        }
    };
    Speed {
        per_op: one(speed.per_op, DEFAULT.per_op),
        per_ld_add: one(speed.per_ld_add, DEFAULT.per_ld_add),
        per_streamed: one(speed.per_streamed, DEFAULT.per_streamed),
        per_fetched: one(speed.per_fetched, DEFAULT.per_fetched),
    }
}

/// Total time the measurement may take: what is measured by then counts
/// (a debug build gets through fewer kernels).
const BUDGET: Duration = Duration::from_millis(280);
/// How long the machine is kept busy before it is timed.
const WARM_UP: Duration = Duration::from_millis(200);
/// Repetitions of each kernel; the fastest counts (the others met a cold
/// cache or a preempted core).
const REPS: usize = 3;

/// The history's speed, measured and stored first when it has none.
pub fn stored_or_measured(history: &History) -> Result<Speed, HistoryError> {
    if let Some(s) = history.load_speed()? {
        return Ok(sane(s));
    }
    let s = measure();
    history.save_speed(s)?;
    Ok(s)
}

/// Measures this machine's speed (under half a second): seconds per op,
/// the geometric mean over the reference kernels of their best time over
/// their work; and seconds per long-double add, from a sum.
pub fn measure() -> Speed {
    let mut rng = Rng::from_seed(1);
    // A machine just woken (a VM's first seconds, a core at low clock)
    // timed 1.6x slower than a minute later on the 16-core machine: the
    // first passes only warm it. On an idle 2-core VM the figure still
    // moves by a quarter from one process to the next.
    let warm_up = Instant::now();
    while warm_up.elapsed() < WARM_UP {
        for (name, args) in references(&mut rng) {
            let _ = time(name, args, &mut rng, warm_up, REPS);
        }
    }
    let start = Instant::now();
    let mut logs = Vec::new();
    for ((name, args), here) in references(&mut rng)
        .into_iter()
        .zip(REFERENCE_SECONDS_PER_OP)
    {
        let Some((best, work)) = time(name, args, &mut rng, start, REPS) else {
            continue;
        };
        if work.ops <= 0.0 {
            continue;
        }
        let ratio = best / work.ops;
        // Relative to the development machine, kernel by kernel: the
        // kernels differ 3x in seconds per op, so a mean of raw ratios
        // moved 1.5x with which of them the budget let run.
        logs.push((ratio / here).ln());
        if start.elapsed() > BUDGET {
            break;
        }
    }
    let per_op = if logs.is_empty() {
        DEFAULT.per_op
    } else {
        DEFAULT.per_op * (logs.iter().sum::<f64>() / logs.len() as f64).exp()
    };
    // After the budget too: each is some milliseconds, and without it
    // its counts are priced at the development machine's ratio.
    let fallback = Speed::at(per_op);
    let sum = ("sum", vec![(None, Value::Num(vec![0.5; LD_REFERENCE_LEN]))]);
    let per_ld_add = priced_apart(sum, &mut rng, per_op, |w| w.ld_adds, REPS);
    let cache = crate::cpu_cache::last_level_bytes();
    // A product from the cache is a tenth of a millisecond: more tries
    // for one that no interrupt met.
    let near = matrix_vector((cache / 4).clamp(256 << 10, 8 << 20));
    let per_streamed = priced_apart(near, &mut rng, per_op, |w| w.streamed, 4 * REPS);
    let far = matrix_vector((2 * cache).clamp(64 << 20, 256 << 20));
    let per_fetched = priced_apart(far, &mut rng, per_op, |w| w.fetched, REPS);
    sane(Speed {
        per_op,
        per_ld_add: per_ld_add.unwrap_or(fallback.per_ld_add),
        per_streamed: per_streamed.unwrap_or(fallback.per_streamed),
        per_fetched: per_fetched.unwrap_or(fallback.per_fetched),
    })
}

/// Seconds per unit of one of the counts [`Work`] prices apart, from the
/// best time of `call`: what is left once its ops are paid for, over its
/// count. `None` when it cannot be timed or leaves nothing.
fn priced_apart(
    call: Call,
    rng: &mut Rng,
    per_op: f64,
    count: fn(&Work) -> f64,
    reps: usize,
) -> Option<f64> {
    let (name, args) = call;
    let (best, work) = time(name, args, rng, Instant::now(), reps)?;
    let n = count(&work);
    (n > 0.0)
        .then(|| (best - work.ops * per_op).max(0.0) / n)
        .filter(|s| *s > 0.0)
}

/// A product of a square matrix of about `bytes` and a vector: all it
/// does is read the matrix, from wherever its size puts it.
fn matrix_vector(bytes: u64) -> Call {
    let n = ((bytes / 8) as f64).sqrt() as usize;
    (
        "%*%",
        vec![
            (None, Value::Mat(DMatrix::from_element(n, n, 0.5))),
            (None, Value::Num(vec![0.25; n])),
        ],
    )
}

/// Numbers the long-double reference sums: long enough that the call's
/// own cost is a thousandth of it, and past a core's own cache, where a
/// workflow's vectors are.
const LD_REFERENCE_LEN: usize = 250_000;

/// Each reference call's seconds per op on the development machine (release
/// build), in [`references`]' order: a machine where they run at these
/// speeds gets [`DEFAULT_SECONDS_PER_OP`]. Measured with every call ending
/// with the AVX registers clean (see `kernels::avx`); before, all but the
/// first ran with the state `%*%` and eigen left, rnorm and dist 2x slower.
/// The product's was 4.95e-11 when its ops counted the operands' read,
/// 3.85 % of them, which is priced apart now.
const REFERENCE_SECONDS_PER_OP: [f64; 5] = [1.01e-10, 5.14e-11, 1.05e-10, 6.3e-11, 8.3e-10];

type Call = (&'static str, Vec<(Option<String>, Value)>);

/// The reference calls, cheapest first, each some milliseconds in a
/// release build.
fn references(rng: &mut Rng) -> Vec<Call> {
    let mut mat =
        |r: usize, c: usize| Value::Mat(DMatrix::from_fn(r, c, |_, _| rng.unif_rand() - 0.5));
    let a = mat(300, 300);
    let b = mat(300, 300);
    let e = mat(150, 150);
    let d = mat(400, 30);
    let w = Value::Num(
        (0..100_000)
            .map(|i| ((i * 7919) % 100_003) as f64 - 50_000.5)
            .collect(),
    );
    vec![
        ("rnorm", vec![(None, Value::scalar(200_000.0))]),
        ("wilcox.test", vec![(None, w)]),
        ("dist", vec![(None, d)]),
        ("%*%", vec![(None, a), (None, b)]),
        ("eigen", vec![(None, e)]),
    ]
}

/// Best seconds of one reference call, and its work, `None` if it fails,
/// has no work of either kind, or the budget ran out before it could run
/// once.
fn time(
    name: &'static str,
    args: Vec<(Option<String>, Value)>,
    rng: &mut Rng,
    start: Instant,
    reps: usize,
) -> Option<(f64, Work)> {
    let kernel = registry().get(name)?;
    let types: Vec<(Option<String>, Type)> =
        args.iter().map(|(n, v)| (n.clone(), type_of(v))).collect();
    let typed = Args::match_call(kernel.name, kernel.params, types).ok()?;
    let base_dir = Path::new(".");
    let ty = (kernel.shape)(
        &typed,
        &ShapeCtx {
            base_dir,
            written: &[],
            closure: None,
            closure2: None,
        },
    )
    .ok()?;
    let work = crate::kernels::work::work(name, &typed, &ty);
    let values = args.iter().map(|(n, v)| (n.clone(), v)).collect();
    let matched = Args::match_call(kernel.name, kernel.params, values).ok()?;
    let cancel = AtomicBool::new(false);
    let mut best = f64::INFINITY;
    for _ in 0..reps {
        if start.elapsed() > BUDGET {
            break;
        }
        let mut ctx = Ctx {
            rng,
            base_dir,
            cancel: &cancel,
            warnings: Vec::new(),
            closure: None,
            closure2: None,
            integers: Vec::new(),
            messages: Default::default(),
        };
        let t = Instant::now();
        std::hint::black_box(kernel.call(&matched, &mut ctx).ok()?);
        best = best.min(t.elapsed().as_secs_f64());
    }
    (best.is_finite() && best > 0.0 && work.equivalent_ops() > 0.0).then_some((best, work))
}

/// What shape inference would know of a value made here.
fn type_of(v: &Value) -> Type {
    match v {
        Value::Mat(m) => Type::Mat {
            rows: Some(m.nrows()),
            cols: Some(m.ncols()),
        },
        Value::Num(x) if x.len() == 1 => Type::scalar_const(x[0]),
        Value::Num(x) => Type::num(x.len()),
        _ => Type::Any,
    }
}
