//! The splines package's basis functions: `splineDesign(knots, x, ord,
//! derivs, outer.ok, sparse)`, `bs(x, df, knots, degree, intercept,
//! Boundary.knots)` and `ns(x, df, knots, intercept, Boundary.knots)`,
//! ports of R 4.2.2's src/library/splines/R/splines.R over
//! src/library/splines/src/splines.c (`spline_basis` with `set_cursor`,
//! `diff_table`, `basis_funcs` and `evaluate`).
//!
//! R's `bs` and `ns` values carry the attributes `degree`, `knots`,
//! `Boundary.knots` and `intercept` and the class c("bs", "basis",
//! "matrix"); a flowcast matrix has no place for them, so the value is
//! what `unclass(bs(...))` is as a matrix: the basis, with R's column
//! names `1`, `2`, … (and x's names as row names). In a model formula
//! (`lm(y ~ bs(x, df = 5))`) the columns are named as R names them,
//! `bs(x, df = 5)1`, …; `predict` with `newdata` rebuilds the basis at
//! the fit's knots, as R's `makepredictcall` does ([`predict_call`]).

use super::poly::power;
use nalgebra::DMatrix;

use super::args::{ArgError, Args};
use super::linalg::linpack::{dqrdc2, dqrsl, Job};
use super::logical::if_condition;
use super::names::{bare, dimnamed, names};
use super::summary::quantile;
use super::value::NA;
use super::vector::sprintf::format_g;
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "splineDesign",
        params: &[
            req("knots"),
            req("x"),
            opt("ord"),
            opt("derivs"),
            opt("outer.ok"),
            opt("sparse"),
        ],
        random: false,
        shape: design_shape,
        eval: design_eval,
    },
    Kernel {
        name: "bs",
        params: &[
            req("x"),
            opt("df"),
            opt("knots"),
            opt("degree"),
            opt("intercept"),
            opt("Boundary.knots"),
        ],
        random: false,
        shape: basis_shape,
        eval: bs_eval,
    },
    Kernel {
        name: "ns",
        params: &[
            req("x"),
            opt("df"),
            opt("knots"),
            opt("intercept"),
            opt("Boundary.knots"),
        ],
        random: false,
        shape: basis_shape,
        eval: ns_eval,
    },
];

fn na_condition() -> KernelError {
    KernelError::new("missing value where TRUE/FALSE needed")
}

/// splines.c's `spl_struct`: the spline's order, its knots, the cursor
/// into them and the scratch arrays.
struct Spl<'a> {
    order: usize,
    ordm1: usize,
    knots: &'a [f64],
    /// `knots[curs - 1] <= x < knots[curs]`; -1 when x is past them all.
    curs: isize,
    boundary: bool,
    ldel: Vec<f64>,
    rdel: Vec<f64>,
    a: Vec<f64>,
}

