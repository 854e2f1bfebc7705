//! `constrOptim(theta, f, grad, ui, ci, mu, control, method,
//! outer.iterations, outer.eps, ..., hessian)`: R 4.2.2's
//! stats/R/constrOptim.R, the adaptive logarithmic barrier for the linear
//! constraints `ui %*% theta - ci >= 0`, kept in its shape. Its inner
//! `optim` calls are flowcast's optim port on the barrier `R` (and its
//! gradient `dR`) as Rust objectives that call the user's `f` and `grad`,
//! so the points, counts and values are R's. The products and sums are
//! done in R's order: `ui %*% theta` as the reference BLAS dgemv sums,
//! `sum` and `colSums` as R's long double accumulation rounds.

use super::fun::{resolve, resolve2, resolve_shape, resolve_shape2, Fun};
use super::names;
use super::nmath::rsum;
use super::optim::optim_native_gr;
use super::value::{List, NA};
use super::work;
use super::{opt, req, ArgError, Args, Ctx, Kernel, KernelError, ShapeCtx, Type, Value, DOTS};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "constrOptim",
    params: &[
        req("theta"),
        req("f"),
        opt("grad"),
        req("ui"),
        req("ci"),
        opt("mu"),
        opt("control"),
        opt("method"),
        opt("outer.iterations"),
        opt("outer.eps"),
        DOTS,
        opt("hessian"),
    ],
    random: false,
    shape,
    eval,
}];

/// `if (cond)` of a logical R computed: NA is R's error.
fn flag(b: Option<bool>) -> Result<bool, KernelError> {
    b.ok_or_else(|| KernelError::new("missing value where TRUE/FALSE needed"))
}

/// `any(v)` as R: TRUE if any is, else NA if any is NA.
fn any(v: impl Iterator<Item = Option<bool>>) -> Option<bool> {
    let mut na = false;
    for b in v {
        match b {
            Some(true) => return Some(true),
            None => na = true,
            Some(false) => {}
        }
    }
    if na {
        None
    } else {
        Some(false)
    }
}

fn lt(a: f64, b: f64) -> Option<bool> {
    if a.is_nan() || b.is_nan() {
        None
    } else {
        Some(a < b)
    }
}

/// The constraints: `ui` as R's `%*%` reads it against a `theta` of
/// length `p` (k rows, column-major), whether it is a matrix (`colSums`
/// of a plain vector is R's error), and `ci`, recycled to `k`.
struct Constraints {
    ui: Vec<f64>,
    k: usize,
    p: usize,
    is_matrix: bool,
    ci: Vec<f64>,
}

impl Constraints {
    fn new(ui: &Value, ci: &Value, p: usize) -> Result<Constraints, KernelError> {
        let numeric = |v: &Value| -> Result<Vec<f64>, KernelError> {
            match names::bare(v) {
                v @ (Value::Num(_) | Value::Mat(_) | Value::Bool(_) | Value::BoolMat(_)) => {
                    Ok(v.as_f64_slice().unwrap_or_default().into_owned())
                }
                _ => Err(KernelError::new(
                    "requires numeric/complex matrix/vector arguments",
                )),
            }
        };
        let values = numeric(ui)?;
        let non_conformable = || KernelError::new("non-conformable arguments");
        let (k, is_matrix) = match names::bare(ui) {
            Value::Mat(m) if m.ncols() == p => (m.nrows(), true),
            Value::BoolMat(m) if m.ncols() == p => (m.nrows(), true),
            Value::Mat(_) | Value::BoolMat(_) => return Err(non_conformable()),
            // A vector against a vector: their inner product when of one
            // length, else a column against a 1 x 1 theta.
            _ if values.len() == p => (1, false),
            _ if p == 1 => (values.len(), false),
            _ => return Err(non_conformable()),
        };
        let ci = match names::bare(ci) {
            v @ (Value::Num(_) | Value::Mat(_) | Value::Bool(_) | Value::BoolMat(_)) => {
                v.as_f64_slice().unwrap_or_default().into_owned()
            }
            _ => return Err(KernelError::new("non-numeric argument to binary operator")),
        };
        let ci = if ci.is_empty() || k == 0 {
            // A matrix minus numeric(0) is numeric(0): no constraints.
            Vec::new()
        } else if ci.len() > k {
            return Err(KernelError::new(format!(
                "dims [product {k}] do not match the length of object [{}]",
                ci.len()
            )));
        } else if k % ci.len() != 0 {
            return Err(KernelError::new(
                "flowcast refuses a 'ci' whose length does not divide the rows of 'ui' \
                 (R recycles it with a warning at every evaluation of the barrier)",
            ));
        } else {
            (0..k).map(|i| ci[i % ci.len()]).collect()
        };
        Ok(Constraints {
            ui: values,
            k,
            p,
            is_matrix,
            ci,
        })
    }

