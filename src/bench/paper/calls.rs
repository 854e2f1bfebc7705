//! The functions and loops the microbenchmarks are made of (the paper's
//! Tables II and III, and the matrix-inversion pool of section VI-C), and
//! timing real calls of them on this machine through flowcast's own kernels.
//!
//! Every call is described by its sizes only, so the same description
//! prices a task (timed here), feeds a cost model (its features) and
//! becomes a workflow step for the real runs (its expression).

use std::path::Path;
use std::sync::atomic::AtomicBool;

use nalgebra::DMatrix;

use crate::cost::model::SplitMix;
use crate::kernels::{registry, Args, Ctx, Rng, Value};

/// A function of Table II, or `inv<j>`: `j` nested matrix inversions (the
/// dependent benchmarks' pool, whose input and output are both n×n).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Function {
    Table2(usize),
    Invert(usize),
}

/// One row of Table II: the R function, how flowcast calls it on matrices
/// `A` (and `B`), and the paper's range of n (the square root of its N_A
/// range).
pub struct Table2Row {
    pub name: &'static str,
    pub expr: &'static str,
    pub two_matrices: bool,
    pub n_range: (f64, f64),
}

pub const TABLE_II: [Table2Row; 10] = [
    row("eigen", "eigen(A)", false, 12.0, 2400.0),
    row("prcomp", "prcomp(A)", false, 12.0, 2400.0),
    row("qr", "qr(A)", false, 25.0, 4000.0),
    row("svd", "svd(A)", false, 12.0, 2400.0),
    row("hclust", "hclust(dist(A))", false, 8.0, 1600.0),
    row("kmeans", "kmeans(A, 5)", false, 20.0, 3200.0),
    row("friedman.test", "friedman.test(A)", false, 16.0, 2000.0),
    row("ks.test", "ks.test(A, B)", true, 16.0, 3200.0),
    row("mood.test", "mood.test(A, B)", true, 20.0, 4000.0),
    row("wilcox.test", "wilcox.test(A)", false, 16.0, 3200.0),
];

const fn row(
    name: &'static str,
    expr: &'static str,
    two_matrices: bool,
    lo: f64,
    hi: f64,
) -> Table2Row {
    Table2Row {
        name,
        expr,
        two_matrices,
        n_range: (lo, hi),
    }
}

/// The number of functions in the dependent benchmarks' pool.
pub const INVERSIONS: usize = 10;

impl Function {
    pub fn table2() -> impl Iterator<Item = Function> {
        (0..TABLE_II.len()).map(Function::Table2)
    }

    pub fn inversions() -> impl Iterator<Item = Function> {
        (1..=INVERSIONS).map(Function::Invert)
    }

    pub fn name(self) -> String {
        match self {
            Function::Table2(i) => TABLE_II[i].name.to_string(),
            Function::Invert(j) => format!("inv{j}"),
        }
    }

    pub fn two_matrices(self) -> bool {
        matches!(self, Function::Table2(i) if TABLE_II[i].two_matrices)
    }

    /// The paper's range of n for this function's training data.
    pub fn n_range(self) -> (f64, f64) {
        match self {
            Function::Table2(i) => TABLE_II[i].n_range,
            // Matrix inversion: the range of the decompositions.
            Function::Invert(_) => (12.0, 2400.0),
        }
    }

    /// The call as workflow text on inputs named `a` and `b`.
    pub fn expr(self, a: &str, b: &str) -> String {
        match self {
            Function::Table2(i) => TABLE_II[i].expr.replace('A', a).replace('B', b),
            Function::Invert(j) => format!("{}{a}{}", "solve(".repeat(j), ")".repeat(j)),
        }
    }
}

/// One function call: the function and the sizes of its n×n matrices.
#[derive(Clone, Debug, PartialEq)]
pub struct Call {
    pub function: Function,
    pub n_a: usize,
    /// For the two-sample tests.
    pub n_b: usize,
}

impl Call {
    /// The cost model's inputs, as flowcast's graph gives them for the
    /// call: rows and columns of each matrix argument (the paper's N_A is
    /// their product).
    pub fn features(&self) -> Vec<f64> {
        let (a, b) = (self.n_a as f64, self.n_b as f64);
        if self.function.two_matrices() {
            vec![a, a, b, b]
        } else {
            vec![a, a]
        }
    }

    /// Draws a call of `function` with N_A (and N_B) uniform between the
    /// squares of `n_lo` and `n_hi`, as the paper samples its parameters.
    pub fn sample(function: Function, n_lo: f64, n_hi: f64, rng: &mut SplitMix) -> Call {
        let mut n = || {
            let elements = rng.range(n_lo * n_lo, n_hi * n_hi);
            (elements.sqrt().round() as usize).max(2)
        };
        let n_a = n();
        let n_b = if function.two_matrices() { n() } else { n_a };
        Call { function, n_a, n_b }
    }
}

