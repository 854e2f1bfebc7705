//! The built-in functions: pure kernels, values in, values out.
//!
//! Each function is a [`Kernel`]: its R formals, a shape rule (types in,
//! type out, run before anything executes) and an evaluator. Operators are
//! kernels too, registered under R's own names (`"+"`, `"%*%"`, `":"`), as in
//! R where `a + b` is `"+"(a, b)`. Kernels do no I/O beyond what their R
//! counterpart does (`read.csv`), no threading policy and no progress.

pub mod alloc;
mod apply;
mod approx;
pub mod args;
pub mod avx;
pub mod catalog;
pub mod frame;
pub mod index;
pub mod logical;
pub mod path;
pub mod rng;
pub mod types;
pub mod value;
pub mod width;
pub mod work;

mod acf;
mod all_equal;
mod ar;
mod arith;
mod attributes;
mod ave;
mod bandwidth;
mod birthday;
mod class;
mod clustering;
mod coerce;
pub mod collate;
mod combn;
pub(crate) mod complex;
mod conditions;
pub mod constants;
pub mod data;
mod data_frame;
mod density;
mod dqfun;
mod expand_grid;
mod factor;
pub(crate) mod fft;
mod filter;
pub mod fun;
mod grouping;
pub(crate) mod hashing;
mod htest;
mod identical;
mod integrate;
mod interaction;
mod jitter;
mod linalg;
mod lm;
mod lowess;
mod margin_sums;
mod margins;
mod merge;
pub mod model_matrix;
mod models;
pub mod names;
pub mod nmath;
mod optim;
mod optimize;
pub mod pfun;
mod polyroot;
mod power;
mod ppoints;
mod qqnorm;
pub(crate) mod recycle;
pub mod regex;
mod replace;
mod rmultinom;
pub mod row_names;
mod rowwise;
mod sizes;
mod special;
mod subset;
mod summary;
mod sweep;
mod triangle;
mod vector;
mod wilcoxon;

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::OnceLock;

pub use args::{ArgError, ArgValue, Args};
pub use arith::{logic, scalar_op};
pub use rng::Rng;
pub use types::Type;
pub use value::Value;
pub use work::Work;

/// A formal parameter. `"..."` collects every unmatched argument.
#[derive(Clone, Copy, Debug)]
pub struct Param {
    pub name: &'static str,
    /// Must be supplied (R would fail with "argument is missing").
    pub required: bool,
}

pub const fn req(name: &'static str) -> Param {
    Param {
        name,
        required: true,
    }
}

pub const fn opt(name: &'static str) -> Param {
    Param {
        name,
        required: false,
    }
}

pub const DOTS: Param = opt("...");

/// What a shape rule may consult besides its arguments.
pub struct ShapeCtx<'a> {
    /// Relative paths (`read.csv`) resolve against this directory.
    pub base_dir: &'a Path,
    /// Files steps of the workflow write (resolved as
    /// `regular_file::normal` resolves them): not read before the run.
    pub written: &'a [std::path::PathBuf],
    /// The `function(x) expr` given as this call's FUN, if any (see [`fun`]).
    pub closure: Option<fun::ClosureShape<'a>>,
    /// The `function(x) expr` given at the call's second function formal
    /// (optim's `gr`), if any.
    pub closure2: Option<fun::ClosureShape<'a>>,
}

/// What an evaluator may use besides its arguments.
pub struct Ctx<'a> {
    /// The random stream this evaluation draws from (R's `.Random.seed`).
    pub rng: &'a mut Rng,
    pub base_dir: &'a Path,
    /// Set when the run is cancelled; long kernels (`spin`) poll it.
    pub cancel: &'a AtomicBool,
    /// R's warnings, in the order they were raised: a warning never stops
    /// the evaluation, it travels with the step's value.
    pub warnings: Vec<Warning>,
    /// The `function(x) expr` given as this call's FUN, if any (see [`fun`]):
    /// set by the evaluator for that one call, never for the calls inside.
    pub closure: Option<fun::Closure<'a>>,
    /// The `function(x) expr` given at the call's second function formal
    /// (optim's `gr`), if any: set as [`Ctx::closure`] is.
    pub closure2: Option<fun::Closure<'a>>,
    /// The addresses of this call's arguments that R holds as integers:
    /// flowcast stores integers as doubles, and `typeof`, `class`,
    /// `identical` and their kin must tell `1:3` from `c(1, 2, 3)` as R
    /// does. Set by the evaluator (from how each argument was written) for
    /// the functions that ask, for the one call.
    pub integers: Vec<usize>,
}

impl<'a> Ctx<'a> {
    pub fn new(rng: &'a mut Rng, base_dir: &'a Path, cancel: &'a AtomicBool) -> Ctx<'a> {
        Ctx {
            rng,
            base_dir,
            cancel,
            warnings: Vec::new(),
            closure: None,
            closure2: None,
            integers: Vec::new(),
        }
    }

    /// Whether `v`, an argument of this call, is an R integer vector
    /// (see [`Ctx::integers`]).
    pub fn is_integer(&self, v: &Value) -> bool {
        self.integers.contains(&(std::ptr::from_ref(v) as usize))
    }

    /// Raises R's `warning(message)`; the evaluator locates it at the call.
    pub fn warn(&mut self, message: impl Into<String>) {
        self.warnings.push(Warning {
            message: message.into(),
            at: None,
        });
    }
}

/// One of R's warnings: its text (without R's "Warning message: In f(x) :"
/// prefix) and the byte range of the call that raised it, once known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    pub message: String,
    pub at: Option<(usize, usize)>,
}