    /// `ui %*% theta`, summed as the reference BLAS dgemv does.
    fn times(&self, theta: &[f64]) -> Vec<f64> {
        let mut y = vec![0.0; self.k];
        for (j, &t) in theta.iter().enumerate().take(self.p) {
            for (i, y) in y.iter_mut().enumerate() {
                *y += t * self.ui[i + j * self.k];
            }
        }
        y
    }

    /// `ui.theta - ci` (empty when `ci` is).
    fn minus_ci(&self, ui_theta: &[f64]) -> Vec<f64> {
        self.ci.iter().zip(ui_theta).map(|(c, u)| u - c).collect()
    }
}

/// An R function's value as the numbers R's arithmetic on it takes.
fn arithmetic(v: &Value) -> Result<Vec<f64>, KernelError> {
    match names::bare(v) {
        Value::Null => Ok(Vec::new()),
        v @ (Value::Num(_) | Value::Mat(_) | Value::Bool(_) | Value::BoolMat(_)) => {
            Ok(v.as_f64_slice().unwrap_or_default().into_owned())
        }
        _ => Err(KernelError::new("non-numeric argument to binary operator")),
    }
}

/// What constrOptim calls: `f` and `grad` with `...`, theta named as
/// optim names the parameters it hands them.
struct User<'a, 'f> {
    f: Fun<'f>,
    grad: Option<Fun<'f>>,
    /// `grad` as given: `None` when missing (R's error names it), `Some`
    /// of NULL when given as NULL (calling it is R's error).
    grad_given: bool,
    dots: &'a [(Option<&'a str>, &'a Value)],
    names: Option<Vec<String>>,
}

impl User<'_, '_> {
    fn theta(&self, x: &[f64]) -> Value {
        match &self.names {
            Some(n) => names::named(Value::Num(x.to_vec()), n.clone()),
            None => Value::Num(x.to_vec()),
        }
    }

    fn f(&self, x: &[f64], ctx: &mut Ctx) -> Result<Vec<f64>, KernelError> {
        let v = self.f.call_on(&self.theta(x), self.dots, ctx)?;
        arithmetic(&v)
    }

    fn grad(&self, x: &[f64], ctx: &mut Ctx) -> Result<Vec<f64>, KernelError> {
        let g = match (self.grad.clone(), self.grad_given) {
            (Some(g), _) => g,
            (None, true) => return Err(KernelError::new("could not find function \"grad\"")),
            (None, false) => {
                return Err(KernelError::new(
                    "argument \"grad\" is missing, with no default",
                ))
            }
        };
        let v = g.call_on(&self.theta(x), self.dots, ctx)?;
        arithmetic(&v)
    }
}

/// The one number an objective gave, or optim's error for another count.
fn one(v: Vec<f64>) -> Result<f64, KernelError> {
    match v.as_slice() {
        [x] => Ok(*x),
        _ => Err(KernelError::new(format!(
            "objective function in optim evaluates to length {} not 1",
            v.len()
        ))),
    }
}

/// constrOptim's `R(theta, theta.old, ...)`: f plus the barrier. A vector
/// `f` is returned whole, as R's arithmetic keeps it, for optim to refuse.
fn barrier(
    theta: &[f64],
    theta_old: &[f64],
    con: &Constraints,
    mu: f64,
    user: &User,
    ctx: &mut Ctx,
) -> Result<Vec<f64>, KernelError> {
    let ui_theta = con.times(theta);
    let gi = con.minus_ci(&ui_theta);
    if flag(any(gi.iter().map(|&g| lt(g, 0.0))))? {
        return Ok(vec![f64::NAN]);
    }
    let gi_old = con.minus_ci(&con.times(theta_old));
    // gi.old * log(gi) - ui.theta: R recycles the shorter (ui.theta is
    // longer only when ci is empty, and then the product is empty too).
    let terms: Vec<f64> = gi_old
        .iter()
        .zip(&gi)
        .zip(&ui_theta)
        .map(|((o, g), u)| o * g.ln() - u)
        .collect();
    let mut bar = rsum(&terms);
    if !bar.is_finite() {
        bar = f64::NEG_INFINITY;
    }
    Ok(user
        .f(theta, ctx)?
        .into_iter()
        .map(|f| f - mu * bar)
        .collect())
}