/// The two loops of Table III, scaled: `Boost` stands in for the boosting
/// loop (a fixed number of small regularised solves), `MatVec` is
/// C = A × B\[i\], n iterations over an n×n A.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoopKind {
    Boost,
    MatVec,
}

/// One loop of a microbenchmark.
#[derive(Clone, Debug, PartialEq)]
pub struct LoopSpec {
    pub kind: LoopKind,
    pub iterations: usize,
    /// Rows of the boosting loop's data, or n of the product.
    pub n: usize,
}

/// Columns of the boosting loop's design matrix.
pub const BOOST_COLUMNS: usize = 20;
/// Columns of B in the product loop: each iteration multiplies n×n by n×this.
pub const MATVEC_COLUMNS: usize = 12;

impl LoopSpec {
    pub fn name(&self) -> &'static str {
        match self.kind {
            LoopKind::Boost => "loop1 (boost)",
            LoopKind::MatVec => "loop2 (A %*% B[i])",
        }
    }

    /// The loop's inputs as workflow steps (name, expression) and its body.
    pub fn workflow(&self, prefix: &str) -> (Vec<(String, String)>, String) {
        let n = self.n;
        match self.kind {
            LoopKind::Boost => (
                vec![(
                    format!("{prefix}x"),
                    format!("matrix(rnorm({n} * {BOOST_COLUMNS}), {n}, {BOOST_COLUMNS})"),
                )],
                format!("sum(solve(crossprod({prefix}x) + diag({BOOST_COLUMNS}) * i))"),
            ),
            LoopKind::MatVec => (
                vec![
                    (
                        format!("{prefix}a"),
                        format!("matrix(rnorm({n} * {n}), {n}, {n})"),
                    ),
                    (
                        format!("{prefix}v"),
                        format!("matrix(rnorm({n} * {MATVEC_COLUMNS}), {n}, {MATVEC_COLUMNS})"),
                    ),
                ],
                format!("mean({prefix}a %*% ({prefix}v * {prefix}v[i]))"),
            ),
        }
    }
}

/// Seconds of CPU time the calling thread has used, where the platform
/// says (so other processes on a busy machine do not inflate a
/// measurement); elsewhere wall time since the first call.
pub fn thread_seconds() -> f64 {
    #[cfg(unix)]
    {
        let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
        t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
    }
    #[cfg(not(unix))]
    {
        static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
        START
            .get_or_init(std::time::Instant::now)
            .elapsed()
            .as_secs_f64()
    }
}

/// The resolution the system claims for [`thread_seconds`]'s clock: a
/// virtual machine may tick it coarsely, which no model can predict below.
pub fn thread_clock_resolution() -> f64 {
    #[cfg(unix)]
    {
        let t = rustix::time::clock_getres(rustix::time::ClockId::ThreadCPUTime);
        t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
    }
    #[cfg(not(unix))]
    {
        1e-7
    }
}

/// One call's measurement on both clocks, and how far its repetitions
/// differ: the noise floor no model can beat on this machine.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Timing {
    /// Best of the repetitions, thread CPU time (what the models learn).
    pub cpu: f64,
    /// Best of the repetitions, wall time.
    pub wall: f64,
    /// (slowest − fastest) / fastest repetition on the CPU clock; NaN with
    /// one repetition.
    pub spread: f64,
    /// The call's place in the order this timer measured: on a shared
    /// machine, a model's errors follow it (slow and fast stretches of
    /// consecutive calls), not the sizes.
    pub seq: usize,
}

/// Which clock [`thread_seconds`] reads, for the report.
pub const CLOCK: &str = if cfg!(unix) {
    "thread CPU time"
} else {
    "wall time"
};

/// Seconds of real executions: a call's best of `reps`; a loop's total
/// (best of `reps` per iteration, summed) and its test drive (the first
/// iteration, run once, cold, as the paper's master does).
pub struct Timer {
    reps: usize,
    rng: Rng,
    cancel: AtomicBool,
    data: SplitMix,
    timed: usize,
}

/// A loop's measured cost.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LoopCost {
    pub total: f64,
    pub test_drive: f64,
}

impl Timer {
    pub fn new(reps: usize, seed: u64) -> Timer {
        Timer {
            reps: reps.max(1),
            rng: Rng::from_seed(seed as i64),
            cancel: AtomicBool::new(false),
            data: SplitMix(seed ^ 0x5eed),
            timed: 0,
        }
    }

    fn matrix(&mut self, r: usize, c: usize) -> Value {
        let rng = &mut self.data;
        Value::Mat(DMatrix::from_fn(r, c, |_, _| rng.normal()))
    }