impl Spl<'_> {
    /// A knot by index; NaN off either end, where the C would read past
    /// its array (only for knots R's callers never hand it).
    fn knot(&self, i: isize) -> f64 {
        usize::try_from(i)
            .ok()
            .and_then(|i| self.knots.get(i))
            .copied()
            .unwrap_or(f64::NAN)
    }

    /// `set_cursor`: the first knot right of x (the x's need not be
    /// sorted), with the right boundary's special case.
    fn set_cursor(&mut self, x: f64) -> isize {
        let nk = self.knots.len();
        self.curs = -1;
        self.boundary = false;
        for (i, &k) in self.knots.iter().enumerate() {
            if k >= x {
                self.curs = i as isize;
            }
            if k > x {
                break;
            }
        }
        let last_legit = nk as isize - self.order as isize;
        if self.curs > last_legit && last_legit >= 0 && x == self.knots[last_legit as usize] {
            self.boundary = true;
            self.curs = last_legit;
        }
        self.curs
    }

    /// `diff_table`.
    fn diff_table(&mut self, x: f64, ndiff: usize) {
        for i in 0..ndiff {
            self.rdel[i] = self.knot(self.curs + i as isize) - x;
            self.ldel[i] = x - self.knot(self.curs - (i as isize + 1));
        }
    }

    /// `basis_funcs`: the `order` nonzero B-spline values at x, by the
    /// Cox-de Boor recursion (no division by zero). Indexed as the C is.
    #[allow(clippy::needless_range_loop)]
    fn basis_funcs(&mut self, x: f64, b: &mut [f64]) {
        self.diff_table(x, self.ordm1);
        b[0] = 1.0;
        for j in 1..=self.ordm1 {
            let mut saved = 0.0;
            for r in 0..j {
                let den = self.rdel[r] + self.ldel[j - 1 - r];
                if den != 0.0 {
                    let term = b[r] / den;
                    b[r] = saved + self.rdel[r] * term;
                    saved = self.ldel[j - 1 - r] * term;
                } else {
                    if r != 0 || self.rdel[r] != 0.0 {
                        b[r] = saved;
                    }
                    saved = 0.0;
                }
            }
            b[j] = saved;
        }
    }

    /// `evaluate`: the spline of coefficients `a` (or its `nder`th
    /// derivative) at x.
    fn evaluate(&mut self, x: f64, mut nder: usize) -> f64 {
        let ti = self.curs;
        let mut outer = self.ordm1;
        if self.boundary && nder == self.ordm1 {
            // The value is arbitrary.
            return 0.0;
        }
        while nder > 0 {
            nder -= 1;
            for k in 0..outer {
                let lpt = ti - outer as isize + k as isize;
                self.a[k] = outer as f64 * (self.a[k + 1] - self.a[k])
                    / (self.knot(lpt + outer as isize) - self.knot(lpt));
            }
            outer -= 1;
        }
        self.diff_table(x, outer);
        while outer > 0 {
            outer -= 1;
            for k in 0..=outer {
                let (l, r) = (self.ldel[outer - k], self.rdel[k]);
                self.a[k] = (self.a[k + 1] * l + self.a[k] * r) / (r + l);
            }
        }
        self.a[0]
    }
}

/// `spline_basis`: for each x the `ord` B-spline values (or derivatives,
/// `derivs` recycled) that may be nonzero there, column-major `ord` by
/// `x.len()`, and each x's offset (its knot interval less `ord`).
fn spline_basis(
    knots: &[f64],
    ord: usize,
    x: &[f64],
    derivs: &[i64],
) -> Result<(Vec<f64>, Vec<isize>), KernelError> {
    let nk = knots.len() as isize;
    let mut sp = Spl {
        order: ord,
        ordm1: ord - 1,
        knots,
        curs: -1,
        boundary: false,
        ldel: vec![0.0; ord - 1],
        rdel: vec![0.0; ord - 1],
        a: vec![0.0; ord],
    };
    let nd = derivs.len();
    let mut val = vec![0.0; ord * x.len()];
    let mut offsets = vec![0isize; x.len()];
    for (i, &xi) in x.iter().enumerate() {
        sp.set_cursor(xi);
        let io = sp.curs - ord as isize;
        offsets[i] = io;
        let der = derivs[i % nd];
        let out = &mut val[i * ord..(i + 1) * ord];
        if io < 0 || io > nk {
            out.fill(f64::NAN);
        } else if der > 0 {
            // The slow method, for derivatives.
            if der >= ord as i64 {
                return Err(KernelError::new(if nd == 1 {
                    format!("derivs = {der} >= ord = {ord}, but should be in {{0,..,ord-1}}")
                } else {
                    format!(
                        "derivs[{}] = {der} >= ord = {ord}, but should be in {{0,..,ord-1}}",
                        i + 1
                    )
                }));
            }
            for (ii, o) in out.iter_mut().enumerate() {
                sp.a.fill(0.0);
                sp.a[ii] = 1.0;
                *o = sp.evaluate(xi, der as usize);
            }
        } else {
            // The fast method, for values.
            sp.basis_funcs(xi, out);
        }
    }
    Ok((val, offsets))
}

/// The numbers of an argument, NA as NaN.
fn numbers(v: &Value, func: &str, what: &str) -> Result<Vec<f64>, KernelError> {
    match bare(v) {
        Value::Null => Ok(Vec::new()),
        v @ (Value::Num(_) | Value::Mat(_) | Value::Bool(_) | Value::BoolMat(_)) => {
            Ok(v.as_f64_slice().unwrap_or_default().into_owned())
        }
        other => Err(KernelError::new(format!(
            "flowcast's {func}() needs numbers for '{what}', not {}",
            other.type_name()
        ))),
    }
}