/// constrOptim's `dR(theta, theta.old, ...)`.
fn barrier_gradient(
    theta: &[f64],
    theta_old: &[f64],
    con: &Constraints,
    mu: f64,
    user: &User,
    ctx: &mut Ctx,
) -> Result<Vec<f64>, KernelError> {
    let gi = con.minus_ci(&con.times(theta));
    let gi_old = con.minus_ci(&con.times(theta_old));
    if !con.is_matrix {
        return Err(KernelError::new(
            "'x' must be an array of at least two dimensions",
        ));
    }
    // colSums(ui * gi.old / gi - ui), gi.old and gi running down the
    // columns; with no constraints (ci empty) R's product is empty and
    // colSums is R's error on a dimensionless vector.
    if gi.is_empty() && con.k > 0 {
        return Err(KernelError::new(
            "'x' must be an array of at least two dimensions",
        ));
    }
    let dbar: Vec<f64> = (0..con.p)
        .map(|j| {
            let col: Vec<f64> = (0..con.k)
                .map(|i| {
                    let u = con.ui[i + j * con.k];
                    u * gi_old[i] / gi[i] - u
                })
                .collect();
            rsum(&col)
        })
        .collect();
    let g = user.grad(theta, ctx)?;
    if g.is_empty() {
        return Ok(g);
    }
    let n = g.len().max(dbar.len());
    if n % g.len() != 0 || n % dbar.len().max(1) != 0 {
        ctx.warn("longer object length is not a multiple of shorter object length");
    }
    Ok((0..n)
        .map(|i| g[i % g.len()] - mu * dbar[i % dbar.len().max(1)])
        .collect())
}

fn number(args: &Args<&Value>, name: &str, default: f64) -> Result<f64, KernelError> {
    match args.get(name).map(names::bare) {
        None => Ok(default),
        Some(v @ (Value::Num(_) | Value::Bool(_))) if v.len() == 1 => {
            Ok(v.as_f64_slice().unwrap_or_default()[0])
        }
        Some(_) => Err(KernelError::new(format!(
            "flowcast's constrOptim takes '{name}' as one number"
        ))),
    }
}

fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let missing =
        |n: &str| KernelError::new(format!("argument \"{n}\" is missing, with no default"));
    let control = args.get("control");
    // A `mu` of another length makes f(theta) - mu * bar not one number,
    // which optim refuses once the start has been checked.
    let (mut mu, mu_len) = match args.get("mu").map(names::bare) {
        None => (1e-4, 1),
        Some(v @ (Value::Num(_) | Value::Bool(_))) => (
            v.as_f64_slice()
                .and_then(|s| s.first().copied())
                .unwrap_or(NA),
            v.len(),
        ),
        Some(_) => return Err(KernelError::new("non-numeric argument to binary operator")),
    };
    if let Some(Value::List(l)) = control.map(names::bare) {
        let fnscale = l
            .names
            .as_ref()
            .and_then(|n| n.iter().position(|n| n == "fnscale"))
            .map(|i| names::bare(&l.items[i]));
        if let Some(v) = fnscale {
            if let Some([s]) = v.as_f64_slice().as_deref() {
                if flag(lt(*s, 0.0))? {
                    mu = -mu;
                }
            }
        }
    }
    let theta_value = args.get("theta").ok_or_else(|| missing("theta"))?;
    let theta: Vec<f64> = match names::bare(theta_value) {
        v @ (Value::Num(_) | Value::Mat(_) | Value::Bool(_) | Value::BoolMat(_)) => {
            v.as_f64_slice().unwrap_or_default().into_owned()
        }
        _ => {
            return Err(KernelError::new(
                "requires numeric/complex matrix/vector arguments",
            ))
        }
    };
    let con = Constraints::new(
        args.get("ui").ok_or_else(|| missing("ui"))?,
        args.get("ci").ok_or_else(|| missing("ci"))?,
        theta.len(),
    )?;
    let start = con.minus_ci(&con.times(&theta));
    if flag(any(start
        .iter()
        .map(|&g| lt(g, 0.0).map(|l| l || g == 0.0))))?
    {
        return Err(KernelError::new(
            "initial value is not in the interior of the feasible region",
        ));
    }
    let f = resolve(args.get("f"), ctx)?.ok_or_else(|| missing("f"))?;
    let grad_given = args.get("grad").is_some();
    let grad = resolve2(args.get("grad"), ctx)?;
    let dots: Vec<(Option<&str>, &Value)> = args.dots().collect();
    let user = User {
        f,
        grad: grad.clone(),
        grad_given,
        dots: &dots,
        names: names::names(theta_value).map(<[String]>::to_vec),
    };
    let obj_value = |x: &[f64], ctx: &mut Ctx| -> Result<f64, KernelError> {
        let v = user.f(x, ctx)?;
        // s.mu * obj > s.mu * obj.old: one number, or optim refused first.
        one(v)
    };
    let mut obj = user.f(&theta, ctx)?;
    let mut r = barrier(&theta, &theta, &con, mu, &user, ctx)?;
    if mu_len != 1 {
        return Err(KernelError::new(format!(
            "objective function in optim evaluates to length {mu_len} not 1"
        )));
    }
    let method_default;
    let method = match args.get("method") {
        Some(m) => m,
        None if !grad_given => return Err(missing("grad")),
        None => {
            method_default = Value::string(if grad.is_none() {
                "Nelder-Mead"
            } else {
                "BFGS"
            });
            &method_default
        }
    };
    if matches!(names::bare(method), Value::Str(m) if m.len() == 1 && m[0] == "SANN") {
        return Err(KernelError::new(
            "flowcast does not have optim's method \"SANN\" yet; \
             use \"Nelder-Mead\" or \"BFGS\"",
        ));
    }
    let outer_iterations = match args.get("outer.iterations").map(names::bare) {
        None => 100,
        Some(v) => match v.as_f64_slice().as_deref() {
            Some([n]) if *n >= 0.0 && *n < 2147483648.0 => *n as i64,
            Some([n]) if n.is_nan() || *n >= 2147483648.0 => {
                return Err(KernelError::new("argument of length 0"))
            }
            _ => {
                return Err(KernelError::new(
                    "argument must be coercible to non-negative integer",
                ))
            }
        },
    };
    let outer_eps = number(args, "outer.eps", 1e-5)?;
    let hessian = args.bool_or("hessian", false)?;
    let s_mu = if mu > 0.0 {
        1.0
    } else if mu < 0.0 {
        -1.0
    } else {
        mu
    };
    let mut tot_counts: Option<[f64; 2]> = None;
    let mut theta = theta;
    let mut obj_old = obj.clone();
    let mut a = None;
    let mut i = 0;
    for it in 1..=outer_iterations {
        i = it;
        obj_old = obj.clone();
        let r_old = r.clone();
        let theta_old = theta.clone();
        let fun = |x: &[f64], ctx: &mut Ctx| -> Result<f64, KernelError> {
            one(barrier(x, &theta_old, &con, mu, &user, ctx)?)
        };
        let gradient = |x: &[f64], ctx: &mut Ctx| -> Result<Vec<f64>, KernelError> {
            barrier_gradient(x, &theta_old, &con, mu, &user, ctx)
        };
        let res = optim_native_gr(
            &theta_old,
            &fun,
            Some(&gradient),
            Some(method),
            None,
            control,
            hessian,
            ctx,
        )?;
        r = vec![res.value];
        let (rn, ro) = (r[0], one(r_old)?);
        if rn.is_finite() && ro.is_finite() && (rn - ro).abs() < (0.001 + rn.abs()) * outer_eps {
            a = Some(res);
            break;
        }
        theta = res.par.clone();
        let (fc, gc) = res.counts;
        let counts = [fc as f64, gc.map_or(NA, |g| g as f64)];
        tot_counts = Some(match tot_counts {
            None => counts,
            Some(t) => [t[0] + counts[0], t[1] + counts[1]],
        });
        obj = vec![obj_value(&theta, ctx)?];
        let (o, oo) = (obj[0], one(obj_old.clone())?);
        let worse = if s_mu.is_nan() || o.is_nan() || oo.is_nan() {
            None
        } else {
            Some(s_mu * o > s_mu * oo)
        };
        a = Some(res);
        if flag(worse)? {
            break;
        }
    }
    let Some(a) = a else {
        return Err(KernelError::new("argument is of length zero"));
    };
    let mut convergence = a.convergence as f64;
    let mut message = a.message.clone();
    if i == outer_iterations {
        convergence = 7.0;
        message = Some("Barrier algorithm ran out of iterations and did not converge".into());
    }
    let (o, oo) = (one(obj)?, one(obj_old)?);
    if mu > 0.0
        && flag(if o.is_nan() || oo.is_nan() {
            None
        } else {
            Some(o > oo)
        })?
    {
        convergence = 11.0;
        message = Some(format!(
            "Objective function increased at outer iteration {i}"
        ));
    }
    if mu < 0.0
        && flag(if o.is_nan() || oo.is_nan() {
            None
        } else {
            Some(o < oo)
        })?
    {
        convergence = 11.0;
        message = Some(format!(
            "Objective function decreased at outer iteration {i}"
        ));
    }
    let value = one(user.f(&a.par, ctx)?)?;
    let barrier_value = a.value - value;
    let par = user.theta(&a.par);
    let counts = match tot_counts {
        None => Value::scalar(0.0),
        Some(c) => names::named(
            Value::Num(c.to_vec()),
            vec!["function".into(), "gradient".into()],
        ),
    };
    let mut fields = vec![
        ("par", par),
        ("value", Value::scalar(value)),
        ("counts", counts),
        ("convergence", Value::scalar(convergence)),
        (
            "message",
            message.map_or(Value::Null, |m| Value::Str(vec![m])),
        ),
    ];
    if let Some(h) = a.hessian {
        let h = Value::Mat(h);
        fields.push((
            "hessian",
            match &user.names {
                Some(n) => names::dimnamed(h, Some(n.clone()), Some(n.clone())),
                None => h,
            },
        ));
    }
    fields.push(("outer.iterations", Value::scalar(i as f64)));
    fields.push(("barrier.value", Value::scalar(barrier_value)));
    Ok(Value::List(List::named(fields)))
}

