//! The built-in functions: pure kernels, values in, values out.
//!
//! Each function is a [`Kernel`]: its R formals, a shape rule (types in,
//! type out, run before anything executes) and an evaluator. Operators are
//! kernels too, registered under R's own names (`"+"`, `"%*%"`, `":"`), as in
//! R where `a + b` is `"+"(a, b)`. Kernels do no I/O beyond what their R
//! counterpart does (`read.csv`), no threading policy and no progress.

pub mod alloc;
mod append;
mod apply;
mod approx;
pub mod args;
pub(crate) mod arima;
mod arima_sim;
mod arma_acf;
pub mod avx;
pub mod callable;
pub mod catalog;
pub mod frame;
pub mod index;
pub(crate) mod loess;
pub mod logical;
pub mod path;
pub mod rng;
pub mod types;
pub mod value;
pub mod width;
pub mod work;

mod acf;
mod acf2ar;
mod all_equal;
pub(crate) mod ar;
mod ar_ols;
pub(crate) mod arith;
pub mod arrays;
mod as_list;
mod asplit;
mod attributes;
mod ave;
mod bandwidth;
mod birthday;
mod bitwise;
mod boxplot_stats;
mod cancor;
pub(crate) mod class;
mod clustering;
mod coerce;
pub mod collate;
mod combn;
pub(crate) mod complex;
pub mod conditions;
pub mod constants;
mod constr_optim;
mod contrasts;
mod cophenetic;
mod cov_wt;
pub mod data;
mod data_frame;
mod data_matrix;
pub mod dates;
pub mod datetime;
mod density;
pub mod deparse;
mod diffinv;
mod dmultinom;
mod dqfun;
mod drop;
mod expand_grid;
mod factanal;
mod factor;
pub(crate) mod fft;
mod filter;
pub mod formula_text;
mod ftable;
pub mod fun;
mod get_element;
mod grouping;
pub(crate) mod hashing;
mod hat;
mod hist;
pub(crate) mod holt_winters;
mod htest;
mod identical;
mod index_fn;
mod integrate;
mod interaction;
mod is_symmetric;
pub(crate) mod isoreg;
mod jitter;
pub(crate) mod kalman;
mod ksmooth;
mod lag;
pub mod language;
mod lbfgsb;
mod linalg;
mod line;
mod list2df;
mod lm;
mod lm_fit;
mod loglin;
mod lowess;
mod ls_diag;
mod margin_sums;
mod margins;
mod match_arg;
mod medpolish;
mod merge;
pub mod model_frame;
pub mod model_matrix;
pub(crate) mod models;
mod modify_list;
pub(crate) mod na_action;
pub mod names;
mod nextn;
mod nlm;
mod nlminb;
pub mod nmath;
mod optim;
mod optimize;
pub mod pfun;
pub(crate) mod poly;
mod polyroot;
mod power;
mod ppoints;
mod princomp;
mod qqnorm;
pub(crate) mod quote;
mod rapply;
pub(crate) mod recycle;
pub mod regex;
mod reorder;
mod replace;
mod reshape;
mod rmultinom;
mod row_col;
pub mod row_names;
mod rowwise;
mod runmed;
pub(crate) mod scoping;
mod sizes;
mod smirnov;
mod smooth;
mod smooth_spline;
mod spec_ar;
mod special;
mod spectrum;
mod spline;
pub(crate) mod splines;
mod stack;
mod stl;
mod stopifnot;
pub(crate) mod struct_ts;
mod structure;
mod subset;
pub(crate) mod summary;
mod supsmu;
mod sweep;
pub mod switch;
mod symnum;
mod terms;
mod text_match;
pub mod text_matrix;
mod toeplitz;
mod triangle;
pub(crate) mod ts;
pub(crate) mod ts_bind;
mod tskernel;
mod type_convert;
mod unsplit;
mod utf8;
mod vector;
mod xtfrm;
/// R's common number layout, for the report's one-line values.
pub(crate) use vector::format_common;
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

/// The name of the argument the evaluator adds to a `stopifnot` call: the
/// text of each argument as written, for R's messages. No R name has a
/// NUL, so no argument a user writes is taken for it.
pub const STOPIFNOT_TEXTS: &str = "\0texts";

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

/// `Err("cancelled")` once the run is cancelled: the routines that may run
/// for minutes (a large decomposition, a transform of prime length) poll it
/// between their outer steps, where stopping changes no result, so Ctrl-C
/// need not wait for them to finish.
pub(crate) fn check_cancel(cancel: &AtomicBool) -> Result<(), KernelError> {
    if cancel.load(std::sync::atomic::Ordering::Relaxed) {
        return Err(KernelError::new("cancelled"));
    }
    Ok(())
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
    /// R's messages (`message()`), kept only while a tryCatch that has a
    /// handler for them is running: nothing else reads them.
    pub messages: Messages,
}