/// R's `as.integer` of an argument's first element; None for NA.
fn as_integer(v: &Value, func: &str, what: &str) -> Result<Option<i64>, KernelError> {
    let x = numbers(v, func, what)?;
    let x = x.first().copied().unwrap_or(NA);
    if x.is_nan() || x.abs() >= 2147483648.0 {
        Ok(None)
    } else {
        Ok(Some(x.trunc() as i64))
    }
}

/// R's `sort(x)`: ascending, NA dropped.
fn sorted(x: &[f64]) -> Vec<f64> {
    let mut s: Vec<f64> = x.iter().copied().filter(|v| !v.is_nan()).collect();
    s.sort_by(f64::total_cmp);
    s
}

/// `splineDesign(knots, x, ord, derivs, outer.ok)` as splines.R computes
/// it (sparse = FALSE): the `length(x)` by `length(knots) - ord` design
/// matrix.
pub(crate) fn spline_design(
    knots: &[f64],
    x: &[f64],
    ord: Option<i64>,
    derivs: &[i64],
    outer_ok: bool,
) -> Result<DMatrix<f64>, KernelError> {
    let nk = knots.len();
    if nk == 0 {
        return Err(KernelError::new("must have at least 'ord' knots"));
    }
    // is.unsorted() of knots with NA is NA, which `if` refuses.
    if knots.iter().any(|k| k.is_nan()) {
        return Err(na_condition());
    }
    let mut knots = knots.to_vec();
    knots.sort_by(f64::total_cmp);
    let nx = x.len();
    if derivs.len() > nx {
        return Err(KernelError::new(
            "length of 'derivs' is larger than length of 'x'",
        ));
    }
    if derivs.is_empty() {
        return Err(KernelError::new("empty 'derivs'"));
    }
    let Some(ord) = ord else {
        return Err(na_condition());
    };
    if ord > nk as i64 || ord < 1 {
        return Err(KernelError::new(
            "'ord' must be positive integer, at most the number of knots",
        ));
    }
    let ord = ord as usize;
    if !outer_ok && nk < 2 * ord - 1 {
        return Err(KernelError::new(format!(
            "need at least 2*ord -1 (={}) knots",
            2 * ord - 1
        )));
    }
    let degree = ord - 1;
    // any(x < knots[ord] | knots[nk - degree] < x): NA only when no x is
    // out of range and some is NA.
    let (lo, hi) = (knots[ord - 1], knots[nk - degree - 1]);
    let out_of_range = x.iter().any(|&v| v < lo || hi < v);
    if !out_of_range && x.iter().any(|v| v.is_nan()) {
        return Err(na_condition());
    }
    let need_outer = out_of_range;
    let mut kept: Option<Vec<usize>> = None;
    let mut xs: Vec<f64> = x.to_vec();
    let mut aknots = knots.clone();
    if need_outer {
        if !outer_ok {
            return Err(KernelError::new(format!(
                "the 'x' data must be in the range {} to {} unless you set 'outer.ok = TRUE'",
                format_g(lo),
                format_g(hi)
            )));
        }
        let (first, last) = (knots[0], knots[nk - 1]);
        if x.iter().any(|v| v.is_nan()) {
            // x[in.x] with an NA in in.x: R goes on to assign at an NA
            // row, or `if` meets the NA of all(in.x).
            let any_out = x.iter().any(|&v| v < first || v > last);
            return Err(if any_out {
                KernelError::new(
                    "flowcast's splineDesign() cannot take NA in 'x' with outer.ok = TRUE",
                )
            } else {
                na_condition()
            });
        }
        let in_x: Vec<usize> = (0..nx).filter(|&i| first <= x[i] && x[i] <= last).collect();
        if in_x.len() < nx {
            xs = in_x.iter().map(|&i| x[i]).collect();
            kept = Some(in_x);
        }
        // dkn <- diff(knots)[(nk - 1L):1]; the last knot repeated
        // ord - match(TRUE, dkn > 0) times.
        let first_rise = (1..nk).rev().position(|i| knots[i] - knots[i - 1] > 0.0);
        let Some(m) = first_rise else {
            return Err(KernelError::new("invalid 'times' argument"));
        };
        let extra = ord.saturating_sub(m + 1);
        aknots = std::iter::repeat_n(knots[0], degree)
            .chain(knots.iter().copied())
            .chain(std::iter::repeat_n(knots[nk - 1], extra))
            .collect();
    }
    let (temp, offsets) = spline_basis(&aknots, ord, &xs, derivs)?;
    let ncoef = nk - ord;
    let mut design = DMatrix::<f64>::zeros(nx, ncoef);
    let shift = if need_outer { degree as isize } else { 0 };
    for (k, off) in offsets.iter().enumerate() {
        let row = kept.as_ref().map_or(k, |rows| rows[k]);
        for j in 0..ord {
            let col = j as isize + 1 + off - shift;
            if col >= 1 && col <= ncoef as isize {
                design[(row, col as usize - 1)] = temp[k * ord + j];
            }
        }
    }
    Ok(design)
}

