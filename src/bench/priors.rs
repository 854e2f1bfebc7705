//! `flowcast bench priors`: how far the cost models' priors (a call's
//! operation count at this machine's measured speed, what a fresh history
//! predicts) are from the measured times, step by step.
//!
//! Each run starts from an empty history, as a first run on a new machine
//! does, so the speed is measured again and every step is predicted by its
//! prior. The plan is mcp's: emcp would replace a loop's prior by its test
//! drive. The built-in workflow holds one call per common kernel at 10^6
//! elements (milliseconds each, well above timer noise) and a few loop
//! bodies; any workflow file can be given instead.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use crate::exec::RunOptions;
use crate::pipeline::{self, Learning};
use crate::sched::Scheduler;

use super::workflows::median;

/// One call per common kernel on vectors of 10^6 and a 1000x1000 matrix,
/// and loops whose bodies mix them: the calls a statistician's workflow is
/// made of. `length()` keeps each step's value small.
pub const BUILT_IN: &str = r#"[workflow]
name = "priors"
seed = 1

[steps]
x = "rnorm(1000000)"
y = "runif(1000000)"
m = "matrix(rnorm(1000000), 1000)"
g = "round(y * 10)"
sum_x = "sum(x)"
mean_x = "mean(x)"
sd_x = "sd(x)"
var_x = "var(x)"
min_x = "min(x)"
colon = "length(1:1000000)"
head_half = "length(x[1:500000])"
drop_one = "length(x[-1])"
positives = "length(x[x > 0])"
add = "length(x + y)"
times_two = "length(x * 2)"
exp_x = "length(exp(x))"
log_y = "length(log(y))"
sqrt_y = "length(sqrt(y))"
square = "length(x^2)"
abs_x = "length(abs(x))"
compare = "length(x > 0)"
cumsum_x = "length(cumsum(x))"
sort_x = "length(sort(x))"
order_x = "length(order(x))"
rank_x = "length(rank(x))"
rev_x = "length(rev(x))"
unique_g = "length(unique(g))"
which_x = "length(which(x > 0))"
ifelse_x = "length(ifelse(x > 0, x, 0))"
c_xy = "length(c(x, y))"
rep_x = "length(rep(x, 2))"
as_matrix = "length(matrix(x, 1000))"
transpose = "length(t(m))"
col_sums = "length(colSums(m))"
row_sums = "length(rowSums(m))"
col_means = "length(colMeans(m))"
apply_cols = "length(apply(m, 2, sum))"
sapply_small = "length(sapply(1:10000, function(i) i * 2))"
median_x = "median(x)"
quantile_x = "length(quantile(x))"
cor_xy = "cor(x, y)"
table_g = "length(table(g))"
pnorm_x = "length(pnorm(x))"
qnorm_y = "length(qnorm(y))"
dnorm_x = "length(dnorm(x))"
round_x = "length(round(x, 2))"
any_x = "any(x > 5)"
is_na = "length(is.na(x))"
pmax_x = "length(pmax(x, 0))"
diff_x = "length(diff(x))"
scale_m = "length(scale(m))"
product = "length(m %*% x[1:1000])"
cross = "length(crossprod(m))"
labels = "length(paste0('a', 1:100000))"
tapply_g = "length(tapply(x, g, mean))"
permutation = "length(sample(1000000))"
normals = "length(rnorm(1000000))"
uniforms = "length(runif(1000000))"
exponentials = "length(rexp(1000000))"
binomials = "length(rbinom(1000000, 10, 0.3))"
poissons = "length(rpois(1000000, 4))"
outer_1000 = "length(outer(1:1000, 1:1000))"
grid = "length(seq(0, 1, length.out = 1000000))"
welch = "t.test(x, y)$statistic"
ranks = "wilcox.test(x[1:100000], y[1:100000])$statistic"
line = "coef(lm(x ~ y))"
coin = "as.numeric(y[1:100000] > 0.5)"
logistic = "coef(glm(coin ~ x[1:100000], family = binomial))"
small = "x[1:50]"
small_fit = "coef(lm(small ~ y[1:50]))"
small_test = "t.test(small)$p.value"
small_ranks = "wilcox.test(small, mu = 0.5)$p.value"
small_normal = "shapiro.test(small)$p.value"
small_pca = "prcomp(m[1:50, 1:5])$sdev"
prefix_sums = { for = "i in 1:200", do = "sum(x[1:(i * 2000)])" }
row_means = { for = "i in 1:1000", do = "mean(m[i, ])" }
bootstrap = { for = "b in 1:200", do = "mean(sample(x[1:10000], replace = TRUE))" }
"#;