/// The messages signalled under a tryCatch that may catch them.
#[derive(Debug, Default)]
pub struct Messages {
    /// How many such tryCatch calls are running.
    pub catching: usize,
    /// Each message's text (with its newline), and how many warnings had
    /// been raised before it: which came first decides the handler.
    pub raised: Vec<(String, usize)>,
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
            messages: Messages::default(),
        }
    }

    /// Signals R's `message(text)`: kept for a tryCatch that may catch
    /// it, else dropped (flowcast shows no output while a step runs).
    pub fn message(&mut self, text: String) {
        if self.messages.catching > 0 {
            let warned = self.warnings.len();
            self.messages.raised.push((text, warned));
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
        let out = match text_matrix::call_around(self, args, ctx) {
            Some(out) => out,
            None => (self.eval)(args, ctx),
        };
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

    /// Registered function `name` on `given`, as an R call of it would
    /// be: what a kernel written the way R's own R code is (calling
    /// `sum`, `crossprod`, …) uses.
    pub(crate) fn call(
        &self,
        name: &str,
        given: Vec<(Option<String>, &Value)>,
        ctx: &mut Ctx,
    ) -> Result<Value, KernelError> {
        let k = self
            .get(name)
            .ok_or_else(|| KernelError::new(format!("internal: no function {name}")))?;
        let matched =
            Args::match_call(k.name, k.params, given).map_err(|e| KernelError::new(e.message))?;
        k.call(&matched, ctx)
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
        // One list of tables rather than a chain of iterators: a chain this
        // long overflows the compiler's query depth.
        let tables: &[&[Kernel]] = &[
            arith::KERNELS,
            data::KERNELS,
            summary::KERNELS,
            linalg::KERNELS,
            clustering::KERNELS,
            htest::KERNELS,
            htest::simulate::KERNELS,
            lm::KERNELS,
            model_frame::KERNELS,
            models::KERNELS,
            models::self_start::KERNELS,
            frame::KERNELS,
            factor::KERNELS,
            data_frame::KERNELS,
            grouping::KERNELS,
            summary::SUM_KERNELS,
            pfun::KERNELS,
            vector::KERNELS,
            apply::KERNELS,
            optimize::KERNELS,
            optim::KERNELS,
            nlm::KERNELS,
            nlminb::KERNELS,
            arima::KERNELS,
            arma_acf::KERNELS,
            contrasts::KERNELS,
            factanal::KERNELS,
            summary::STATS_KERNELS,
            dqfun::KERNELS,
            data::RDIST_KERNELS,
            merge::KERNELS,
            subset::KERNELS,
            ave::KERNELS,
            expand_grid::KERNELS,
            margins::KERNELS,
            ftable::KERNELS,
            names::KERNELS,
            row_names::KERNELS,
            replace::KERNELS,
            special::KERNELS,
            sizes::KERNELS,
            integrate::KERNELS,
            sweep::KERNELS,
            coerce::KERNELS,
            conditions::KERNELS,
            scoping::KERNELS,
            formula_text::KERNELS,
            language::KERNELS,
            terms::KERNELS,
            fft::KERNELS,
            complex::KERNELS,
            approx::KERNELS,
            callable::KERNELS,
            bandwidth::KERNELS,
            density::KERNELS,
            diffinv::KERNELS,
            arima_sim::KERNELS,
            triangle::KERNELS,
            rowwise::KERNELS,
            filter::KERNELS,
            lowess::KERNELS,
            polyroot::KERNELS,
            wilcoxon::KERNELS,
            acf::KERNELS,
            ar::KERNELS,
            acf2ar::KERNELS,
            spec_ar::KERNELS,
            power::KERNELS,
            birthday::KERNELS,
            class::KERNELS,
            attributes::KERNELS,
            identical::KERNELS,
            all_equal::KERNELS,
            ppoints::KERNELS,
            qqnorm::KERNELS,
            jitter::KERNELS,
            match_arg::KERNELS,
            rmultinom::KERNELS,
            margin_sums::KERNELS,
            combn::KERNELS,
            interaction::KERNELS,
            row_col::KERNELS,
            bitwise::KERNELS,
            dmultinom::KERNELS,
            is_symmetric::KERNELS,
            stopifnot::KERNELS,
            as_list::KERNELS,
            hat::KERNELS,
            modify_list::KERNELS,
            tskernel::KERNELS,
            symnum::KERNELS,
            na_action::KERNELS,
            lm_fit::KERNELS,
            ls_diag::KERNELS,
            loglin::KERNELS,
            princomp::KERNELS,
            rapply::KERNELS,
            text_match::KERNELS,
            type_convert::KERNELS,
            index_fn::KERNELS,
            dates::KERNELS,
            quote::KERNELS,
            datetime::KERNELS,
            append::KERNELS,
            cophenetic::KERNELS,
            cancor::KERNELS,
            poly::KERNELS,
            stack::KERNELS,
            reshape::KERNELS,
            unsplit::KERNELS,
            switch::KERNELS,
            arrays::KERNELS,
            cov_wt::KERNELS,
            constr_optim::KERNELS,
            spline::KERNELS,
            runmed::KERNELS,
            smooth::KERNELS,
            smooth_spline::KERNELS,
            ts::KERNELS,
            toeplitz::KERNELS,
            lag::KERNELS,
            ts_bind::KERNELS,
            reorder::KERNELS,
            stl::KERNELS,
            holt_winters::KERNELS,
            kalman::KERNELS,
            struct_ts::KERNELS,
            spectrum::KERNELS,
            loess::KERNELS,
            ksmooth::KERNELS,
            isoreg::KERNELS,
            medpolish::KERNELS,
            supsmu::KERNELS,
            splines::KERNELS,
            line::KERNELS,
            lm_fit::LSFIT,
            boxplot_stats::KERNELS,
            utf8::KERNELS,
            nextn::KERNELS,
            hist::KERNELS,
            smirnov::KERNELS,
            asplit::KERNELS,
            data_matrix::KERNELS,
            drop::KERNELS,
            get_element::KERNELS,
            list2df::KERNELS,
            structure::KERNELS,
            xtfrm::KERNELS,
        ];
        for k in tables.iter().flat_map(|t| t.iter()) {
            r.add(*k);
        }
        r
    })
}