fn design_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let knots = numbers(
        args.get("knots").unwrap_or(&Value::Null),
        "splineDesign",
        "knots",
    )?;
    let x = match args.get("x") {
        Some(x) => numbers(x, "splineDesign", "x")?,
        None => {
            return Err(KernelError::new(
                "argument \"x\" is missing, with no default",
            ))
        }
    };
    if args.get("sparse").map_or(Ok(false), if_condition)? {
        return Err(KernelError::new(
            "splineDesign(sparse = TRUE) is not supported by flowcast: it makes a sparse matrix of R's Matrix package",
        ));
    }
    let ord = match args.get("ord") {
        None => Some(4),
        Some(v) => as_integer(v, "splineDesign", "ord")?,
    };
    let derivs = match args.get("derivs") {
        None => vec![0],
        Some(v) => numbers(v, "splineDesign", "derivs")?
            .iter()
            .map(|d| {
                if d.is_nan() || d.abs() >= 2147483648.0 {
                    Err(KernelError::new(
                        "flowcast's splineDesign() needs whole numbers for 'derivs'",
                    ))
                } else {
                    Ok(d.trunc() as i64)
                }
            })
            .collect::<Result<Vec<i64>, KernelError>>()?,
    };
    if derivs.iter().any(|&d| d < 0) {
        return Err(KernelError::new(
            "flowcast's splineDesign() needs 'derivs' of 0 or more",
        ));
    }
    let outer_ok = args.get("outer.ok").map_or(Ok(false), if_condition)?;
    super::alloc::ensure_room(x.len() as f64 * knots.len() as f64 * 8.0)?;
    let d = spline_design(&knots, &x, ord, &derivs, outer_ok)?;
    Ok(Value::Mat(d))
}

/// What a basis was built with: R's attributes of a `bs` or `ns` value,
/// which [`predict_call`] writes out.
struct Basis {
    matrix: DMatrix<f64>,
    degree: usize,
    knots: Vec<f64>,
    boundary: Vec<f64>,
    intercept: bool,
}

/// The arguments bs and ns share.
struct BasisArgs {
    /// x without its NA, and where each NA was.
    x: Vec<f64>,
    nax: Vec<bool>,
    df: Option<f64>,
    knots: Option<Vec<f64>>,
    intercept: bool,
    /// Boundary.knots as given (sorted), or None for the default.
    boundary: Option<Vec<f64>>,
}

