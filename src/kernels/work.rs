//! What a call costs before it has ever run: its operation count at the
//! sizes shape inference gives its arguments, so a fresh history still
//! predicts sensibly (the cost models multiply it by the machine's
//! measured seconds per op).
//!
//! Counts are the textbook flops or comparisons of the algorithm each
//! kernel implements, times a constant measured on our own kernels: one
//! op is what the machine-speed measurement (`cost::speed`) makes it, about
//! a copied element; a kernel that is slower per flop (ranking, rnorm's
//! inversion) counts more, a blocked product less. Sizes that are unknown
//! count as 0.

use super::fun::Runs;
use super::{model_matrix, Args, Type};

/// A call's cost before it is measured: `ops` and `ld_adds` scale with
/// the machine's speed, `seconds` do not (`spin(s)` takes s anywhere). It
/// also counts what the call takes from the shared random stream, when
/// that is known before the run.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Work {
    pub ops: f64,
    /// Additions into an x87 extended-precision accumulator, one after
    /// the other (R's `LDOUBLE` sums: `sum`, `mean`, `cumsum`, `colSums`).
    /// Each waits for the one before, so they run at the FPU's latency,
    /// which relates to the rest of the work differently from one CPU to
    /// the next: a sum of 10⁶ numbers was 4.5 ops per element on one
    /// development VM and 10 on another (an AMD EPYC). They are priced at
    /// their own measured speed ([`Speed::per_ld_add`]).
    pub ld_adds: f64,
    /// Elements a memory-bound kernel (a matrix-vector product) reads
    /// once, from operands that fit in the machine's last-level cache.
    /// Their speed is the cache's bandwidth, which relates to the
    /// arithmetic differently from one machine to the next (1.1 ops per
    /// element on one development VM, 2.2 on a 16-core one), so they are
    /// priced at their own measured speed ([`Speed::per_streamed`]).
    pub streamed: f64,
    /// The same, from operands too big for that cache: they come from
    /// memory, 3x slower per element than from the cache on an AMD EPYC
    /// VM with 32 MB of it ([`Speed::per_fetched`]).
    pub fetched: f64,
    pub seconds: f64,
    /// Uniforms drawn from the shared stream (see `Rng::skip`), valid
    /// unless `unknown_draws`.
    pub draws: u64,
    /// Some call draws a number of uniforms only its run will tell
    /// (`sample`'s rejection, `kmeans`' starts, a count read from data).
    pub unknown_draws: bool,
}

impl Work {
    pub fn ops(ops: f64) -> Work {
        Work {
            ops: clamp(ops),
            ..Work::default()
        }
    }

    /// The draws from the shared stream, if known before the run.
    pub fn known_draws(self) -> Option<u64> {
        (!self.unknown_draws).then_some(self.draws)
    }

    /// The work of running a closure body `runs` times (see [`Runs`]).
    pub fn times(self, runs: Runs) -> Work {
        let scaled = |n: f64| Work {
            ops: clamp(self.ops * n),
            ld_adds: clamp(self.ld_adds * n),
            streamed: clamp(self.streamed * n),
            fetched: clamp(self.fetched * n),
            seconds: clamp(self.seconds * n),
            ..self
        };
        match runs {
            Runs::Exactly(n) => Work {
                draws: self.draws.saturating_mul(n as u64),
                ..scaled(n as f64)
            },
            Runs::About(n) => Work {
                unknown_draws: self.unknown_draws || self.draws > 0,
                ..scaled(n.max(1.0))
            },
            Runs::Unknown => Work {
                unknown_draws: self.unknown_draws || self.draws > 0,
                ..self
            },
        }
    }

    /// Predicted seconds at the machine's `speed`, finite whatever the
    /// sizes.
    pub fn seconds_at(self, speed: Speed) -> f64 {
        clamp(
            self.ops * speed.per_op
                + self.ld_adds * speed.per_ld_add
                + self.streamed * speed.per_streamed
                + self.fetched * speed.per_fetched
                + self.seconds,
        )
    }

    /// The work in ops of a machine whose long-double adds and streamed
    /// elements cost what they cost on the development machine: one
    /// number to compare works by, or to weigh a loop's iterations
    /// against each other.
    pub fn equivalent_ops(self) -> f64 {
        clamp(
            self.ops
                + self.ld_adds * LD_ADD_OPS
                + self.streamed * STREAMED_OPS
                + self.fetched * FETCHED_OPS,
        )
    }

    /// The work `t` of the way from `self` to `other` (0 ≤ t ≤ 1), count
    /// by count: a loop body's work between two sampled indices.
    pub fn lerp(self, other: Work, t: f64) -> Work {
        let mix = |a: f64, b: f64| clamp(a + (b - a) * t);
        Work {
            ops: mix(self.ops, other.ops),
            ld_adds: mix(self.ld_adds, other.ld_adds),
            streamed: mix(self.streamed, other.streamed),
            fetched: mix(self.fetched, other.fetched),
            seconds: mix(self.seconds, other.seconds),
            draws: 0,
            unknown_draws: false,
        }
    }
}

/// Ops one long-double add costs on the development machine: `sum` of
/// 10⁶ numbers ran at 4.5 ops per element there.
pub const LD_ADD_OPS: f64 = 4.5;
/// Ops one element streamed from the cache costs on the development
/// machine (a matrix-vector product's operands).
pub const STREAMED_OPS: f64 = 1.5;
/// Ops one element fetched from memory costs there: 3x one from cache.
pub const FETCHED_OPS: f64 = 4.5;

/// A machine's speed in the units [`Work`] counts. `cost::speed` measures
/// it; the priors multiply each count by its price.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Speed {
    pub per_op: f64,
    pub per_ld_add: f64,
    /// Seconds per element a product streams from the last-level cache.
    pub per_streamed: f64,
    /// Seconds per element it fetches from memory.
    pub per_fetched: f64,
}

impl Speed {
    /// A machine `seconds_per_op` fast whose long-double adds and streams
    /// relate to the rest as on the development machine: the speed of a
    /// history that measured only seconds per op.
    pub const fn at(seconds_per_op: f64) -> Speed {
        Speed {
            per_op: seconds_per_op,
            per_ld_add: seconds_per_op * LD_ADD_OPS,
            per_streamed: seconds_per_op * STREAMED_OPS,
            per_fetched: seconds_per_op * FETCHED_OPS,
        }
    }
}

impl std::ops::Add for Work {
    type Output = Work;
    fn add(self, o: Work) -> Work {
        Work {
            ops: clamp(self.ops + o.ops),
            ld_adds: clamp(self.ld_adds + o.ld_adds),
            streamed: clamp(self.streamed + o.streamed),
            fetched: clamp(self.fetched + o.fetched),
            seconds: clamp(self.seconds + o.seconds),
            draws: self.draws.saturating_add(o.draws),
            unknown_draws: self.unknown_draws || o.unknown_draws,
        }
    }
}

impl std::ops::AddAssign for Work {
    fn add_assign(&mut self, o: Work) {
        *self = *self + o;
    }
}

impl std::ops::Mul<f64> for Work {
    type Output = Work;
    /// Scales the cost; draws are left as they are (a loop's iterations
    /// draw from their own streams, never the shared one).
    fn mul(self, k: f64) -> Work {
        Work {
            ops: clamp(self.ops * k),
            ld_adds: clamp(self.ld_adds * k),
            streamed: clamp(self.streamed * k),
            fetched: clamp(self.fetched * k),
            seconds: clamp(self.seconds * k),
            ..self
        }
    }
}

/// Sizes multiply fast (n³ of a 10⁸-long vector overflows to inf, which
/// the scheduler cannot order): no cost exceeds this, and NaN is 0.
const MAX: f64 = 1e30;

fn clamp(x: f64) -> f64 {
    if x.is_nan() {
        0.0
    } else {
        x.clamp(0.0, MAX)
    }
}

/// Any call's fixed cost: argument matching, allocation of the result.
const CALL_OPS: f64 = 2e3;
/// A closure call's own cost, beyond its body's calls: `sapply(1:10000,
/// function(i) i * 2)` ran at 0.17-0.21 of a prior built on 4.4e3 on the
/// development VMs of two sessions, 0.2-0.3 µs a call.
const CLOSURE_CALL_OPS: f64 = 500.0;
/// Ops per element an index copies out (`x[1:n]`, `x[x > 0]`): the new
/// vector's pages are touched for the first time.
const PER_ACCESSED: f64 = 5.0;
/// Ops per element a slice copies (`x[a:b]`, `m[, j]`): a memory copy.
const PER_SLICED: f64 = 1.0;
/// Ops per element of a subscript read.
const PER_SUBSCRIPT: f64 = 2.0;

/// Ops per element of element-wise work (copying, adding), relative to a
/// multiply-add of the matrix product, which reuses what is in cache.
const PER_ELEMENT: f64 = 2.0;

/// One strncmp of two short strings (pmatch's and charmatch's pairs; not
/// measured).
const PER_STRNCMP: f64 = 10.0;
/// Ops per output skipped on the random stream: 0.25 ns on the 2-core
/// development machine (10 million in 2.5 ms).
const PER_SKIPPED: f64 = 1.1;
/// Ops per element of a transcendental function (exp, log).
const PER_TRANSCENDENTAL: f64 = 23.0;
/// Ops per normal deviate (R's inversion: a rational approximation of
/// qnorm per number, on two uniform draws).
const PER_RNORM: f64 = 170.0;
const PER_RUNIF: f64 = 33.0;
/// Ops per element of a permutation (`sample(n)`): a draw and a swap at a
/// random place, a cache miss once the vector outgrows the cache.
const PER_PERMUTED: f64 = 300.0;
/// Ops per element of `round(x, d)` (d ≠ 0) and `signif`: R's algorithm
/// tries candidates in long double.
const PER_ROUND_DIGITS: f64 = 250.0;
/// Ops per element of a vector's variance, standard deviation or
/// correlation: two passes in long double.
const PER_VECTOR_MOMENT: f64 = 30.0;
/// A correlation of two vectors: their means, then one pass over both
/// (`bench priors` measured 0.31-0.36 of 48 in two sessions).
const PER_VECTOR_CORRELATION: f64 = 16.0;
/// Ops per draw of a rejection sampler (rgamma, rbinom, …): about three
/// uniforms and a logarithm.
const PER_RGEN: f64 = 250.0;
/// Ops per cell of one random table (rcont2).
const RCONT_CELL: f64 = 600.0;
/// Ops per element-comparison of a sort (times n log2 n).
const SORT: f64 = 9.0;
const ORDER: f64 = 7.5;
const RANK: f64 = 11.5;
/// Ops per m·log2(m) of one Knight's count over two columns of m: a sort
/// of the pairs and a merge sort. `cor(x, y, method = "kendall")` took
/// 350, 490 and 670 ns per element at m = 1500, 15000 and 150000 on the
/// development machine (0.2 ns per op) when it counted three times (170
/// ops); it counts once now, 2.2x as fast on 300,000 pairs.
const KENDALL: f64 = 77.0;
/// Ops per cell read from a CSV file (parsing text).
const PER_CSV_CELL: f64 = 100.0;

/// The work of one call of `function` on `args` giving `result`.
pub fn work(function: &str, args: &Args<Type>, result: &Type) -> Work {
    if function == "spin" {
        // Its argument is the time; unknown until run time otherwise.
        let s = args.get("seconds").and_then(Type::const_scalar);
        return Work {
            ops: CALL_OPS,
            seconds: clamp(s.unwrap_or(0.0)),
            ..Work::default()
        };
    }
    let mut w = Work::ops(CALL_OPS + fixed_ops(function) + ops(function, args, result));
    if let Some(per) = ld_adds_per_element(function) {
        w.ld_adds = clamp(per * elements(result).max(input_elements(args)));
    }
    if matches!(function, "%*%" | "crossprod" | "tcrossprod") {
        // A product reads its operands once: all a matrix-vector product
        // does, at the speed of wherever they are.
        w += streamed(input_elements(args));
    }
    if super::registry().get(function).is_some_and(|k| k.random) {
        match super::data::draws(function, args) {
            Some(n) => w.draws = n,
            None => w.unknown_draws = true,
        }
    }
    w
}