    /// Calls kernel `name` on positional arguments.
    fn kernel(&mut self, name: &'static str, args: &[&Value]) -> Result<Value, String> {
        let kernel = registry()
            .get(name)
            .ok_or_else(|| format!("no kernel {name}"))?;
        let given = args.iter().map(|v| (None, *v)).collect();
        let args = Args::match_call(kernel.name, kernel.params, given).map_err(|e| e.message)?;
        let mut ctx = Ctx {
            rng: &mut self.rng,
            base_dir: Path::new("."),
            cancel: &self.cancel,
            warnings: Vec::new(),
            closure: None,
            closure2: None,
            integers: Vec::new(),
            messages: Default::default(),
        };
        kernel
            .call(&args, &mut ctx)
            .map_err(|e| format!("{name}: {}", e.0))
    }

    fn run_call(&mut self, call: &Call, a: &Value, b: &Value) -> Result<(), String> {
        match call.function {
            Function::Invert(j) => {
                let mut x = self.kernel("solve", &[a])?;
                for _ in 1..j {
                    x = self.kernel("solve", &[&x])?;
                }
            }
            Function::Table2(i) => {
                match TABLE_II[i].name {
                    "hclust" => {
                        let d = self.kernel("dist", &[a])?;
                        self.kernel("hclust", &[&d])?;
                    }
                    "kmeans" => {
                        self.kernel("kmeans", &[a, &Value::Num(vec![5.0])])?;
                    }
                    "ks.test" => {
                        self.kernel("ks.test", &[a, b])?;
                    }
                    "mood.test" => {
                        self.kernel("mood.test", &[a, b])?;
                    }
                    name => {
                        let kernel = registry()
                            .get(name)
                            .ok_or_else(|| format!("no kernel {name}"))?;
                        self.kernel(kernel.name, &[a])?;
                    }
                };
            }
        }
        Ok(())
    }

    /// Best-of-reps seconds of one call on fresh random matrices.
    pub fn call(&mut self, call: &Call) -> Result<f64, String> {
        Ok(self.timed(call)?.cpu)
    }

    /// One call on fresh random matrices, timed on both clocks.
    pub fn timed(&mut self, call: &Call) -> Result<Timing, String> {
        let a = self.matrix(call.n_a, call.n_a);
        let b = if call.function.two_matrices() {
            self.matrix(call.n_b, call.n_b)
        } else {
            Value::Null
        };
        let mut cpu = Vec::with_capacity(self.reps);
        let mut wall = f64::INFINITY;
        for _ in 0..self.reps {
            let w = std::time::Instant::now();
            let t = thread_seconds();
            self.run_call(call, &a, &b)?;
            cpu.push(thread_seconds() - t);
            wall = wall.min(w.elapsed().as_secs_f64());
        }
        let best = cpu.iter().copied().fold(f64::INFINITY, f64::min);
        let worst = cpu.iter().copied().fold(0.0, f64::max);
        self.timed += 1;
        Ok(Timing {
            seq: self.timed,
            cpu: best,
            wall,
            spread: if cpu.len() > 1 {
                (worst - best) / best.max(1e-12)
            } else {
                f64::NAN
            },
        })
    }

    fn iteration(&mut self, spec: &LoopSpec, inputs: &[Value], i: usize) -> Result<(), String> {
        let iv = Value::Num(vec![i as f64]);
        match spec.kind {
            LoopKind::Boost => {
                let cp = self.kernel("crossprod", &[&inputs[0]])?;
                let d = self.kernel("diag", &[&Value::Num(vec![BOOST_COLUMNS as f64])])?;
                let di = self.kernel("*", &[&d, &iv])?;
                let m = self.kernel("+", &[&cp, &di])?;
                let s = self.kernel("solve", &[&m])?;
                self.kernel("sum", &[&s])?;
            }
            LoopKind::MatVec => {
                let Value::Mat(v) = &inputs[1] else {
                    return Err("loop input is not a matrix".into());
                };
                // v[i]: R's linear indexing, column-major.
                let vi = Value::Num(vec![v.as_slice()[(i - 1) % v.len()]]);
                let scaled = self.kernel("*", &[&inputs[1], &vi])?;
                let c = self.kernel("%*%", &[&inputs[0], &scaled])?;
                self.kernel("mean", &[&c])?;
            }
        }
        Ok(())
    }

    /// A loop's total (each iteration best of reps) and its test drive.
    pub fn looped(&mut self, spec: &LoopSpec) -> Result<LoopCost, String> {
        let inputs = match spec.kind {
            LoopKind::Boost => vec![self.matrix(spec.n, BOOST_COLUMNS)],
            LoopKind::MatVec => vec![
                self.matrix(spec.n, spec.n),
                self.matrix(spec.n, MATVEC_COLUMNS),
            ],
        };
        let mut total = 0.0;
        let mut test_drive = 0.0;
        for i in 1..=spec.iterations {
            let mut best = f64::INFINITY;
            for r in 0..self.reps {
                let t = thread_seconds();
                self.iteration(spec, &inputs, i)?;
                let secs = thread_seconds() - t;
                if i == 1 && r == 0 {
                    test_drive = secs;
                }
                best = best.min(secs);
            }
            total += best;
        }
        Ok(LoopCost { total, test_drive })
    }
}