fn basis_args(args: &Args<&Value>, func: &str) -> Result<BasisArgs, KernelError> {
    let xv = args
        .get("x")
        .ok_or_else(|| KernelError::new("argument \"x\" is missing, with no default"))?;
    let all = numbers(xv, func, "x")?;
    let nax: Vec<bool> = all.iter().map(|v| v.is_nan()).collect();
    let x: Vec<f64> = all.into_iter().filter(|v| !v.is_nan()).collect();
    let df = match args.get("df").map(bare) {
        None | Some(Value::Null) => None,
        Some(v) => Some(numbers(v, func, "df")?.first().copied().unwrap_or(NA)),
    };
    let knots = match args.get("knots").map(bare) {
        None | Some(Value::Null) => None,
        Some(v) => Some(numbers(v, func, "knots")?),
    };
    let intercept = args.get("intercept").map_or(Ok(false), if_condition)?;
    let boundary = match args.get("Boundary.knots") {
        None => None,
        Some(v) => {
            let b = sorted(&numbers(v, func, "Boundary.knots")?);
            if b.len() != 2 || b.iter().any(|v| !v.is_finite()) {
                return Err(KernelError::new(format!(
                    "flowcast's {func}() needs two finite numbers for 'Boundary.knots'"
                )));
            }
            Some(b)
        }
    };
    if x.is_empty() {
        return Err(KernelError::new(
            "length of 'derivs' is larger than length of 'x'",
        ));
    }
    Ok(BasisArgs {
        x,
        nax,
        df,
        knots,
        intercept,
        boundary,
    })
}

/// `seq.int(0, 1, length.out = n + 2)[-c(1L, n + 2)]` of a count that
/// need not be whole, then `quantile(x, that)`: the interior knots of
/// `df`.
fn df_knots(x: &[f64], n_iknots: f64) -> Result<Vec<f64>, KernelError> {
    let len = (n_iknots + 2.0).ceil();
    if len > 1e7 {
        return Err(KernelError::new("cannot allocate a vector that long"));
    }
    let seq = super::data::seq_spaced(0.0, 1.0, len as usize)?;
    // Negative subscripts drop positions 1 and trunc(n + 2).
    let drop_at = (n_iknots + 2.0).trunc() as usize;
    let probs: Vec<f64> = seq
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != 0 && i + 1 != drop_at)
        .map(|(_, &p)| p)
        .collect();
    quantile(x, &probs, 7).ok_or_else(|| KernelError::new("invalid 'type'"))
}

/// `x %*% y` of an `n` by `k` and a `k` by `m` matrix as R's reference
/// BLAS (dgemm, dgemv) sums it: each entry from 0, in ascending k.
fn matprod(x: &DMatrix<f64>, y: &DMatrix<f64>) -> DMatrix<f64> {
    DMatrix::from_fn(x.nrows(), y.ncols(), |i, j| {
        let mut s = 0.0;
        for l in 0..x.ncols() {
            s += y[(l, j)] * x[(i, l)];
        }
        s
    })
}

/// Which x lie below and above the boundary knots, and either.
fn outside(x: &[f64], boundary: Option<&[f64]>) -> (Vec<bool>, Vec<bool>, Vec<bool>) {
    let (ol, or): (Vec<bool>, Vec<bool>) = match boundary {
        Some(b) => (
            x.iter().map(|&v| v < b[0]).collect(),
            x.iter().map(|&v| v > b[1]).collect(),
        ),
        None => (vec![false; x.len()], vec![false; x.len()]),
    };
    let either = ol.iter().zip(&or).map(|(l, r)| *l || *r).collect();
    (ol, or, either)
}

/// `range(x)` of x without NA (never empty here).
fn range(x: &[f64]) -> Vec<f64> {
    let lo = x.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = x.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    vec![lo, hi]
}

/// Rows `rows` of `basis` set from `part`.
fn set_rows(basis: &mut DMatrix<f64>, rows: &[usize], part: &DMatrix<f64>) {
    for (k, &i) in rows.iter().enumerate() {
        for j in 0..basis.ncols().min(part.ncols()) {
            basis[(i, j)] = part[(k, j)];
        }
    }
}

/// The basis's first column dropped (`basis[, -1L, drop = FALSE]`).
fn drop_first(m: DMatrix<f64>) -> DMatrix<f64> {
    let c = m.ncols();
    if c == 0 {
        return m;
    }
    m.columns(1, c - 1).into_owned()
}