/// f's body (and grad's) is checked once at a numeric vector of theta's
/// length, and charged as often as a typical barrier search calls it:
/// [`work::CONSTR_OPTIM_OUTER`] optims of the method R picks (Nelder-Mead
/// without grad, else BFGS).
fn shape(args: &Args<Type>, ctx: &ShapeCtx) -> Result<Type, ArgError> {
    let n = args.ty("theta").and_then(Type::len);
    let at = n.map_or_else(Type::num_unknown, Type::num);
    let given = |t: Type| {
        let mut given = vec![(None, t)];
        given.extend(args.dots().map(|(n, t)| (n.map(str::to_string), t.clone())));
        given
    };
    let grad = resolve_shape2(args.ty("grad"), ctx).map_err(|m| args.error("grad", m))?;
    let method = match args.ty("method").and_then(Type::const_str) {
        Some(m) => m,
        None if grad.is_some() => "BFGS",
        None => "Nelder-Mead",
    };
    let (fn_runs, gr_runs) =
        work::optim_evaluations(method, n.unwrap_or(1) as f64, None, grad.is_some());
    if let Some(f) = resolve_shape(args.ty("f"), ctx).map_err(|m| args.error("f", m))? {
        f.shape_about(given(at.clone()), work::CONSTR_OPTIM_OUTER * fn_runs, ctx)
            .map_err(|m| args.error("f", m))?;
    }
    if let Some(g) = grad {
        g.shape_about(given(at.clone()), work::CONSTR_OPTIM_OUTER * gr_runs, ctx)
            .map_err(|m| args.error("grad", m))?;
    }
    let mut fields = vec![
        ("par", at),
        ("value", Type::num(1)),
        // 0 when the first search changed nothing, else the two counts.
        ("counts", Type::num_unknown()),
        ("convergence", Type::num(1)),
        ("message", Type::Any),
    ];
    match super::optim::hessian_wanted(args) {
        Some(false) => {}
        Some(true) => fields.push(("hessian", Type::Mat { rows: n, cols: n })),
        None => return Ok(Type::Any),
    }
    fields.push(("outer.iterations", Type::num(1)));
    fields.push(("barrier.value", Type::num(1)));
    Ok(Type::record("list", fields))
}