/// `elements` read once by memory-bound work, from the cache or from
/// memory by their size. A loop's product reads the same matrix each
/// iteration: kept in the last-level cache when it fits, whereas from
/// half the cache's size on, more and more of it is evicted first (a
/// matrix-vector product of 16 MB ran 1.3x, and of 32 MB 3x, slower per
/// element than of 8 MB on a VM with 32 MB of L3).
fn streamed(elements: f64) -> Work {
    let elements = clamp(elements);
    let cache = crate::cpu_cache::last_level_bytes() as f64;
    let far = ((8.0 * elements - cache / 2.0) / (cache / 2.0)).clamp(0.0, 1.0);
    Work {
        streamed: elements * (1.0 - far),
        fetched: elements * far,
        ..Work::default()
    }
}

/// The work of skipping `draws` outputs of the random stream to where a
/// step starts drawing (`Rng::skip`: one state regeneration per 624).
pub fn skip_work(draws: u64) -> Work {
    Work::ops(PER_SKIPPED * draws as f64)
}

/// How an index access copies its result out of the target.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Copying {
    /// Element by element, at the positions the subscripts resolve to.
    Picked,
    /// Whole runs (`x[a:b]`, `m[, j]`, `m[a:b, ]`): a memory copy each.
    /// `x[a:b]` of a vector never builds or reads its subscript.
    Slice { subscripts_read: bool },
}

/// The work of an index or field access giving `result`: a copy of it,
/// after a pass over each subscript (a logical one as long as the target).
pub fn access_work(result: &Type, subscripts: &[Option<Type>], copy: Copying) -> Work {
    let read: f64 = subscripts.iter().flatten().map(elements).sum();
    let (per_element, read) = match copy {
        Copying::Picked => (PER_ACCESSED, read),
        Copying::Slice { subscripts_read } => {
            (PER_SLICED, if subscripts_read { read } else { 0.0 })
        }
    };
    Work::ops(CALL_OPS + per_element * elements(result) + PER_SUBSCRIPT * read)
}

/// The work of calling a closure once (`sapply(v, function(i) …)`): binding
/// its arguments and evaluating its body, beyond the body's own calls.
pub fn closure_call_work() -> Work {
    Work::ops(CLOSURE_CALL_OPS)
}

/// What a call costs whatever its sizes, beyond [`CALL_OPS`]: building a
/// model frame, a test's result record, opening a file. Measured on
/// 50-element inputs on the development machine (`flowcast bench priors`).
fn fixed_ops(function: &str) -> f64 {
    match function {
        "lm" | "aov" | "prcomp" | "lm.fit" | "lsfit" | "princomp" | "cancor" | "poly"
        | "factanal" => 2.5e5,
        // Its variables picked at the kept rows, the NA test per column.
        "model.frame" => 1e5,
        // nls's model frame; its formula's evaluations are counted apart.
        "glm" | "glm.fit" | "nls" => 4e5,
        // getInitial's linearising lm fits and its plinear nls fit, each
        // with its model frame; NLSstAsymptotic is one plinear fit.
        "getInitial" => 1.2e6,
        "NLSstAsymptotic" => 6e5,
        "read.csv" | "write.csv" | "list.files" => 4e5,
        "kmeans" | "hclust" | "cmdscale" => 5e4,
        // Workspace and the balancing and reduction passes: 0.15 ms for a
        // 30x30 matrix.
        "eigen" | "svd" | "La.svd" | "qr" => 3e5,
        "shapiro.test" => 2e4,
        // A qtukey per term and a ptukey per pair of levels, after the
        // projections (a QR apply per fitted column).
        "TukeyHSD" => 2e7,
        f if f.ends_with(".test") => 6e4,
        _ => 0.0,
    }
}