/// `bs(x, df, knots, degree, intercept, Boundary.knots)`, splines.R's.
fn bs(args: &Args<&Value>, warn: &mut dyn FnMut(String)) -> Result<Basis, KernelError> {
    let degree = match args.get("degree") {
        None => Some(3),
        Some(v) => as_integer(v, "bs", "degree")?,
    };
    let Some(degree) = degree else {
        return Err(na_condition());
    };
    if degree < 1 {
        return Err(KernelError::new("'degree' must be integer >= 1"));
    }
    if degree > 50 {
        return Err(KernelError::new(
            "flowcast's bs() takes a 'degree' of at most 50",
        ));
    }
    let a = basis_args(args, "bs")?;
    let ord = degree as usize + 1;
    let x = &a.x;
    let (ol, or, outside) = outside(x, a.boundary.as_deref());
    let mut knots = a.knots.clone();
    if let (Some(df), None) = (a.df, &knots) {
        let mut n_iknots = df - ord as f64 + (1.0 - f64::from(u8::from(a.intercept)));
        if n_iknots.is_nan() {
            return Err(na_condition());
        }
        if n_iknots < 0.0 {
            n_iknots = 0.0;
            warn(format!(
                "'df' was too small; have used {}",
                ord - usize::from(!a.intercept)
            ));
        }
        if n_iknots > 0.0 {
            let inside: Vec<f64> = x
                .iter()
                .zip(&outside)
                .filter(|(_, o)| !**o)
                .map(|(v, _)| *v)
                .collect();
            knots = Some(df_knots(&inside, n_iknots)?);
        }
    }
    let boundary = a.boundary.clone().unwrap_or_else(|| range(x));
    let interior = knots.clone().unwrap_or_default();
    let aknots = sorted(
        &std::iter::repeat_n(boundary.iter().copied(), ord)
            .flatten()
            .chain(interior.iter().copied())
            .collect::<Vec<f64>>(),
    );
    super::alloc::ensure_room(x.len() as f64 * aknots.len() as f64 * 8.0)?;
    let mut basis = if outside.iter().any(|&o| o) {
        warn("some 'x' values beyond boundary knots may cause ill-conditioned bases".into());
        let derivs: Vec<i64> = (0..ord as i64).collect();
        // gamma(1L:ord): the factorials 0!, 1!, …
        let scalef: Vec<f64> = (0..ord)
            .scan(1.0, |f, k| {
                let out = *f;
                *f *= (k + 1) as f64;
                Some(out)
            })
            .collect();
        let ncoef = aknots.len().saturating_sub(ord);
        let mut basis = DMatrix::<f64>::zeros(x.len(), ncoef);
        let e = 1.0 / 4.0;
        let mut pivot_part = |side: &[bool], k_pivot: f64| -> Result<(), KernelError> {
            let rows: Vec<usize> = (0..x.len()).filter(|&i| side[i]).collect();
            if rows.is_empty() {
                return Ok(());
            }
            let xl = DMatrix::from_fn(rows.len(), ord, |i, j| {
                if j == 0 {
                    1.0
                } else {
                    power(x[rows[i]] - k_pivot, j as i32)
                }
            });
            let tt = spline_design(
                &aknots,
                &vec![k_pivot; ord],
                Some(ord as i64),
                &derivs,
                false,
            )?;
            let tt = DMatrix::from_fn(tt.nrows(), tt.ncols(), |i, j| tt[(i, j)] / scalef[i]);
            set_rows(&mut basis, &rows, &matprod(&xl, &tt));
            Ok(())
        };
        if ol.iter().any(|&o| o) {
            let k_pivot = (1.0 - e) * boundary[0] + e * aknots[ord];
            pivot_part(&ol, k_pivot)?;
        }
        if or.iter().any(|&o| o) {
            let k_pivot = (1.0 - e) * boundary[1] + e * aknots[aknots.len() - ord - 1];
            pivot_part(&or, k_pivot)?;
        }
        let inside: Vec<usize> = (0..x.len()).filter(|&i| !outside[i]).collect();
        if !inside.is_empty() {
            let xi: Vec<f64> = inside.iter().map(|&i| x[i]).collect();
            let part = spline_design(&aknots, &xi, Some(ord as i64), &[0], false)?;
            set_rows(&mut basis, &inside, &part);
        }
        basis
    } else {
        spline_design(&aknots, x, Some(ord as i64), &[0], false)?
    };
    if !a.intercept {
        basis = drop_first(basis);
    }
    Ok(Basis {
        matrix: with_na_rows(basis, &a.nax),
        degree: degree as usize,
        knots: interior,
        boundary,
        intercept: a.intercept,
    })
}