/// A kernel's failure: R's message (without R's "Error in f(x) :" prefix).
#[derive(Clone, Debug, PartialEq)]
pub struct KernelError(pub String);

impl KernelError {
    pub fn new(msg: impl Into<String>) -> KernelError {
        KernelError(msg.into())
    }
}

impl std::fmt::Display for KernelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for KernelError {}

pub type ShapeFn = fn(&Args<Type>, &ShapeCtx) -> Result<Type, ArgError>;
/// Evaluates a call; arguments are borrowed (see [`ArgValue`]).
pub type EvalFn = fn(&Args<&Value>, &mut Ctx) -> Result<Value, KernelError>;

/// One built-in function.
#[derive(Clone, Copy)]
pub struct Kernel {
    pub name: &'static str,
    pub params: &'static [Param],
    /// Draws from the random stream: such steps run in file order.
    pub random: bool,
    pub shape: ShapeFn,
    pub eval: EvalFn,
}

impl Kernel {
    /// Evaluates the call, leaving the AVX registers clean (see [`avx`]).
    pub fn call(&self, args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
        let out = (self.eval)(args, ctx);
        avx::clear_upper();
        out
    }
}

impl std::fmt::Debug for Kernel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Kernel").field("name", &self.name).finish()
    }
}

/// Every built-in function, by R name.
pub struct Registry {
    kernels: hashing::FastMap<&'static str, Kernel>,
}

impl Registry {
    fn add(&mut self, k: Kernel) {
        let previous = self.kernels.insert(k.name, k);
        debug_assert!(previous.is_none(), "kernel {} registered twice", k.name);
    }

    pub fn get(&self, name: &str) -> Option<&Kernel> {
        self.kernels.get(name)
    }

    /// All names, sorted (for "did you mean" and `--help`).
    pub fn names(&self) -> Vec<&'static str> {
        let mut v: Vec<_> = self.kernels.keys().copied().collect();
        v.sort_unstable();
        v
    }
}

/// The process-wide registry, built once.
pub fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(|| {
        let mut r = Registry {
            kernels: HashMap::default(),
        };
        for k in arith::KERNELS
            .iter()
            .chain(data::KERNELS)
            .chain(summary::KERNELS)
            .chain(linalg::KERNELS)
            .chain(clustering::KERNELS)
            .chain(htest::KERNELS)
            .chain(lm::KERNELS)
            .chain(models::KERNELS)
            .chain(frame::KERNELS)
            .chain(factor::KERNELS)
            .chain(data_frame::KERNELS)
            .chain(grouping::KERNELS)
            .chain(summary::SUM_KERNELS)
            .chain(pfun::KERNELS)
            .chain(vector::KERNELS)
            .chain(apply::KERNELS)
            .chain(optimize::KERNELS)
            .chain(optim::KERNELS)
            .chain(summary::STATS_KERNELS)
            .chain(dqfun::KERNELS)
            .chain(data::RDIST_KERNELS)
            .chain(merge::KERNELS)
            .chain(subset::KERNELS)
            .chain(ave::KERNELS)
            .chain(expand_grid::KERNELS)
            .chain(margins::KERNELS)
            .chain(names::KERNELS)
            .chain(row_names::KERNELS)
            .chain(replace::KERNELS)
            .chain(special::KERNELS)
            .chain(sizes::KERNELS)
            .chain(integrate::KERNELS)
            .chain(sweep::KERNELS)
            .chain(coerce::KERNELS)
            .chain(conditions::KERNELS)
            .chain(fft::KERNELS)
            .chain(complex::KERNELS)
            .chain(approx::KERNELS)
            .chain(bandwidth::KERNELS)
            .chain(density::KERNELS)
            .chain(triangle::KERNELS)
            .chain(rowwise::KERNELS)
            .chain(filter::KERNELS)
            .chain(lowess::KERNELS)
            .chain(polyroot::KERNELS)
            .chain(wilcoxon::KERNELS)
            .chain(acf::KERNELS)
            .chain(ar::KERNELS)
            .chain(power::KERNELS)
            .chain(birthday::KERNELS)
            .chain(class::KERNELS)
            .chain(attributes::KERNELS)
            .chain(identical::KERNELS)
            .chain(all_equal::KERNELS)
            .chain(ppoints::KERNELS)
            .chain(qqnorm::KERNELS)
            .chain(jitter::KERNELS)
            .chain(rmultinom::KERNELS)
            .chain(margin_sums::KERNELS)
            .chain(combn::KERNELS)
            .chain(interaction::KERNELS)
        {
            r.add(*k);
        }
        r
    })
}