fn ops(function: &str, args: &Args<Type>, result: &Type) -> f64 {
    let out = elements(result);
    match function {
        // 2mkn flops, which a blocked matrix-matrix product does from
        // cache, fast; the operands' one read is counted in `work`.
        "%*%" => {
            let (m, n) = dims_or_len(result);
            let k = inner_dim(args.get("x"), args.get("y"));
            GEMM * 2.0 * m * k * n
        }
        "crossprod" => {
            let (m, _) = arg_dims(args, "x");
            let (p, q) = dims_or_len(result);
            GEMM * 2.0 * m * p * q
        }
        // x %*% t(y): the inner dimension is x's columns.
        "tcrossprod" => {
            let (_, n) = arg_dims(args, "x");
            let (p, q) = dims_or_len(result);
            GEMM * 2.0 * n * p * q
        }
        "solve" => {
            let (n, _) = arg_dims(args, "a");
            let k = match args.get("b") {
                Some(b) => dims_or_len(b).1,
                None => n,
            };
            SOLVE * (2.0 / 3.0 * n.powi(3) + 2.0 * n * n * k)
        }
        "eigen" => {
            let (n, _) = arg_dims(args, "x");
            let symmetric = args.get("symmetric").and_then(Type::const_scalar) == Some(1.0);
            let values_only = args.get("only.values").and_then(Type::const_scalar) == Some(1.0);
            let c = match (symmetric, values_only) {
                (true, true) => EIGEN_SYM_VALUES,
                (true, false) => EIGEN_SYM_VECTORS,
                (false, true) => EIGEN_GEN_VALUES,
                (false, false) => EIGEN_GEN_VECTORS,
            };
            c * n.powi(3)
        }
        // Values alone come from faer's bidiagonalisation, whose half in
        // matrix-vector products runs at memory speed on a square matrix:
        // 4mn² + 2n³ fits 2-core timings at n = 600 and 1000 (202 ms
        // against 90 ms by the 4mn² − 4n³/3 of the flops) and a
        // 4000 x 200 one. Vectors go along dgesdd; the long side's
        // vectors (a tall matrix's u) cost another 4(m − n)n²: 49 ms for
        // `svd` of 4000 x 200, against 19 ms for its values.
        "svd" | "La.svd" => {
            let (rows, cols) = arg_dims(args, "x");
            let (m, n) = tall((rows, cols));
            let none = |name| args.get(name).and_then(Type::const_scalar) == Some(0.0);
            if none("nu") && none("nv") {
                svd_values_ops(m, n)
            } else {
                let long = if rows >= cols { "nu" } else { "nv" };
                let long_side = if none(long) {
                    0.0
                } else {
                    4.0 * (m - n) * n * n
                };
                SVD * (4.0 * m * n * n + 8.0 * n.powi(3) + long_side)
            }
        }
        // Centring (and scaling) the columns, then an SVD.
        "prcomp" => {
            let (m, n) = tall(arg_dims(args, "x"));
            PRCOMP * (4.0 * m * n * n + 8.0 * n.powi(3)) + PER_CENTRED * m * n
        }
        "qr" => {
            let (m, n) = tall(arg_dims(args, "x"));
            qr_ops(m, n)
        }
        // A QR of the (tall) matrix, then triangular solves or estimates
        // (rcond's LU costs about as much).
        "kappa" | "qr.solve" | "lm.fit" | "lsfit" | "rcond" => {
            let name = match function {
                "kappa" => "z",
                "qr.solve" => "a",
                _ => "x",
            };
            let (m, n) = tall(arg_dims(args, name));
            // lm.fit also forms the effects, fitted values and residuals.
            let outputs = if matches!(function, "lm.fit" | "lsfit") {
                LM_CELL * m * n
            } else {
                0.0
            };
            qr_ops(m, n) + outputs + PER_ELEMENT * out
        }
        // The 2-norm is the largest singular value; the others one pass.
        "norm" => {
            let (m, n) = tall(arg_dims(args, "x"));
            if args.get("type").and_then(Type::const_str) == Some("2") {
                svd_values_ops(m, n)
            } else {
                PER_ELEMENT * m * n
            }
        }
        // The covariances, then an eigen (or SVD) of a p-by-p matrix.
        "princomp" | "cancor" => {
            let x = tall(arg_dims(args, "x"));
            // princomp has no `y`.
            let y = args
                .get_if_formal("y")
                .map_or((0.0, 0.0), |_| tall(arg_dims(args, "y")));
            let (m, p) = (x.0, x.1 + y.1);
            PRCOMP * (2.0 * m * p * p + 8.0 * p.powi(3)) + PER_CENTRED * m * p
        }
        // factanal: cov.wt's cross product of the n x p data, then
        // L-BFGS-B's iterations (O(iterations x p^3)): each evaluates FAfn
        // (a symmetric eigen's values of the scaled p x p correlation) and
        // FAgr (its vectors too), with the diagonal scalings done as
        // dgemm products (2 p^3 each, two of them per evaluation); and a
        // varimax or promax rotation, some iterations of p q^2 beside.
        "factanal" => {
            let p = match args.get("covmat") {
                Some(t) if !matches!(t, Type::Null) => dims_or_len(t).1,
                _ => arg_dims(args, "x").1,
            };
            let n = match args.get("covmat") {
                Some(t) if !matches!(t, Type::Null) => 0.0,
                _ => arg_dims(args, "x").0,
            };
            let q = scalar_arg(args, "factors", 1.0).max(1.0);
            let per_eval = (EIGEN_SYM_VALUES + EIGEN_SYM_VECTORS) * p.powi(3)
                + GEMM * 2.0 * 2.0 * 2.0 * p.powi(3)
                + PER_ELEMENT * p * p;
            PRCOMP * 2.0 * n * p * p
                + PER_CENTRED * n * p
                + FACTANAL_ITERATIONS * per_eval
                + VARIMAX_ITERATIONS * GEMM * 6.0 * p * q * q
        }
        // varimax: each iteration two products of p x q by q x q and the
        // SVD of a q x q matrix; promax adds a least-squares fit of q
        // columns on q (dqrdc2) and a q x q solve.
        "varimax" | "promax" => {
            let (p, q) = arg_dims(args, "x");
            let fit = if function == "promax" {
                qr_ops(p.max(q), q) * q + SOLVE * 2.0 * q.powi(3)
            } else {
                0.0
            };
            VARIMAX_ITERATIONS * (GEMM * 6.0 * p * q * q + SVD * 12.0 * q.powi(3)) + fit
        }
        // A QR of the n-by-degree Vandermonde columns.
        "poly" => {
            let n = args.get("x").map_or(0.0, elements);
            let d = scalar_arg(args, "degree", 1.0).max(1.0) + 1.0;
            QR * 2.0 * n * d * d + PER_TRANSCENDENTAL * n * d
        }
        // Comparing the matrix with its transpose.
        "isSymmetric" => 2.0 * PER_ELEMENT * input_elements(args),
        // Applying the stored reflectors to the identity's columns.
        "qr.Q" => {
            let (m, n) = dims_or_len(result);
            QR * 4.0 * m * n * n
        }
        "dist" => {
            let (m, n) = arg_dims(args, "x");
            // m²/2 pairs, a subtraction, square and add per coordinate.
            DIST * m * m / 2.0 * n * 3.0
        }
        "hclust" => {
            let n = args.get("d").map_or(0.0, dist_objects);
            HCLUST * n * n * n
        }
        // Each object's cluster is found by walking the merges: n² here.
        "cutree" => {
            let n = args
                .get("tree")
                .and_then(|t| t.field("order"))
                .map_or(0.0, elements);
            2.0 * n * n
        }
        "kmeans" => {
            let (m, d) = arg_dims(args, "x");
            let k = match args.get("centers") {
                Some(c) => match c.dims() {
                    Some(_) => dims_or_len(c).0,
                    None => c.const_scalar().unwrap_or(1.0),
                },
                None => 1.0,
            };
            let nstart = scalar_arg(args, "nstart", 1.0);
            let iter = scalar_arg(args, "iter.max", 10.0).min(KMEANS_ITERATIONS);
            KMEANS * m * k * d * iter * nstart
        }
        // nlm's own arithmetic per iteration beside f's calls (charged
        // through the closure): the triangular solves and secant update,
        // n^2 each, and the n + 1 lookups of the table of five recent
        // points that every evaluation makes; most fits stop well before
        // iterlim, so it is capped at a typical count.
        "nlm" => {
            let n = arg_dims(args, "p");
            let n = n.0 * n.1.max(1.0);
            let iter = scalar_arg(args, "iterlim", 100.0).clamp(1.0, NLM_ITERATIONS);
            NLM * iter * (n * n + 5.0 * n * (n + 1.0))
        }
        // nlminb's own arithmetic per iteration beside the objective's
        // calls (charged through the closure): the secant update and the
        // triangular solves of the dogleg, some n^2 each.
        "nlminb" => {
            let n = arg_dims(args, "start");
            let n = n.0 * n.1.max(1.0);
            NLM * NLM_ITERATIONS * 6.0 * n * n
        }
        // constrOptim: each evaluation of the barrier (or its gradient)
        // is two products `ui %*% theta` of the k x p constraints and a
        // pass over them; the searches make some hundreds of evaluations
        // in all (R's own examples: 200 to 400); f's and grad's bodies are
        // charged through their closures.
        "constrOptim" => {
            let (k, p) = arg_dims(args, "ui");
            CONSTR_OPTIM_EVALS * PER_ELEMENT * (4.0 * k * p + 3.0 * k)
        }
        // arima.sim: a normal deviate per point of the series and of its
        // burn-in (some tens of points for a stationary AR part), then the
        // MA and AR filters and the differences, a few terms per point.
        // Another `rand.gen`'s body is charged through its closure.
        "arima.sim" => {
            let n = scalar_arg(args, "n", 0.0).clamp(0.0, 1e8);
            let burn = scalar_arg(args, "n.start", ARIMA_SIM_BURN_IN).clamp(0.0, 1e8);
            (PER_RNORM + 4.0 * PER_ELEMENT) * (n + burn)
        }
        // ls.diag: the qr.qy of p unit columns (n p^2), the residual
        // statistics per row and the p x p inverse and product.
        "ls.diag" => LS_DIAG_OPS,
        // cophenetic: each pair of leaves written once by the merge that
        // joins them, then read into the lower triangle (n(n-1)/2 out).
        "cophenetic" => 4.0 * PER_ELEMENT * out.max(COPHENETIC_PAIRS),
        // loglin: each iteration makes and applies every margin's
        // marginal table, two passes over the table per margin; R's
        // default 20 iterations bound it, two margins charged.
        "loglin" => {
            let m = args.get("table").map_or(0.0, elements);
            let iter = scalar_arg(args, "iter", 20.0).clamp(1.0, 1e4);
            LOGLIN_PER_CELL * m * iter * 2.0
        }
        // arima: each likelihood is a Kalman filter pass over the series,
        // (r + d)^2 per observation, and optim's BFGS evaluates it about
        // 2k + 1 times per iteration for k parameters (central differences)
        // over a typical 30 iterations; rd is not known before the run,
        // so it is charged as small (r + d = 3).
        "arima" => {
            let n = arg_dims(args, "x");
            let n = n.0 * n.1.max(1.0);
            ARIMA * n * 9.0 * ARIMA_EVALS
        }
        // StructTS: a Kalman filter pass (2 p^3 flops an observation for
        // a state of p: 1, 2, or frequency + 1, charged as a quarterly
        // BSM's 5 when the type is not known) per likelihood, of which
        // L-BFGS-B's iterations and central differences take a few hundred.
        "StructTS" => {
            let n = args.get("x").map_or(0.0, elements);
            let p: f64 = match args.get("type").and_then(Type::const_str) {
                Some("level") => 1.0,
                Some("trend") => 2.0,
                _ => 5.0,
            };
            KALMAN * n * (2.0 * p.powi(3) + p) * STRUCT_TS_EVALS
        }
        // The filter's pass over y (the smoother's two, with n p^2 kept
        // covariances, charged as three); a model of e elements has a
        // state of about sqrt(e / 4).
        "KalmanLike" | "KalmanRun" | "KalmanSmooth" => {
            let n = args.get("y").map_or(0.0, elements);
            let p = (args.get("mod").map_or(0.0, elements) / 4.0)
                .sqrt()
                .max(1.0);
            let passes = if function == "KalmanSmooth" { 3.0 } else { 1.0 };
            KALMAN * n * 2.0 * p.powi(3) * passes
        }
        "KalmanForecast" => {
            let n = scalar_arg(args, "n.ahead", 10.0).clamp(0.0, 1e7);
            let p = (args.get("mod").map_or(0.0, elements) / 4.0)
                .sqrt()
                .max(1.0);
            KALMAN * n * 2.0 * p.powi(3)
        }
        // getQ0's Givens regression over np = r(r + 1)/2 unknowns, np^2
        // for each of its np rows.
        "makeARIMA" => {
            let r = args
                .get("phi")
                .map_or(0.0, elements)
                .max(args.get("theta").map_or(0.0, elements) + 1.0);
            let np = r * (r + 1.0) / 2.0;
            ARIMA * np * np * np.max(1.0)
        }
        // tsSmooth: KalmanSmooth over the fit's data and model.
        "tsSmooth" => {
            let e = args.get("object").map_or(0.0, elements);
            KALMAN * e * 2.0 * 125.0 * 3.0
        }
        // Ranking within each block (row).
        "friedman.test" => {
            let (m, n) = arg_dims(args, "y");
            FRIEDMAN * m * n * n.max(2.0).log2()
        }
        "wilcox.test" | "ks.test" | "mood.test" => {
            let samples: Vec<f64> = ["x", "y"]
                .iter()
                .filter_map(|name| args.get(name))
                .filter(|t| t.is_numeric())
                .map(elements)
                .collect();
            let n: f64 = samples.iter().sum();
            let c = match (function, samples.len()) {
                ("wilcox.test", 1) => WILCOX_ONE,
                ("wilcox.test", _) => WILCOX_TWO,
                ("ks.test", _) => KS,
                _ => MOOD,
            };
            // R's exact two-sample p-value (both samples under 50, no
            // ties): cwilcox's table of m·n·(m·n/2) counts.
            let exact = match (function, samples.as_slice()) {
                ("wilcox.test", &[m, k]) if m < 50.0 && k < 50.0 => {
                    WILCOX_EXACT_CELL * m * k * (m * k / 2.0)
                }
                _ => 0.0,
            };
            c * n * n.max(2.0).log2() + exact
        }
        // Ranking the pooled samples, and for the exact distribution (both
        // under 50 and no ties) ansari.c's counts: an array of up to
        // (m + 1)²/4 + m·n/2 per (i, j) reached.
        "ansari.test" => {
            let sizes: Vec<f64> = ["x", "y"]
                .iter()
                .filter_map(|name| args.get(name))
                .filter(|t| t.is_numeric())
                .map(elements)
                .collect();
            let n: f64 = sizes.iter().sum();
            let exact = match sizes.as_slice() {
                &[m, k] if m < 50.0 && k < 50.0 => {
                    WILCOX_EXACT_CELL * m * k * (m * m / 4.0 + m * k / 2.0)
                }
                _ => 0.0,
            };
            RANK * n * n.max(2.0).log2() + exact
        }
        // Ranks within groups or blocks, or a factor's codes per element.
        "fligner.test" | "quade.test" | "mantelhaen.test" => {
            let n = input_elements(args);
            RANK * n * n.max(2.0).log2()
        }
        // uniroot's Brent steps on the power function: some thirty
        // non-central t or normal tail probabilities.
        "power.t.test" | "power.prop.test" | "power.anova.test" => POWER_SOLVE,
        // The pairs' product has n terms; qbirthday evaluates it a few
        // times near its guess, about sqrt(2 classes log 2) draws.
        "pbirthday" => PER_ELEMENT * scalar_arg(args, "n", 1.0).abs().min(MAX),
        "qbirthday" => {
            let c = scalar_arg(args, "classes", 365.0).abs();
            4.0 * PER_ELEMENT * (2.0 * c * std::f64::consts::LN_2).sqrt().min(MAX)
        }
        // cwilcox's counts up to the furthest statistic asked for,
        // besides the per-element work.
        "dwilcox" | "pwilcox" | "qwilcox" => {
            let (m, n) = (scalar_arg(args, "m", 1.0), scalar_arg(args, "n", 1.0));
            let per = per_density(function).unwrap_or(PER_ELEMENT);
            per * out.max(input_elements(args))
                + WILCOX_EXACT_CELL * wilcox_cells(function, args, m, n)
        }
        // csignrank fills n·(n+1)/4 counts once per pass over 2..n.
        "dsignrank" | "psignrank" | "qsignrank" => {
            let n = scalar_arg(args, "n", 1.0);
            let per = per_density(function).unwrap_or(PER_ELEMENT);
            per * out.max(input_elements(args)) + n * n * (n + 1.0) / 8.0
        }
        // A uniform per rank: n of them per draw.
        "rwilcox" | "rsignrank" => PER_RUNIF * out * scalar_arg(args, "n", 1.0).max(1.0),
        // The model frame and matrix are built row by row, then the QR
        // of lm.fit (LINPACK's dqrdc2, as `qr`).
        "lm" | "aov" => {
            let (n, p) = formula_size(args.get("formula"));
            LM_ROW * n + qr_ops(n.max(p), p) + LM_CELL * n * p
        }
        // The model frame once, then one weighted least squares (with the
        // family's link, variance and deviance per row) per IRLS iteration.
        "glm" => {
            let (n, p) = formula_size(args.get("formula"));
            LM_ROW * n
                + glm_iterations(args) * (qr_ops(n.max(p), p) + GLM_ROW * n + LM_CELL * n * p)
        }
        // glm.fit: glm's IRLS on the model matrix given, no model frame.
        "glm.fit" => {
            let (n, p) = tall(arg_dims(args, "x"));
            glm_iterations(args) * (qr_ops(n.max(p), p) + GLM_ROW * n + LM_CELL * n * p)
        }
        // drop1: one least-squares refit (a glm: one per IRLS
        // iteration) per term, each on the model matrix less its columns;
        // the fit's rows are known only at run time, charged as 100. step:
        // a drop1 per step, charged as p/2 steps. add1: a refit per term
        // of the scope, charged as drop1's; update: one refit.
        "drop1" | "step" | "add1" | "update" => {
            let (p, glm) = match args.get("object") {
                Some(Type::Record { class, fields }) => (
                    fields
                        .iter()
                        .find(|(f, _)| f == "coefficients")
                        .and_then(|(_, t)| t.len())
                        .map_or(5.0, |p| p as f64),
                    class == "glm",
                ),
                _ => (5.0, false),
            };
            let n = DROP1_ROWS;
            let iterations = if glm { GLM_ITERATIONS } else { 1.0 };
            let steps = if function == "step" {
                (p / 2.0).max(1.0)
            } else if function == "update" {
                1.0 / p
            } else {
                1.0
            };
            steps * p * iterations * (qr_ops(n.max(p), p) + LM_CELL * n * p)
        }
        "chol" => {
            let (n, _) = arg_dims(args, "x");
            SOLVE * n.powi(3) / 3.0
        }
        "det" | "determinant" => {
            let (n, _) = arg_dims(args, "x");
            SOLVE * 2.0 / 3.0 * n.powi(3)
        }
        "backsolve" | "forwardsolve" => {
            let (k, c) = dims_or_len(result);
            k * k * c.max(1.0)
        }
        // Double centring, then a symmetric eigen with vectors.
        "cmdscale" => {
            let n = match args.get("d") {
                Some(t @ Type::Mat { .. }) => dims_or_len(t).0,
                Some(t) => dist_objects(t),
                None => 0.0,
            };
            EIGEN_SYM_VECTORS * n.powi(3) + 4.0 * n * n
        }
        "rnorm" | "rlnorm" => PER_RNORM * out,
        // Rejection samplers: a few uniforms, a log or exp each.
        "rgamma" | "rbeta" | "rchisq" | "rt" | "rf" | "rgeom" | "rnbinom" | "rhyper" => {
            PER_RGEN * out
        }
        "rweibull" | "rcauchy" | "rlogis" => (PER_RUNIF + PER_TRANSCENDENTAL) * out,
        // Random tables by rcont2: per cell a uniform and a walk from the
        // expected count, about 600 ops (a 5x6 table, n = 497: 4 µs a
        // table). A simulated p-value draws B of them (goodness of fit
        // draws B samples instead, charged alike).
        "r2dtable" => {
            let cells = ["r", "c"]
                .iter()
                .map(|a| args.get(a).map_or(1.0, elements))
                .product::<f64>();
            RCONT_CELL * scalar_arg(args, "n", 1.0).max(1.0) * cells
        }
        // The Smirnov distribution: a path count over the (m + 1) x (n + 1)
        // lattice per quantile (both C's recursion and the count with
        // ties); qsmirnov counts it at each of the lattice's statistics;
        // rsmirnov draws n random (m + n) x 2 tables (not measured).
        "psmirnov" | "qsmirnov" | "rsmirnov" => {
            let sizes = args.get("sizes").and_then(Type::const_nums);
            let (m, n) = match sizes.as_deref() {
                Some([m, n]) if m.is_finite() && n.is_finite() => (m.max(1.0), n.max(1.0)),
                _ => (10.0, 10.0),
            };
            let lattice = (m + 1.0) * (n + 1.0);
            match function {
                "psmirnov" => 4.0 * lattice * args.get("q").map_or(1.0, elements),
                "qsmirnov" => 4.0 * lattice * lattice.min(20001.0),
                _ => RCONT_CELL * 2.0 * (m + n) * scalar_arg(args, "n", 1.0).max(1.0),
            }
        }
        // Ranks of text or logicals; numbers and codes are a copy.
        "xtfrm" => {
            let n = input_elements(args);
            if first_is_text(args) {
                (RANK + STRING_COMPARE) * n * n.max(2.0).log2()
            } else {
                PER_ELEMENT * n
            }
        }
        "sort.list" => {
            let n = input_elements(args);
            let c = if first_is_text(args) {
                ORDER + STRING_COMPARE
            } else {
                ORDER
            };
            c * n * n.max(2.0).log2()
        }
        "chisq.test" | "fisher.test"
            if args
                .get("simulate.p.value")
                .and_then(Type::const_scalar)
                .is_some_and(|v| v != 0.0) =>
        {
            RCONT_CELL
                * scalar_arg(args, "B", 2000.0).max(1.0)
                * args.get("x").map_or(1.0, elements)
        }
        // Sorting the data.
        "fivenum" | "shapiro.test" | "kruskal.test" => {
            let n = input_elements(args);
            SORT * n * n.max(2.0).log2()
        }
        // A covariance matrix of the columns; Kendall's tau counts the
        // pairs of each pair of columns; Spearman's ranks every column
        // first. Two vectors are one pass over each.
        "cor" | "cov" => {
            let (m, n) = arg_dims(args, "x");
            // R matches the method partially: "k" is Kendall's.
            let method = args
                .get("method")
                .and_then(Type::const_str)
                .and_then(super::summary::corcov::method_tag);
            let log_m = m.max(2.0).log2();
            let ranks = match method {
                Some("spearman") => RANK * m * log_m * (n.max(1.0) + arg_dims(args, "y").1),
                _ => 0.0,
            };
            ranks
                + match (method == Some("kendall"), n <= 1.0) {
                    (true, _) => KENDALL * m * log_m * kendall_counts(n, arg_dims(args, "y").1),
                    (false, true) => PER_VECTOR_CORRELATION * input_elements(args),
                    (false, false) => VAR * 2.0 * m * n * n,
                }
        }
        "var" => {
            // A covariance matrix of a matrix's columns; a vector's variance.
            let (m, n) = arg_dims(args, "x");
            if n <= 1.0 {
                PER_VECTOR_MOMENT * input_elements(args)
            } else {
                VAR * 2.0 * m * n * n
            }
        }
        "read.csv" => PER_CSV_CELL * out,
        // Comparison sorts: n log n comparisons of the input.
        "sort" | "sort.int" | "order" | "rank" => {
            let n = input_elements(args);
            let c = match function {
                "sort" | "sort.int" => SORT,
                "order" => ORDER,
                _ => RANK,
            };
            let c = if first_is_text(args) {
                c + STRING_COMPARE
            } else {
                c
            };
            c * n * n.max(2.0).log2()
        }
        // Singleton's transform: a pass over the data per prime factor of
        // each dimension, as long as the factor.
        "fft" => {
            let (m, n) = arg_dims(args, "z");
            FFT * (fft_ops(m, n) + fft_ops(n, m))
        }
        // diffinv: a running sum over the result per difference.
        "diffinv" => PER_ELEMENT * out * scalar_arg(args, "differences", 1.0).clamp(1.0, MAX),
        // lag: a copy of the series under its new time base.
        "lag" => PER_ELEMENT * out,
        // toeplitz: one copy per cell of the n x n result.
        "toeplitz" => PER_ELEMENT * out,
        // mvfft: the columns' transforms alone.
        "mvfft" => {
            let (m, n) = arg_dims(args, "z");
            FFT * fft_ops(m, n)
        }
        // Binning, the kernel on 2n points, three transforms of 2n, and
        // the interpolation onto the output.
        "density" => {
            let x = args.get("x").map_or(0.0, elements);
            let n_user = scalar_arg(args, "n", 512.0);
            let grid = super::density::grid_points(n_user) as f64 * 2.0;
            let transforms = 3.0 * FFT * super::fft::factor_ops(grid as usize);
            let bandwidth = SORT * x * x.max(2.0).log2();
            PER_ELEMENT * x + PER_TRANSCENDENTAL * grid + transforms + bandwidth + APPROX * out
        }
        // Sorting x, then a bisection per output point.
        "approx" => {
            let x = args.get("x").map_or(0.0, elements);
            SORT * x * x.max(2.0).log2() + APPROX * out * x.max(2.0).log2()
        }
        // Stuetzle rescans the window when the median moves (n·k at
        // worst); Turlach's heap is log k per step. Not measured.
        "runmed" => {
            let n = args.get("x").map_or(0.0, elements);
            let k = scalar_arg(args, "k", 3.0).abs().clamp(1.0, n.max(1.0));
            if k < 20.0 || n < 300.0 {
                PER_ELEMENT * n * k
            } else {
                PER_ELEMENT * 4.0 * n * k.log2()
            }
        }
        // Medians of three repeated until nothing changes, a few passes
        // (not measured).
        "smooth" => 40.0 * PER_ELEMENT * args.get("x").map_or(0.0, elements),
        // Tukey's line sorts x once and the y thirds and residuals once
        // per iteration (not measured).
        "line" => {
            let n = args.get("x").map_or(0.0, elements);
            let iter = scalar_arg(args, "iter", 1.0).clamp(1.0, 100.0);
            SORT * n * n.max(2.0).log2() * (2.0 + iter)
        }
        // fivenum's sort, then a pass for the outliers.
        "boxplot.stats" => {
            let n = input_elements(args);
            SORT * n * n.max(2.0).log2() + PER_ELEMENT * n
        }
        // The functions that return functions sort their points (ecdf
        // counts its ties, splinefun solves for its coefficients once);
        // evaluating comes later, in their calls.
        "ecdf" | "approxfun" | "stepfun" => {
            let x = args.get("x").map_or(0.0, elements);
            SORT * x * x.max(2.0).log2() + PER_ELEMENT * x
        }
        "splinefun" => {
            let x = args.get("x").map_or(0.0, elements);
            SORT * x * x.max(2.0).log2() + 30.0 * PER_ELEMENT * x
        }
        "knots" => PER_ELEMENT * CALLED_KNOTS,
        // A call of a function value: a bisection among its knots and a
        // cubic at most per point. The knots are not typed: a typical
        // count is charged.
        super::callable::CALL_VALUE => APPROX * out * CALLED_KNOTS.log2(),
        // Sorting x, a tridiagonal solve over the knots (a few dozen
        // flops each), then a bisection and a cubic per output point.
        "spline" => {
            let x = args.get("x").map_or(0.0, elements);
            SORT * x * x.max(2.0).log2() + 30.0 * PER_ELEMENT * x + APPROX * out * x.max(2.0).log2()
        }
        // dpotri: inverting the triangle and multiplying it by its
        // transpose, n³/3 flops each.
        "chol2inv" => {
            let (_, n) = arg_dims(args, "x");
            SOLVE * 2.0 / 3.0 * n.powi(3)
        }
        // Inverting cov, then (x - center) %*% cov and the row sums.
        "mahalanobis" => {
            let (m, p) = arg_dims(args, "x");
            let (q, _) = arg_dims(args, "cov");
            SOLVE * 8.0 / 3.0 * q.powi(3) + GEMM * 2.0 * m * p * p + PER_ELEMENT * m * p
        }
        // A search per x that starts from the last answer: bisection of
        // vec at worst.
        // A binary search per element, after R's checks of each (NA, the
        // flags): 13-21 ms for 10⁶ elements on the development VM, loaded.
        "findInterval" => {
            let x = args.get("x").map_or(0.0, elements);
            let v = args.get("vec").map_or(0.0, elements);
            PER_ELEMENT * x * (v.max(2.0).log2() + FIND_INTERVAL) + PER_ELEMENT * v
        }
        // decompose: the moving average over a period per point (a dozen
        // coefficients, as for monthly data), then the seasonal means.
        "decompose" => {
            let n = args.get("x").map_or(0.0, elements);
            PER_ELEMENT * n * (DECOMPOSE_PERIOD + 4.0)
        }
        // stl: per inner pass, three loess smooths over windows of some
        // dozens of points (the seasonal, low-pass and trend smooths, at
        // every jump-th point) and three moving averages; inner passes
        // times one more than the robustness iterations.
        "stl" => {
            let n = args.get("x").map_or(0.0, elements);
            let robust = args.get("robust").is_some();
            let inner = scalar_arg(args, "inner", if robust { 1.0 } else { 2.0 }).max(0.0);
            let outer = scalar_arg(args, "outer", if robust { 15.0 } else { 0.0 }).max(0.0);
            STL * n * inner.max(1.0) * (outer + 1.0)
        }
        // HoltWinters: decompose of the start periods, then a run of the
        // filter (a dozen flops a point) per evaluation of the SSE: one
        // with every parameter given, optimize's two dozen for one free,
        // and for two or three L-BFGS-B's iterations (some 30 in R's
        // examples) of a value and a central-difference gradient each.
        "HoltWinters" => {
            let n = args.get("x").map_or(0.0, elements);
            let free = ["alpha", "beta", "gamma"]
                .iter()
                .filter(|p| matches!(args.get(p), None | Some(Type::Null)))
                .count();
            let runs = match free {
                0 => 1.0,
                1 => HW_OPTIMIZE_RUNS,
                k => HW_LBFGSB_ITERATIONS * (1.0 + 2.0 * k as f64),
            };
            PER_ELEMENT * n * (DECOMPOSE_PERIOD + 4.0) + HW_FILTER * n * (runs + 1.0)
        }
        // spec.pgram: detrending and tapering passes, a transform of the
        // padded length (nextn of n, within a few percent of n), and
        // three more for smoothing by spans.
        "spec.pgram" | "spectrum" => {
            let n = args.get("x").map_or(0.0, elements);
            let transforms = if args.get("spans").is_some() {
                4.0
            } else {
                1.0
            };
            6.0 * PER_ELEMENT * n + transforms * FFT * super::fft::factor_ops(n as usize)
        }
        // window: a copy of the rows kept (or padded).
        "window" => PER_ELEMENT * out.max(1.0),
        // A multiply-add per coefficient per point and column.
        "filter" => {
            let x = args.get("x").map_or(0.0, elements);
            let k = args.get("filter").map_or(0.0, elements);
            PER_ELEMENT * x * k.max(1.0)
        }
        // Three transforms of the (padded) length.
        "convolve" => {
            let n = input_elements(args);
            3.0 * FFT * super::fft::factor_ops(n as usize)
        }
        // A weighted fit over f·n neighbours per point, once plus once per
        // robustness iteration (delta skips points; not counted).
        "lowess" => {
            let n = args.get("x").map_or(0.0, elements);
            let f = scalar_arg(args, "f", 2.0 / 3.0).clamp(0.0, 1.0);
            let iter = scalar_arg(args, "iter", 3.0).max(0.0);
            LOWESS * n * (f * n).max(2.0) * (iter + 1.0)
        }
        // ksmooth: sorting x, then per output point the kernel sum over
        // the x within its cutoff (the box's half bandwidth, four times
        // the normal's scale), charged as all n: the worst case, a
        // bandwidth as wide as x's range.
        "ksmooth" => {
            let n = args.get("x").map_or(0.0, elements);
            let out = match result {
                Type::Record { fields, .. } => fields
                    .iter()
                    .find(|(f, _)| f == "x")
                    .and_then(|(_, t)| t.len())
                    .map_or(n.max(100.0), |m| m as f64),
                _ => n.max(100.0),
            };
            SORT * n * n.max(2.0).log2() + KSMOOTH * out * n
        }
        // isoreg: sorting x, the cumulative sums, then from each knot a
        // scan of the rest for the least slope: n^2/2 at worst (a fit
        // rising at every point), n for one knot; charged as n·√n, between.
        "isoreg" => {
            let n = args.get("x").map_or(0.0, elements);
            SORT * n * n.max(2.0).log2() + PER_ELEMENT * n * n.sqrt().max(1.0)
        }
        // medpolish: per sweep a median of every row and every column
        // (selection, about 3 passes over each) and a pass for the sum of
        // |residuals|; it usually settles in a few sweeps of maxiter.
        "medpolish" => {
            let (r, c) = arg_dims(args, "x");
            let sweeps = scalar_arg(args, "maxiter", 10.0).clamp(1.0, MEDPOLISH_SWEEPS);
            MEDPOLISH * r * c.max(1.0) * sweeps
        }
        // splineDesign, bs, ns: per x the knot search (a pass over the
        // knots) and the Cox-de Boor recursion, ord^2 terms, then the
        // design's row (its columns, mostly zero) written; ns also applies
        // the two reflections of its constraints' QR to each row, bs and
        // ns a quantile's sort of x for df.
        "splineDesign" | "bs" | "ns" => {
            let n = args.get("x").map_or(0.0, elements);
            let ord = match function {
                "splineDesign" => scalar_arg(args, "ord", 4.0),
                "bs" => scalar_arg(args, "degree", 3.0) + 1.0,
                _ => 4.0,
            }
            .clamp(1.0, 50.0);
            let cols = match result {
                Type::Mat { cols: Some(c), .. } => *c as f64,
                _ => ord + 3.0,
            };
            let knots = cols + ord;
            SORT * n * n.max(2.0).log2()
                + PER_ELEMENT * n * (knots + SPLINE_BASIS * ord * ord + 3.0 * cols)
        }
        // supsmu: sorting x, then running-lines smooths, each a constant
        // number of updates per point: one for a given span, seven for
        // "cv" (three spans, their residuals, the spans, the blend).
        "supsmu" => {
            let n = args.get("y").map_or(0.0, elements);
            let fixed =
                matches!(args.get("span"), Some(t) if t.const_scalar().is_some_and(|s| s > 0.0));
            let smooths = if fixed { 1.0 } else { 7.0 };
            SORT * n * n.max(2.0).log2() + SUPSMU * n * smooths
        }
        // smooth.spline: sorting x, then per fit the B-spline rows of the
        // data (stxwx, once), a banded Cholesky and solve over the knots,
        // the fit and leverages at the data (a few dozen flops a point);
        // the spar search fits about a dozen times (R's example takes 11),
        // a given spar, lambda or df-free fit once.
        "smooth.spline" => {
            let n = args.get("x").map_or(0.0, elements);
            let fits = if args.get("spar").is_some() || args.get("lambda").is_some() {
                1.0
            } else {
                SMOOTH_SPLINE_FITS
            };
            SORT * n * n.max(2.0).log2() + SMOOTH_SPLINE * n * (fits + 1.0)
        }
        // loess: local fits at the k-d tree's vertices (surface
        // "interpolate"; about 2^d per cell of n·span·cell points) or at
        // every point ("direct"); each finds its span·n nearest of the n
        // points and solves a weighted least squares of them on the local
        // polynomial's terms. The "symmetric" family refits 4 times more.
        // The exact trace of the hat matrix (the default) dominates: each
        // point's operator row is blended from its cell's vertices', each
        // as long as the span.
        "loess" => {
            let (n, cols) = formula_size(args.get("formula"));
            let d = (cols - 1.0).clamp(1.0, 4.0);
            let span = scalar_arg(args, "span", 0.75).clamp(0.01, 1.0);
            let degree = scalar_arg(args, "degree", 2.0).clamp(0.0, 2.0);
            let terms = 1.0
                + d * degree
                + if degree == 2.0 {
                    d * (d - 1.0) / 2.0
                } else {
                    0.0
                };
            let q = (n * span).max(1.0);
            let text = |name: &str| args.get(name).and_then(Type::const_str);
            let fits = if text("surface") == Some("direct") {
                n
            } else {
                (2f64.powf(d) * n / (q * LOESS_CELL)).clamp(2.0, n.max(2.0))
            };
            let passes = if text("family") == Some("symmetric") {
                5.0
            } else {
                1.0
            };
            let trace =
                if text("statistics") == Some("none") || text("trace.hat") == Some("approximate") {
                    0.0
                } else {
                    LOESS_TRACE * n * q * terms * 2f64.powf(d)
                };
            LOESS * passes * fits * (n + q * terms * terms) + trace
        }
        // Jenkins-Traub: per zero, shifts of Horner passes over the
        // remaining coefficients.
        "polyroot" => {
            let n = args.get("z").map_or(0.0, elements);
            POLYROOT * n * n
        }
        // A call of FUN (or a copy) per combination of m of the n.
        "combn" => {
            let x = args.get("x").map_or(0.0, |t| match t.const_scalar() {
                Some(n) if t.len() == Some(1) && n >= 1.0 => n,
                _ => elements(t),
            });
            let m = scalar_arg(args, "m", 1.0).clamp(0.0, x.max(0.0));
            let count = super::nmath::choose::choose(x, m).max(1.0);
            PER_ACCESSED * count * m.max(1.0)
        }
        // Rounding each value, a sort of them and a uniform each.
        "jitter" => {
            let n = args.get("x").map_or(0.0, elements);
            (PER_ROUND_DIGITS + PER_RUNIF) * n + SORT * n * n.max(2.0).log2()
        }
        // A binomial draw per cell but the last of each column.
        "rmultinom" => PER_RGEN * out,
        "kernapply" => {
            let n = args.get("x").map_or(0.0, elements);
            3.0 * 5.0 * n * n.max(2.0).log2() + 10.0 * n
        }
        // qr of the n x p design (2np² flops), then Q applied to rank
        // columns of the identity (2n p rank).
        "hat" => {
            let (n, p) = arg_dims(args, "x");
            let p = p + 1.0;
            4.0 * n * p * p
        }
        // Per draw: a chi-square or normal deviate per upper cell, then
        // a triangular product and a crossproduct (p³/2 and p³ flops).
        "rWishart" => {
            let n = scalar_arg(args, "n", 1.0).max(1.0);
            let (p, _) = arg_dims(args, "Sigma");
            n * (PER_RGEN * p * (p + 1.0) / 2.0 + 1.5 * p.powi(3))
        }
        // Ranks (two orders) and a normal quantile per value.
        "qqnorm" => {
            let n = args.get("y").map_or(0.0, elements);
            2.0 * ORDER * n * n.max(2.0).log2() + PER_TRANSCENDENTAL * n
        }
        // A long-double sum over every cell.
        "marginSums" | "margin.table" => {
            9.0 * args.get("x").map_or(0.0, elements) + PER_ELEMENT * out
        }
        // Comparing both values element by element, attributes too.
        "identical" | "all.equal" => PER_ELEMENT * input_elements(args),
        // A code per element of each factor, and a label per combination.
        // Quartiles (a sort) and the variance.
        "bw.nrd0" | "bw.nrd" => {
            let n = input_elements(args);
            SORT * n * n.max(2.0).log2() + PER_VECTOR_MOMENT * n
        }
        // hist: the class count (FD's quantiles sort x, Scott's takes the
        // variance), then a bisection over the breaks per x. Not measured.
        "hist" | "nclass.FD" | "nclass.scott" => {
            let n = args.get("x").map_or(0.0, elements);
            SORT * n * n.max(2.0).log2() + PER_VECTOR_MOMENT * n + APPROX * n * n.max(2.0).log2()
        }
        // bw.SJ, bw.ucv, bw.bcv: the pair counts (every pair of x, or
        // nb^2/2 pairs of bins once n > nb/2), then a few dozen sums of an
        // exp over the nb bins for optimize's or uniroot's steps. Not
        // measured.
        "bw.SJ" | "bw.ucv" | "bw.bcv" => {
            let n = args.get("x").map_or(0.0, elements);
            let nb = scalar_arg(args, "nb", 1000.0).clamp(1.0, 1e6);
            let pairs = if n > nb / 2.0 {
                n + nb * nb / 2.0
            } else {
                n * n / 2.0
            };
            PER_ELEMENT * pairs + BW_SELECTOR_SUMS * PER_TRANSCENDENTAL * nb
        }
        "length" | "nrow" | "ncol" => 0.0,
        // `outer` calls FUN on every pair: its result's size.
        "outer" => PER_ELEMENT * out,
        // rapply's walk visits each leaf once (f's work is charged by its
        // shape); unlist copies the result once more.
        "rapply" => 2.0 * PER_ELEMENT * out.max(input_elements(args)),
        // `round(x, d)` with d ≠ 0 tries R's candidates around x·10^d.
        "round"
            if args
                .get("digits")
                .is_some_and(|d| d.const_scalar() != Some(0.0)) =>
        {
            PER_ROUND_DIGITS * out
        }
        // R's acf: a sum over the series per lag and pair of columns
        // (lag.max defaults to 10·log10(n / columns)); pacf then runs
        // Durbin-Levinson's recursion over the lags.
        "acf" | "pacf" | "ccf" => {
            let (n, cols) = match function {
                "ccf" => (args.get("x").map_or(0.0, elements), 2.0),
                _ => arg_dims(args, "x"),
            };
            let cols = cols.max(1.0);
            let default_lag = (10.0 * (n.max(1.0).log10() - cols.log10())).floor();
            let lags = scalar_arg(args, "lag.max", default_lag).clamp(1.0, n.max(1.0));
            let lags = if function == "ccf" { 2.0 * lags } else { lags };
            ACF * n * (lags + 1.0) * cols * cols + lags * lags
        }
        // ar fits every order up to order.max (10·log10(n) by default):
        // Yule-Walker from the autocovariances by Levinson's recursion,
        // Burg by a pass over the series per order, least squares by a
        // crossproduct of the n × (m + 1) lags and a solve per order m.
        "ar" | "ar.yw" | "ar.burg" | "ar.ols" | "ar.mle" => {
            let (n, cols) = arg_dims(args, "x");
            let n = n.max(1.0);
            let default_order = (n - 1.0).min((10.0 * n.log10()).floor()).max(0.0);
            let p = scalar_arg(args, "order.max", default_order).clamp(0.0, n);
            let method = match function {
                "ar" => args.get("method").and_then(Type::const_str),
                f => f.strip_prefix("ar."),
            };
            let fit = match method {
                Some("ols") => GEMM * n * (p + 1.0).powi(3) / 3.0 + SOLVE * (p + 1.0).powi(4) / 6.0,
                Some("burg") => 6.0 * PER_ELEMENT * n * p,
                _ => ACF * n * (p + 1.0) + p * p,
            };
            fit * cols.max(1.0) + PER_ELEMENT * n * (p + 1.0)
        }
        // The ar fit (as ar's, its order.max the order when given) and a
        // sine and cosine per frequency and lag.
        "spec.ar" => {
            let n = args.get("x").map_or(0.0, elements).max(1.0);
            let p = scalar_arg(args, "order", (10.0 * n.log10()).floor().max(1.0));
            let freqs = scalar_arg(args, "n.freq", 500.0).max(0.0);
            ACF * n * (p + 1.0) + 2.0 * PER_TRANSCENDENTAL * freqs * p
        }
        // Levinson's recursion: a pass over the lower orders per order.
        "acf2AR" => {
            let n = args.get("acf").map_or(0.0, elements);
            PER_ELEMENT * n * n
        }
        // The step-down and step-up methods order the p-values and undo
        // the order (two sorts); Hommel's compares every pair.
        "p.adjust" => {
            let n = args.get("p").map_or(0.0, elements);
            match args.get("method").and_then(Type::const_str) {
                Some("bonferroni" | "none") => PER_ELEMENT * n,
                Some("hommel") => PER_ELEMENT * n * n,
                _ => 2.0 * ORDER * n * n.max(2.0).log2() + 6.0 * PER_ELEMENT * n,
            }
        }
        // A trimmed mean sorts its data first.
        "mean"
            if args
                .get("trim")
                .and_then(Type::const_scalar)
                .is_some_and(|t| t > 0.0) =>
        {
            let n = args.get("x").map_or(0.0, elements);
            SORT * n * n.max(2.0).log2()
        }
        // The copies of each string.
        "strrep" => {
            let chars = match args.get("x") {
                Some(Type::Str { value: Some(v), .. }) => {
                    v.iter().map(|s| s.len() as f64).sum::<f64>() / v.len().max(1) as f64
                }
                _ => 8.0,
            };
            let times = match args.get("times") {
                Some(t) if t.len() == Some(1) => t.const_scalar().unwrap_or(1.0).max(0.0),
                _ => 1.0,
            };
            PER_STRING * out + PER_CHAR_COPIED * chars * times * out
        }
        // Numbers written as text with 15 significant digits, or text
        // parsed as numbers.
        "as.character" if matches!(args.get("x"), Some(Type::Num { .. } | Type::Mat { .. })) => {
            PER_FORMATTED * out
        }
        "as.numeric" | "as.double" | "as.integer"
            if matches!(args.get("x"), Some(Type::Str { .. })) =>
        {
            PER_PARSED * out
        }
        // Numbers are written as text first (per_element's 2900 ops each);
        // strings are copied.
        "paste" | "paste0" => {
            let (text, other): (Vec<&Type>, Vec<&Type>) =
                args.all().partition(|t| matches!(t, Type::Str { .. }));
            let text: f64 = text.into_iter().map(elements).sum();
            let other: f64 = other.into_iter().map(elements).sum();
            let per_number = per_element(function).unwrap_or(PER_ELEMENT);
            (PER_PASTED_TEXT * text + per_number * other).max(PER_PASTED_TEXT * out)
        }
        // Each element's combined code, then a level per combination.
        "interaction" => PER_INTERACTION * out.max(args.all().next().map_or(0.0, elements)),
        "sample" | "sample.int" => {
            let replace = args.get("replace").and_then(Type::const_scalar) == Some(1.0);
            if replace {
                PER_RUNIF * 4.0 * out
            } else {
                PER_PERMUTED * out
            }
        }
        // do_pmatch and do_charmatch compare each string with the whole
        // table (no hashing below 100 of each), a strncmp a pair.
        "pmatch" | "charmatch" => {
            let n = |name| args.get(name).map_or(0.0, elements);
            PER_STRNCMP * n("x") * n("table").max(1.0)
        }
        _ => {
            let per = per_element(function)
                .or_else(|| per_density(function))
                .unwrap_or(PER_ELEMENT);
            per * out.max(input_elements(args)) + text_keys(function, args)
        }
    }
}