/// `ns(x, df, knots, intercept, Boundary.knots)`, splines.R's.
fn ns(args: &Args<&Value>, warn: &mut dyn FnMut(String)) -> Result<Basis, KernelError> {
    let a = basis_args(args, "ns")?;
    let x = &a.x;
    let (ol, or, outside) = outside(x, a.boundary.as_deref());
    let boundary = match &a.boundary {
        Some(b) => b.clone(),
        None if x.len() == 1 => vec![x[0] * 7.0 / 8.0, x[0] * 9.0 / 8.0],
        None => range(x),
    };
    let mut knots = a.knots.clone();
    if let (Some(df), None) = (a.df, &knots) {
        let mut n_iknots = df - 1.0 - f64::from(u8::from(a.intercept));
        if n_iknots.is_nan() {
            return Err(na_condition());
        }
        if n_iknots < 0.0 {
            n_iknots = 0.0;
            warn(format!(
                "'df' was too small; have used {}",
                1 + usize::from(a.intercept)
            ));
        }
        if n_iknots > 0.0 {
            let inside: Vec<f64> = x
                .iter()
                .zip(&outside)
                .filter(|(_, o)| !**o)
                .map(|(v, _)| *v)
                .collect();
            knots = Some(df_knots(&inside, n_iknots)?);
        }
    }
    let interior = knots.clone().unwrap_or_default();
    if interior.iter().any(|k| k.is_nan()) {
        return Err(KernelError::new(
            "number of items to replace is not a multiple of replacement length",
        ));
    }
    let aknots = sorted(
        &std::iter::repeat_n(boundary.iter().copied(), 4)
            .flatten()
            .chain(interior.iter().copied())
            .collect::<Vec<f64>>(),
    );
    super::alloc::ensure_room(x.len() as f64 * aknots.len() as f64 * 8.0)?;
    let mut basis = if outside.iter().any(|&o| o) {
        let mut basis = DMatrix::<f64>::zeros(x.len(), interior.len() + 4);
        let mut pivot_part = |side: &[bool], k_pivot: f64| -> Result<(), KernelError> {
            let rows: Vec<usize> = (0..x.len()).filter(|&i| side[i]).collect();
            if rows.is_empty() {
                return Ok(());
            }
            let xl = DMatrix::from_fn(rows.len(), 2, |i, j| {
                if j == 0 {
                    1.0
                } else {
                    x[rows[i]] - k_pivot
                }
            });
            let tt = spline_design(&aknots, &[k_pivot, k_pivot], Some(4), &[0, 1], false)?;
            set_rows(&mut basis, &rows, &matprod(&xl, &tt));
            Ok(())
        };
        if ol.iter().any(|&o| o) {
            pivot_part(&ol, boundary[0])?;
        }
        if or.iter().any(|&o| o) {
            pivot_part(&or, boundary[1])?;
        }
        let inside: Vec<usize> = (0..x.len()).filter(|&i| !outside[i]).collect();
        if !inside.is_empty() {
            let xi: Vec<f64> = inside.iter().map(|&i| x[i]).collect();
            let part = spline_design(&aknots, &xi, Some(4), &[0], false)?;
            set_rows(&mut basis, &inside, &part);
        }
        basis
    } else {
        spline_design(&aknots, x, Some(4), &[0], false)?
    };
    let mut cons = spline_design(&aknots, &boundary, Some(4), &[2, 2], false)?;
    if !a.intercept {
        cons = drop_first(cons);
        basis = drop_first(basis);
    }
    // qr.const <- qr(t(const)); t(qr.qty(qr.const, t(basis)))[, -(1:2)]
    let p = cons.ncols();
    let tc: Vec<f64> = cons.transpose().as_slice().to_vec();
    let q = dqrdc2(tc, p, 2, 1e-7);
    let n = basis.nrows();
    let keep = p.saturating_sub(2);
    let mut out = DMatrix::<f64>::zeros(n, keep);
    for i in 0..n {
        let y: Vec<f64> = basis.row(i).iter().copied().collect();
        let r = dqrsl(
            &q,
            q.rank,
            &y,
            Job {
                qty: true,
                ..Job::default()
            },
        );
        for j in 0..keep {
            out[(i, j)] = r.qty[j + 2];
        }
    }
    Ok(Basis {
        matrix: with_na_rows(out, &a.nax),
        degree: 3,
        knots: interior,
        boundary,
        intercept: a.intercept,
    })
}