/// Steps shorter than this are left out of the summary: timer noise and
/// the executor's own overhead are a large share of them.
const MIN_SECONDS: f64 = 0.5e-3;

/// What to measure.
pub struct Options {
    /// Workflow files; empty: [`BUILT_IN`].
    pub files: Vec<PathBuf>,
    /// Runs, each from an empty history; the medians are shown.
    pub runs: usize,
    pub seed: i64,
}

/// One step: its prior and its measured seconds, medians over the runs.
struct Step {
    name: String,
    function: String,
    prior: f64,
    measured: f64,
}

/// Runs `path` `runs` times on one worker, each from an empty history,
/// and returns each step's median prior and median measured time.
fn measure(path: &Path, runs: usize, seed: i64) -> Result<(String, Vec<Step>), String> {
    let wf = crate::workflow::load(path).map_err(|d| super::diagnostics(&d))?;
    let graph = crate::graph::build(&wf).map_err(|d| super::diagnostics(&d))?;
    let n = graph.tasks.len();
    let (mut priors, mut measured) = (vec![Vec::new(); n], vec![Vec::new(); n]);
    let cancel = AtomicBool::new(false);
    for run in 0..runs.max(1) {
        let store = std::env::temp_dir().join(format!(
            "flowcast-priors-{}-{run}.sqlite",
            std::process::id()
        ));
        let result = (|| {
            let mut learning = Learning::open(Some(&store))?;
            let opts = RunOptions::new(1, seed);
            pipeline::run(
                &wf,
                &graph,
                &mut learning,
                &opts,
                Scheduler::Mcp,
                &|_| {},
                &cancel,
            )
        })();
        super::remove_store(&store);
        let finished = result?;
        for (task, outcome) in graph.tasks.iter().zip(&finished.report.outcomes) {
            if outcome.value.is_ok() && !outcome.reused {
                priors[task.id].push(finished.plan.predicted[task.id]);
                measured[task.id].push(outcome.busy.as_secs_f64());
            }
        }
    }
    let steps = graph
        .tasks
        .iter()
        .filter(|t| !measured[t.id].is_empty())
        .map(|t| Step {
            name: t.name.clone(),
            function: t.function.clone(),
            prior: median(&priors[t.id]),
            measured: median(&measured[t.id]),
        })
        .collect();
    Ok((wf.name.clone(), steps))
}

/// Measures each workflow and renders a table per workflow, then the
/// summary over every step of at least [`MIN_SECONDS`]: the median factor
/// between prior and measurement, and how many are within 1.5x and 2x.
pub fn run_priors(opts: &Options) -> Result<String, String> {
    let dir;
    let files = if opts.files.is_empty() {
        dir = std::env::temp_dir().join(format!("flowcast-priors-{}", std::process::id()));
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        let f = dir.join("priors.toml");
        std::fs::write(&f, BUILT_IN).map_err(|e| e.to_string())?;
        vec![f]
    } else {
        opts.files.clone()
    };
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} run(s) per workflow on 1 worker, each from an empty history (the speed measured \
         again, every step predicted by its prior); medians over the runs. \
         ratio: measured / prior\n",
        opts.runs.max(1)
    );
    let mut factors = Vec::new();
    for f in &files {
        let (name, steps) = measure(f, opts.runs, opts.seed)?;
        let _ = writeln!(
            out,
            "{:<16} {:<14} {:>11} {:>11} {:>8}",
            name, "function", "prior", "measured", "ratio"
        );
        for s in &steps {
            let ratio = s.measured / s.prior.max(1e-12);
            let _ = writeln!(
                out,
                "{:<16} {:<14} {:>11} {:>11} {:>8.2}",
                s.name,
                s.function,
                crate::report::units::seconds(s.prior),
                crate::report::units::seconds(s.measured),
                ratio
            );
            if s.measured >= MIN_SECONDS {
                factors.push(if ratio >= 1.0 { ratio } else { 1.0 / ratio });
            }
        }
        let _ = writeln!(out);
    }
    if files.len() == 1 && opts.files.is_empty() {
        if let Some(d) = files[0].parent() {
            let _ = std::fs::remove_dir_all(d);
        }
    }
    let within = |f: f64| factors.iter().filter(|&&x| x <= f).count();
    let _ = writeln!(
        out,
        "steps over {:.1} ms: {}; prior off by a median factor of {:.2}; within 1.5x: {}, \
         within 2x: {}, worst: {:.1}x",
        MIN_SECONDS * 1e3,
        factors.len(),
        median(&factors),
        within(1.5),
        within(2.0),
        factors.iter().copied().fold(0.0, f64::max)
    );
    Ok(out)
}