/// Long-double adds per element (of the larger of the arguments and the
/// result) of R's extended-precision reductions: one pass, or two for
/// `mean`'s correction pass and the variance's.
fn ld_adds_per_element(function: &str) -> Option<f64> {
    match function {
        "sum" | "prod" | "cumsum" | "cumprod" | "colSums" | "colMeans" => Some(1.0),
        "mean" | "weighted.mean" | "sd" => Some(2.0),
        _ => None,
    }
}

/// Ops per element (of the larger of the arguments and the result) of
/// the kernels whose work is a pass or two over their data: each one's
/// time on 10⁶ elements at the speed `cost::speed` measures, on the 2-core
/// development machine (release build), `flowcast bench priors`. R's long
/// double accumulation makes sums and means slower than a copy; hashing,
/// factor codes and text formatting far slower. The long-double family
/// (sum, cumsum, mean, sd, colSums) was measured again once it had become
/// faster: it ran at 0.5-0.6 of its old prior. Their long-double adds
/// ([`ld_adds_per_element`]) are counted apart: what is left here is the
/// rest of their work (4.5, 6, 10, 18 and 4.8 ops per element in all on
/// the development machine).
fn per_element(function: &str) -> Option<f64> {
    Some(match function {
        "sum" | "prod" => 0.0,
        "cumsum" | "cumprod" => 1.5,
        "mean" | "weighted.mean" => 1.0,
        "sd" => 9.0,
        "cummax" | "cummin" | "which.max" | "which.min" | "abs" | "rev" | "^" => 6.0,
        "min" | "max" | "diff" | "t" => 3.5,
        "range" => 8.0,
        "floor" | "ceiling" | "trunc" | "sign" | "seq" | "seq.int" | "matrix" => 5.0,
        "round" => 2.5,
        "colSums" | "colMeans" => 0.3,
        "rowSums" | "rowMeans" => 20.0,
        "exp" | "log" | "logb" | "log2" | "log10" | "expm1" | "log1p" => 23.0,
        // libm calls, as exp and log (not measured).
        "sin" | "cos" | "tan" | "atan" | "atan2" | "Mod" | "Arg" | "asin" | "acos" | "sinh"
        | "cosh" | "tanh" | "asinh" | "acosh" | "atanh" | "cospi" | "sinpi" | "tanpi" => 23.0,
        // dpsifn: up to a dozen series terms and a recursion (not measured).
        "digamma" | "trigamma" | "psigamma" => 120.0,
        // A recurrence over the order's integer part (not measured).
        "besselI" | "besselK" | "besselJ" | "besselY" => 400.0,
        // Chebyshev series and a few libm calls per element (not measured).
        "gamma" | "lgamma" | "factorial" | "lfactorial" | "beta" | "lbeta" | "choose"
        | "lchoose" => 60.0,
        // A pass building STATS' matrix and FUN's arithmetic (not measured).
        "sweep" => 7.0,
        "sqrt" => 13.0,
        "==" | "!=" | "<" | ">" | "<=" | ">=" | "&" | "|" | "!" | "xor" => 3.5,
        "is.na" | "is.finite" | "is.infinite" | "is.nan" | ":" | "seq_len" | "seq_along" => 2.0,
        // Per element of both operands.
        "+" | "-" | "*" | "/" => 3.5,
        "unique" | "duplicated" | "anyDuplicated" | "%in%" | "match" | "union" | "intersect"
        | "setdiff" | "setequal" => 70.0,
        "which" => 18.0,
        "ifelse" => 22.0,
        // A copy (measured at 0.15-0.27 of 14 in two sessions).
        "rep" | "rep_len" | "rep.int" => 3.0,
        // A copy of the data into its new shape; text columns of
        // data.matrix are made factors first, as factor() (not measured).
        "drop" | "mat.or.vec" | "asplit" | "structure" | "list2DF" | "getElement" => 3.0,
        "data.matrix" => 136.0,
        // A pass testing each element for NA, then a copy of the kept
        // ones (na.omit, na.exclude) or of all (naresid's padding, addNA).
        "na.omit" | "na.exclude" | "na.fail" | "na.pass" | "complete.cases" | "naresid"
        | "napredict" | "addNA" => 3.0,
        // Reads one element of the fit.
        "na.action" => 0.0,
        // cbind and rbind write their result in its final order, a copy as c.
        "c" | "cbind" | "rbind" | "append" => 3.0,
        "apply" => 24.0,
        "median" => 14.0,
        "quantile" => 40.0,
        "IQR" => 28.0,
        "mad" => 40.0,
        "table" | "factor" | "as.factor" | "ordered" | "as.ordered" | "cut" => 136.0,
        // `by` is tapply's grouping plus a copy of each cell's rows.
        // reorder is tapply's grouping, then a sort of the levels.
        "tapply" | "split" | "by" | "reorder" => 110.0,
        "aggregate" | "ave" => 250.0,
        "merge" => 200.0,
        // Long: a copy of each cell and one pasted row name per row (spread
        // over the columns); wide: duplicated and one match per time of the
        // ids, as merge's hashing (not measured).
        "reshape" => 70.0,
        // A selfStart model: two or three exp per element, its value and a
        // gradient column per parameter (not measured).
        "SSasymp" | "SSasympOff" | "SSasympOrig" | "SSbiexp" | "SSfol" | "SSfpl" | "SSlogis"
        | "SSmicmen" | "SSgompertz" | "SSweibull" => 90.0,
        // tapply's grouping of y by x, then a sort of the levels.
        "sortedXyData" => 110.0,
        "NLSstClosestX" | "NLSstRtAsymptote" | "NLSstLfAsymptote" => 3.0,
        "subset" | "expand.grid" | "with" | "within" | "transform" => 6.0,
        "pmax" | "pmin" | "pmax.int" | "pmin.int" => 60.0,
        "scale" => 52.0,
        "paste" | "paste0" | "sprintf" | "format" | "formatC" | "prettyNum" | "format.pval" => {
            2900.0
        }
        "grepl" | "grep" | "sub" | "gsub" | "regexpr" | "gregexpr" | "regexec" | "regmatches"
        | "strsplit" | "trimws" => 1000.0,
        "substr" | "substring" | "toupper" | "tolower" | "chartr" | "nchar" | "nzchar"
        | "strrep" | "utf8ToInt" | "intToUtf8" | "strtrim" | "toString" => 200.0,
        // Two regex splits and a greedy fill per character of the text
        // (not measured).
        "strwrap" => 1000.0,
        // A write per element of the result, as rep's copy.
        "sequence" | "gl" => 3.0,
        // A name lookup per element of val in x, and x's copy.
        "modifyList" => 70.0,
        // kernapply: three transforms of n points (each about 5 n log2 n
        // flops, fft's own price) and a product; the others a pass over
        // the 2m + 1 weights.
        "kernel" | "df.kernel" | "bandwidth.kernel" => 20.0,
        // A binary search of the cutpoints and a string copy per element.
        "symnum" => 60.0,
        "signif" => PER_ROUND_DIGITS,
        "runif" => PER_RUNIF,
        "rexp" | "rpois" => 136.0,
        "rbinom" => 204.0,
        "t.test" | "var.test" => 2.0 * PER_VECTOR_MOMENT,
        _ => return None,
    })
}