/// The basis with NA rows where x was NA.
fn with_na_rows(basis: DMatrix<f64>, nax: &[bool]) -> DMatrix<f64> {
    if !nax.iter().any(|&n| n) {
        return basis;
    }
    let mut out = DMatrix::from_element(nax.len(), basis.ncols(), NA);
    let mut k = 0;
    for (i, &na) in nax.iter().enumerate() {
        if !na {
            for j in 0..basis.ncols() {
                out[(i, j)] = basis[(k, j)];
            }
            k += 1;
        }
    }
    out
}

/// The basis as flowcast returns it: R's dimnames `list(names(x),
/// 1L:ncol)`.
fn basis_value(b: Basis, x: Option<&Value>) -> Value {
    let cols: Vec<String> = (1..=b.matrix.ncols()).map(|k| k.to_string()).collect();
    let rows = x.and_then(names).map(<[String]>::to_vec);
    dimnamed(Value::Mat(b.matrix), rows, Some(cols))
}

fn bs_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let b = bs(args, &mut |w| ctx.warn(w))?;
    Ok(basis_value(b, args.get("x")))
}

fn ns_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let b = ns(args, &mut |w| ctx.warn(w))?;
    Ok(basis_value(b, args.get("x")))
}

/// R's deparse of a double, as makepredictcall's call holds it: 15
/// significant digits when they give the number back, else 17.
pub(crate) fn deparse_num(v: f64) -> String {
    if v.is_nan() {
        return "NA".into();
    }
    if v.is_infinite() {
        return if v > 0.0 { "Inf".into() } else { "-Inf".into() };
    }
    // Rust's shortest text that reads back exactly.
    let s = format!("{v:?}");
    s.strip_suffix(".0").map_or(s.clone(), str::to_string)
}

/// R's `makepredictcall.bs` / `makepredictcall.ns` for a formula's
/// variable `bs(…)` or `ns(…)` (`func`) of matched arguments `args`,
/// whose x argument is written `x_text`: the call that rebuilds the basis
/// in `newdata` at the fit's knots, `bs(x, degree = 3, knots = …,
/// Boundary.knots = …, intercept = FALSE)`. None when the basis cannot
/// be built (the fit then fails on it).
pub(crate) fn predict_call(func: &str, x_text: &str, args: &Args<&Value>) -> Option<String> {
    let b = match func {
        "bs" => bs(args, &mut |_| {}),
        "ns" => ns(args, &mut |_| {}),
        _ => return None,
    }
    .ok()?;
    Some(basis_call(func, x_text, &b))
}

/// The text of [`predict_call`].
fn basis_call(func: &str, x_text: &str, b: &Basis) -> String {
    let vec = |v: &[f64]| match v {
        [] => "numeric(0)".to_string(),
        [one] => deparse_num(*one),
        _ => format!(
            "c({})",
            v.iter()
                .map(|x| deparse_num(*x))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    let degree = if func == "bs" {
        format!(", degree = {}", b.degree)
    } else {
        String::new()
    };
    format!(
        "{func}({x_text}{degree}, knots = {}, Boundary.knots = {}, intercept = {})",
        vec(&b.knots),
        vec(&b.boundary),
        if b.intercept { "TRUE" } else { "FALSE" }
    )
}

fn design_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    for name in ["knots", "x", "ord", "derivs"] {
        if let Some(t @ (Type::Str { .. } | Type::Record { .. } | Type::Formula { .. })) =
            args.ty(name)
        {
            return Err(args.error(
                name,
                format!(
                    "flowcast's splineDesign() needs numbers for '{name}', not {}",
                    t.describe()
                ),
            ));
        }
    }
    let rows = args.ty("x").and_then(Type::len);
    Ok(Type::Mat { rows, cols: None })
}

fn basis_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let rows = args.ty("x").and_then(Type::len);
    Ok(Type::Mat { rows, cols: None })
}