/// Ops per element of a density, distribution or quantile function:
/// measured for the normal; the others' special functions (incomplete
/// gamma and beta, their inversions) cost a few times more.
fn per_density(function: &str) -> Option<f64> {
    const FAMILIES: &[&str] = &[
        "unif", "binom", "pois", "exp", "gamma", "beta", "chisq", "t", "f", "lnorm", "weibull",
        "cauchy", "logis", "geom", "hyper", "nbinom", "signrank", "wilcox",
    ];
    if let Some(c) = match function {
        "dnorm" => Some(92.0),
        "pnorm" => Some(140.0),
        "qnorm" => Some(96.0),
        // Timed in R 4.2.2 against pnorm (q in 0..6, 5 means, 20 df):
        // ptukey's two nested quadratures cost some 7600 pnorms, qtukey's
        // secant search about eight ptukeys.
        "ptukey" => Some(1.1e6),
        "qtukey" => Some(8e6),
        _ => None,
    } {
        return Some(c);
    }
    let (kind, family) = function.split_at(function.len().min(1));
    if !FAMILIES.contains(&family) {
        return None;
    }
    match kind {
        "d" => Some(150.0),
        "p" => Some(300.0),
        "q" => Some(1000.0),
        _ => None,
    }
}

// Ops per textbook flop (or comparison) of each kernel: its time on
// square matrices of 100..1000 (tall ones of 400..4000 × 30, vectors of
// 10⁵..10⁶) over the count, at the speed `cost::speed` measures, fitted on
// the 2-core development machine (release build) so the prior is within
// 2x of the time across those sizes. Blocked dense kernels run many flops
// per op; sorting, ranking and random draws cost many ops per element.
const GEMM: f64 = 0.13;
/// bw.SJ, bw.ucv, bw.bcv: the binned sums their root or minimum search
/// evaluates (not measured: uniroot and optimize take a dozen or two).
const BW_SELECTOR_SUMS: f64 = 30.0;
const SOLVE: f64 = 0.16;
/// Times n³. Our general eigen (Hessenberg, multishift QR, vectors) grows
/// more slowly than n³ over 100..1000 (n^2.4): these are its middle.
const EIGEN_SYM_VALUES: f64 = 0.43;
const EIGEN_SYM_VECTORS: f64 = 0.85;
const EIGEN_GEN_VALUES: f64 = 2.6;
const EIGEN_GEN_VECTORS: f64 = 3.4;
const SVD: f64 = 0.15;
const PRCOMP: f64 = 0.22;
const QR: f64 = 0.18;
/// Ops per flop of [`dqrdc2`]'s unblocked steps, a dot product and an axpy
/// per column and reflector: passes over columns that a tall matrix's do
/// not leave in cache. With [`QR_CELL`], fitted to `qr` of 2x10⁵ by 4 and
/// by 20, and 10⁶ by 2 and by 5 (1.7 ops per m·n², 38 per cell), which
/// the blocked constant alone predicted 10-20x too fast.
///
/// [`dqrdc2`]: crate::kernels::linalg::linpack::dqrdc2
const QR_UNBLOCKED: f64 = 0.85;
/// Ops per cell of a QR, whatever its shape: LINPACK's column norms
/// (R's dnrm2, a division per element) before and as each reflector is
/// formed, and the copies in and out.
const QR_CELL: f64 = 38.0;
const DIST: f64 = 2.5;
/// Times n³: Murtagh's nearest-neighbour lists rescan a row per merge
/// once n is past a thousand.
const HCLUST: f64 = 0.045;
const KMEANS: f64 = 70.0;
/// Hartigan–Wong converges in a few passes, well before `iter.max`.
const KMEANS_ITERATIONS: f64 = 5.0;
/// nlm: iterations charged at most (Rosenbrock's takes 23) and ops per
/// term of an iteration's n^2 and table-lookup work (not measured: the
/// PER_ELEMENT order of a copied element and a comparison).
const NLM_ITERATIONS: f64 = 25.0;
const NLM: f64 = 4.0;
/// arima.sim's burn-in when `n.start` is not given: `p + q +
/// ceiling(6 / log(minroots))`, some tens of points for typical models.
const ARIMA_SIM_BURN_IN: f64 = 30.0;
/// The knots of a function value (ecdf's data, a spline's points), which
/// its type does not carry: a sample of some hundreds.
const CALLED_KNOTS: f64 = 256.0;
/// ls.diag on an lsfit result of unknown size (the record's sizes are not
/// typed): a fit of tens of rows and a few columns.
const LS_DIAG_OPS: f64 = 2e4;
/// cophenetic of a tree of unknown size (an hclust's sizes are seldom
/// typed): some tens of leaves.
const COPHENETIC_PAIRS: f64 = 1e3;
/// loglin's ops per cell per margin per iteration: collap's coordinate
/// update and index sum, adjust's scaling.
const LOGLIN_PER_CELL: f64 = 12.0;
/// constrOptim's evaluations of its barrier and gradient over all its
/// outer iterations, typically (R's examples: 200 to 400).
const CONSTR_OPTIM_EVALS: f64 = 300.0;
/// factanal: L-BFGS-B's evaluations of FAfn and FAgr charged (not
/// measured: R 4.2.2 takes 8 to 40 on six- and seven-variable fits);
/// varimax: the iterations its rotation takes (not measured: a handful
/// to a few dozen until the criterion gains less than eps).
const FACTANAL_ITERATIONS: f64 = 30.0;
const VARIMAX_ITERATIONS: f64 = 15.0;
/// arima: ops per covariance entry per observation, and likelihood
/// evaluations charged (not measured: 30 BFGS iterations of a
/// three-parameter fit).
const ARIMA: f64 = 4.0;
/// Ops per multiply-add of a Kalman filter step (not measured).
const KALMAN: f64 = 2.0;
/// StructTS: likelihoods L-BFGS-B evaluates (some 30 iterations of a
/// value and a central-difference gradient over up to four variances).
const STRUCT_TS_EVALS: f64 = 270.0;
const ARIMA_EVALS: f64 = 210.0;
/// splineDesign, bs, ns: ops (in PER_ELEMENT units) per term of the
/// Cox-de Boor recursion: a divide, two multiplies, an add and the
/// differences' loads (not measured: from the loop's shape).
const SPLINE_BASIS: f64 = 3.0;
const FRIEDMAN: f64 = 22.0;
const WILCOX_ONE: f64 = 50.0;
const WILCOX_TWO: f64 = 30.0;
/// Per count of cwilcox's table (0.3 ms for 24 against 24).
const WILCOX_EXACT_CELL: f64 = 8.0;
const KS: f64 = 12.0;
const MOOD: f64 = 135.0;
/// A power calculation solved by uniroot: ~30 tail probabilities of a
/// few hundred ops each.
const POWER_SOLVE: f64 = 2e4;
/// Ops per row of a model frame and matrix: 110 ms for `lm(x ~ y)` on
/// 10⁶ rows, where the QR's flops are 2 ms.
const LM_ROW: f64 = 400.0;
/// Ops per cell of the model matrix (copies, residuals, effects).
const LM_CELL: f64 = 20.0;
/// Ops per row of an IRLS iteration: the link, its derivative, the
/// variance, the weights and the deviance residuals.
const GLM_ROW: f64 = 300.0;
/// Ops per element of centring and scaling a matrix's columns.
const PER_CENTRED: f64 = 40.0;
/// IRLS iterations a glm typically takes (R's usual 4 to 6).
const GLM_ITERATIONS: f64 = 5.0;
/// drop1: the rows of a fit, unknown before it runs.
const DROP1_ROWS: f64 = 100.0;
const VAR: f64 = 1.45;
/// Ops per complex butterfly term of Singleton's transform (not measured:
/// a complex multiply-add, about four flops and a load).
const FFT: f64 = 4.0;
/// Ops per output point of an interpolation step (not measured).
const APPROX: f64 = 3.0;
/// Ops per product of a lagged covariance (`acf`): 70 ms for 61 lags of
/// 10⁶ numbers on the 2-core development VM, loaded.
const ACF: f64 = 5.0;
/// Ops per string of a copy or a new string: its own allocation.
const PER_STRING: f64 = 30.0;
/// Ops per character copied into a new string (a memory copy):
/// strrep("ab", 1e7) took 0.7 ms on the development VM.
const PER_CHAR_COPIED: f64 = 0.2;
/// Ops per number written with 15 significant digits (`as.character`),
/// and per string read as a number: as.numeric(as.character(x)) of 2·10⁵
/// numbers took 70 ms on the 2-core development VM, loaded; R 4.2 100 ms.
const PER_FORMATTED: f64 = 1300.0;
const PER_PARSED: f64 = 400.0;
/// Ops per element of `interaction`: its codes, and the level labels of
/// the combinations (53-330 ms for 10⁶ elements on the development VM,
/// loaded; R 4.2 150 ms).
const PER_INTERACTION: f64 = 250.0;
/// Ops per string key hashed (`unique`, `match`, `table` of text): the
/// string is read from wherever it lives, a cache miss a string that
/// numbers do not pay (R compares its cached strings by address).
/// duplicated of 2·10⁵ strings took 12-31 ms on the development VM.
const STRING_KEY: f64 = 350.0;
/// Ops per comparison of two strings in a sort, by the collation's rules
/// (`factor` of 2·10⁵ strings with 10⁵ distinct: 100-180 ms).
const STRING_COMPARE: f64 = 120.0;
/// Ops per string pasted from text (a copy into the new string), against
/// [`per_element`]'s 2900 per number written as text.
const PER_PASTED_TEXT: f64 = 400.0;
/// findInterval's ops per element beyond its search (in PER_ELEMENT's).
const FIND_INTERVAL: f64 = 20.0;
/// decompose: the period its moving average takes (not measured).
const DECOMPOSE_PERIOD: f64 = 12.0;
/// stl: ops per point of one inner pass (three loess fits of a few dozen
/// weighted points each; not measured).
const STL: f64 = 300.0;
/// HoltWinters: ops per point of one run of the filter (not measured).
const HW_FILTER: f64 = 12.0;
/// HoltWinters: runs of the filter optimize takes for one free parameter.
const HW_OPTIMIZE_RUNS: f64 = 25.0;
/// HoltWinters: L-BFGS-B's iterations for two or three free parameters
/// (R 4.2.2 takes 15 to 45 on its datasets' series).
const HW_LBFGSB_ITERATIONS: f64 = 30.0;
/// Ops per neighbour of a lowess fit: its tricube weight and three
/// weighted sums (not measured).
const LOWESS: f64 = 12.0;
/// loess: ops per point of one local fit (its distance, the selection of
/// the nearest, and its share of the weighted QR), `cell`'s default, and
/// the exact trace's ops per point, neighbour, term and vertex of a cell.
/// Fitted to flowcast's own times at n = 1000 to 8000, one and two
/// predictors (within 1.5x).
const LOESS: f64 = 20.0;
const LOESS_CELL: f64 = 0.2;
const LOESS_TRACE: f64 = 10.0;
/// ksmooth: ops per point within a kernel's reach (a compare, a kernel
/// value, two multiply-adds; exp for the normal). Not measured.
const KSMOOTH: f64 = 6.0;
/// medpolish: ops per cell per sweep (two medians by selection, two
/// subtractions, |z| summed in long double) and sweeps charged at most.
/// Not measured.
const MEDPOLISH: f64 = 30.0;
const MEDPOLISH_SWEEPS: f64 = 4.0;
/// supsmu: ops per point of one running-lines smooth (the window's
/// moving means and co-moments, the fit and its cross-validated
/// residual). Not measured.
const SUPSMU: f64 = 40.0;
/// smooth.spline: ops per data point of one fit (bvalue, bsplvd and the
/// leverage sum: about 60 flops; not measured) and the fits a spar search
/// makes.
const SMOOTH_SPLINE: f64 = 60.0;
const SMOOTH_SPLINE_FITS: f64 = 12.0;
/// Ops per coefficient per zero of polyroot: some fifty Horner steps of
/// complex arithmetic over the shifts (not measured).
const POLYROOT: f64 = 400.0;

/// The work of transforming the `m` rows of each of `n` columns (a vector
/// is one column).
fn fft_ops(m: f64, n: f64) -> f64 {
    if m < 2.0 {
        return 0.0;
    }
    super::fft::factor_ops(m as usize) * n.max(1.0)
}

/// Elements of a value, and of a result object, its parts'.
fn elements(t: &Type) -> f64 {
    match t {
        Type::Record { fields, .. } => fields.iter().map(|(_, f)| elements(f)).sum(),
        Type::List { len, elem } => len.map_or(0.0, |n| n as f64) * elements(elem),
        Type::Formula { .. } => 0.0,
        _ => t.len().map_or(0.0, |n| n as f64),
    }
}

fn input_elements(args: &Args<Type>) -> f64 {
    args.all().map(elements).sum()
}

/// Rows and columns; a vector is one column.
fn dims_or_len(t: &Type) -> (f64, f64) {
    let size = |n: Option<usize>| n.map_or(0.0, |n| n as f64);
    match t.dims() {
        Some((r, c)) => (size(r), size(c)),
        None => (elements(t), 1.0),
    }
}

/// The ops `eigen` saves on an n×n matrix R finds symmetric at run time,
/// against the general path shape inference priced it at (no `symmetric`
/// argument).
pub fn eigen_symmetric_saving(n: f64, values_only: bool) -> f64 {
    let (general, symmetric) = if values_only {
        (EIGEN_GEN_VALUES, EIGEN_SYM_VALUES)
    } else {
        (EIGEN_GEN_VECTORS, EIGEN_SYM_VECTORS)
    };
    clamp((general - symmetric) * n.powi(3))
}

fn arg_dims(args: &Args<Type>, name: &str) -> (f64, f64) {
    args.get(name).map_or((0.0, 0.0), dims_or_len)
}

/// Knight's counts `cor(x, y, method = "kendall")` makes for x of `nx`
/// columns and y of `ny` (none without y): one per pair of columns, a
/// triangle of them for x alone, and each column's own for the standard
/// deviations of a cross-correlation; a vector pair takes one in all.
fn kendall_counts(nx: f64, ny: f64) -> f64 {
    let nx = nx.max(1.0);
    if ny == 0.0 {
        nx * (nx + 1.0) / 2.0
    } else if nx == 1.0 && ny <= 1.0 {
        1.0
    } else {
        nx * ny + nx + ny
    }
}

/// Long side first: the decompositions' counts assume m ≥ n.
/// The singular values alone of an m x n matrix, m ≥ n (see `svd`).
fn svd_values_ops(m: f64, n: f64) -> f64 {
    SVD * (4.0 * m * n * n + 2.0 * n.powi(3))
}

fn tall((m, n): (f64, f64)) -> (f64, f64) {
    (m.max(n), m.min(n))
}

/// The shared dimension of `x %*% y`; a vector takes whichever shape
/// conforms, as in R.
fn inner_dim(x: Option<&Type>, y: Option<&Type>) -> f64 {
    match (x.and_then(Type::dims), y.and_then(Type::dims)) {
        (Some(_), _) => x.map_or(0.0, |x| dims_or_len(x).1),
        (None, Some(_)) => y.map_or(0.0, |y| dims_or_len(y).0),
        _ => x.map_or(0.0, elements),
    }
}

fn scalar_arg(args: &Args<Type>, name: &str, default: f64) -> f64 {
    match args.get(name) {
        None => default,
        Some(t) => t
            .const_scalar()
            .filter(|v| v.is_finite())
            .unwrap_or(default),
    }
}

/// Objects clustered from a `dist` value.
fn dist_objects(d: &Type) -> f64 {
    if let Some(n) = d.field("size").and_then(Type::const_scalar) {
        return n;
    }
    let len = d.field("values").map_or(0.0, elements);
    (1.0 + (1.0 + 8.0 * len).sqrt()) / 2.0
}

/// Rows and columns (intercept included) of a formula's model matrix.
/// The ops of R's QR (`dqrdc2`) of a tall m-by-n matrix. Only a trailing
/// matrix of at least `WY_MIN` rows and columns is updated by blocks of
/// `WY_BLOCK` reflectors (matrix products, [`QR`]); the last `WY_MIN`
/// columns, and each block's own columns, are unblocked.
fn qr_ops(m: f64, n: f64) -> f64 {
    use crate::kernels::linalg::linpack::{WY_BLOCK, WY_MIN};
    let flops = (2.0 * m * n * n - 2.0 / 3.0 * n.powi(3)).max(0.0);
    let (wy_min, wy_block) = (WY_MIN as f64, WY_BLOCK as f64);
    let unblocked = if n >= wy_min {
        (2.0 * m * wy_min * wy_min + (n / wy_block) * m * wy_block * wy_block).min(flops)
    } else {
        flops
    };
    QR_CELL * m * n + QR_UNBLOCKED * unblocked + QR * (flops - unblocked)
}

/// IRLS iterations of a glm: the gaussian family with its identity link
/// converges on the second; the others take about five.
fn glm_iterations(args: &Args<Type>) -> f64 {
    if crate::kernels::models::glm_is_least_squares(args) {
        2.0
    } else {
        GLM_ITERATIONS
    }
}

/// The cwilcox counts a d/p/qwilcox call reaches (wilcox.c). For the
/// statistic k, folded about m·n/2, the recursion stays among entries
/// (i, j, k') with i ≤ j ≤ k' ≤ k, and each (i, j) it reaches allocates
/// its i·j/2 counts: a small k is cheap whatever m and n
/// (`dwilcox(1, 1e5, 1e5)`), the middle costs the whole table. k is the
/// largest x or q given, for qwilcox the normal approximation of its
/// answer; unknown before the run, the middle. Scaled so that the whole
/// table counts m·n·(m·n/2), as the calibrated constant was measured.
fn wilcox_cells(function: &str, args: &Args<Type>, m: f64, n: f64) -> f64 {
    let (m, n) = (m.max(1.0), n.max(1.0));
    let half = m * n / 2.0;
    let fold = |x: f64| x.min(m * n - x).clamp(0.0, half);
    let statistic = |x: f64| {
        if function != "qwilcox" {
            return fold(x);
        }
        if !(0.0..=1.0).contains(&x) {
            return half;
        }
        let sd = (m * n * (m + n + 1.0) / 12.0).sqrt();
        let z = crate::kernels::nmath::qnorm::qnorm(x, 0.0, 1.0, true, false);
        fold(half + z * sd)
    };
    let at = match function {
        "dwilcox" => "x",
        "pwilcox" => "q",
        _ => "p",
    };
    let k = match args.get(at).and_then(Type::const_nums) {
        Some(v) if !v.is_empty() => v
            .iter()
            .map(|&x| if x.is_nan() { 0.0 } else { statistic(x) })
            .fold(0.0, f64::max),
        _ => half,
    };
    let (a, b) = (m.min(n).min(k + 1.0), m.max(n).min(k + 1.0));
    let tables = a * a * b * b / 8.0;
    2.0 * ((a * b * k).min(tables) + tables)
}

/// Whether a call's first argument is text.
fn first_is_text(args: &Args<Type>) -> bool {
    matches!(args.all().next(), Some(Type::Str { .. }))
}

/// The extra work of hashing text rather than numbers, for the kernels
/// that key their input (the base work per element is counted apart).
fn text_keys(function: &str, args: &Args<Type>) -> f64 {
    let keyed = matches!(
        function,
        "unique"
            | "duplicated"
            | "anyDuplicated"
            | "%in%"
            | "match"
            | "union"
            | "intersect"
            | "setdiff"
            | "setequal"
            | "table"
            | "factor"
            | "as.factor"
            | "split"
            | "tapply"
    );
    if !keyed {
        return 0.0;
    }
    let text: f64 = args
        .all()
        .filter(|t| matches!(t, Type::Str { .. }))
        .map(elements)
        .sum();
    // factor and table also sort the distinct strings for their levels,
    // but how many are distinct is known only at run time: few, usually
    // (a category column), so their sort is not counted.
    STRING_KEY * text
}

fn formula_size(f: Option<&Type>) -> (f64, f64) {
    let Some(Type::Formula {
        response,
        terms,
        intercept,
    }) = f
    else {
        return (0.0, 0.0);
    };
    let rows = response
        .iter()
        .map(|r| &**r)
        .chain(terms.iter().map(|(_, t)| model_matrix::sized_by(t)))
        .map(|t| dims_or_len(t).0)
        .fold(0.0, f64::max);
    // The model matrix's columns, a factor's dummies among them, when its
    // levels are known; otherwise each term one column.
    let cols = match model_matrix::columns_type(terms, *intercept) {
        Ok(Some(p)) => p as f64,
        _ => {
            terms
                .iter()
                .map(|(_, t)| match t.dims() {
                    Some(_) => dims_or_len(t).1,
                    None => 1.0,
                })
                .sum::<f64>()
                + f64::from(u8::from(*intercept))
        }
    };
    (rows, cols)
}

/// How many times an optimiser typically calls its objective and its
/// gradient, before the run: `(fn, gr)`. When `gr` is not given, fn's
/// count includes the numerical gradient's calls (central differences, 2
/// per parameter, as optim's `fmingr` takes them).
///
/// Fitted to R 4.2's counts on four problems (a quadratic, a least-squares
/// fit, Rosenbrock's function, a gamma likelihood) at 2, 5 and 12
/// parameters; each figure is the counts' rough geometric middle, and one
/// problem's count is within 4x of it:
///
/// | method | fn calls, numerical gradient, n = 2 / 5 / 12 |
/// |---|---|
/// | Nelder-Mead | 80 / 500 (maxit) / 500 |
/// | BFGS | 60 / 150 / 400 |
/// | CG | 250 / 550 / 1100 |
/// | L-BFGS-B | 60 / 170 / 450 |
///
/// SANN calls fn exactly `maxit` (10000) times; Brent (optimize) a dozen
/// or two.
pub fn optim_evaluations(
    method: &str,
    n: f64,
    maxit: Option<f64>,
    gradient_given: bool,
) -> (f64, f64) {
    let n = n.max(1.0);
    let (fun, gr) = match method {
        "Nelder-Mead" => return ((25.0 * n * n).min(maxit.unwrap_or(500.0)), 0.0),
        "SANN" => {
            let m = maxit.unwrap_or(10_000.0);
            return (m, if gradient_given { m } else { 0.0 });
        }
        "Brent" => return (OPTIMIZE_EVALUATIONS, 0.0),
        "CG" => (100.0 + 10.0 * n, 30.0 + 2.0 * n),
        "L-BFGS-B" => (8.0 + n, 8.0 + n),
        // BFGS, and a method only the run will know.
        _ => (20.0 + 3.0 * n, 5.0 + n),
    };
    let gr = maxit.map_or(gr, |m| gr.min(m.max(1.0)));
    if gradient_given {
        (fun, gr)
    } else {
        (fun + 2.0 * n * gr, 0.0)
    }
}

/// nlminb's typical calls of its objective and gradient, `(objective,
/// gradient)`. Without a gradient, PORT's finite differences take about
/// one objective call per parameter per iteration; R 4.2's total calls on
/// the problems of [`optim_evaluations`] were 9 to 97 at 2 parameters, 44
/// to 348 at 5 and 94 to 1401 at 12.
pub fn nlminb_evaluations(n: f64, gradient_given: bool) -> (f64, f64) {
    let n = n.max(1.0);
    if gradient_given {
        (12.0 + 2.0 * n, 10.0 + 2.0 * n)
    } else {
        (5.0 + 25.0 * n, 0.0)
    }
}

/// optimize's and uniroot's typical calls of f (R 4.2: 7 to 15 on smooth
/// functions over their interval).
pub const OPTIMIZE_EVALUATIONS: f64 = 12.0;

/// nlm's typical calls of f, its forward-difference gradient's included
/// (R 4.2 on the problems of [`optim_evaluations`]: 16 to 130 at 2
/// parameters, 36 to 290 at 5, 78 to 790 at 12).
pub fn nlm_evaluations(n: f64) -> f64 {
    5.0 + 18.0 * n.max(1.0)
}

/// constrOptim's outer barrier iterations, each an optim (R's default
/// outer.iterations is 100; a smooth problem takes a dozen or two).
pub const CONSTR_OPTIM_OUTER: f64 = 15.0;
