//! `lm` of a matrix response (R's "mlm") and `manova`, with what R
//! computes of them: `coef`, `residuals`, `fitted`, `deviance.mlm`,
//! `sigma`, `vcov.mlm`, `SSD.mlm`, `estVar.mlm`, `summary.mlm`,
//! `predict.mlm`, `anova.mlm` and `anova.mlmlist` (their Pillai, Wilks,
//! Hotelling-Lawley and Roy tests), and `summary.manova`, after R 4.2.2's
//! lm.R, mlm.R and manova.R.
//!
//! R's lm.fit decomposes the model matrix once and solves for every column
//! of y; the decomposition does not depend on y, so each column's fit is
//! the lm of that column alone, with the same QR. The record keeps those
//! single-response fits (`fits`), which summary.mlm summarises one by one
//! as R does, beside R's matrices (`coefficients`, `residuals`,
//! `effects`, `fitted.values`: a column per response).

use nalgebra::DMatrix;

use super::super::linalg::linpack::{dqrdc2, dqrsl, Job};
use super::super::linalg::{eigen, la_chol2inv};
use super::super::lm;
use super::super::na_action::NaAction;
use super::super::nmath::pf;
use super::super::value::RowNames;
use super::super::value::{Formula, List, NA};
use super::super::{frame, model_matrix, names};
use super::super::{ArgError, Args, Ctx, KernelError, ShapeCtx, Type, Value};
use super::fit::Fit;

pub(crate) const CLASS: &str = "mlm";
pub(crate) const MANOVA: &str = "manova";

const NO_WEIGHTS: &str = "flowcast's lm() of a matrix response takes no weights or offset";
/// R's logLik.lm (which AIC and BIC call) of an mlm.
pub(super) const NO_LOGLIK: &str = "'logLik.lm' does not support multiple responses";
const TESTS: &[&str] = &["Pillai", "Wilks", "Hotelling-Lawley", "Roy"];

/// The response of `f` when it is a matrix of other than one column, with
/// its column names.
pub(in crate::kernels) fn response_matrix(
    f: &Formula,
) -> Option<(&DMatrix<f64>, Option<&[String]>)> {
    let v = f.response.as_deref()?;
    match names::bare(v) {
        Value::Mat(m) if m.ncols() != 1 => Some((m, names::dimnames(v).1)),
        _ => None,
    }
}

/// The column names `cbind(...)` gives its arguments at R's
/// `deparse.level = 1`: an argument's tag, or the argument itself when it
/// is a name, else "" (`None` when no argument has one, or the text is
/// no cbind of `m` arguments).
fn cbind_names(label: &str, m: usize) -> Option<Vec<String>> {
    let inner = label.trim().strip_prefix("cbind(")?.strip_suffix(')')?;
    let mut args = Vec::new();
    let (mut depth, mut start, mut quote) = (0i32, 0, None);
    for (i, c) in inner.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'' | '`') => quote = Some(c),
            (None, '(' | '[' | '{') => depth += 1,
            (None, ')' | ']' | '}') => depth -= 1,
            (None, ',') if depth == 0 => {
                args.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    args.push(&inner[start..]);
    if args.len() != m {
        return None;
    }
    let is_name = |s: &str| {
        s.chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '.')
            && s.chars()
                .all(|c| c.is_alphanumeric() || c == '.' || c == '_')
    };
    let names: Vec<String> = args
        .iter()
        .map(|a| {
            let a = a.trim();
            match a.split_once('=') {
                Some((tag, _)) if is_name(tag.trim()) && !a.contains("==") => {
                    tag.trim().to_string()
                }
                _ if is_name(a) => a.to_string(),
                _ => String::new(),
            }
        })
        .collect();
    names.iter().any(|n| !n.is_empty()).then_some(names)
}

/// The record type of an lm of a matrix response, when the formula's
/// response is one (`None` otherwise: a single-response lm).
pub(in crate::kernels) fn shape(args: &Args<Type>, class: &str) -> Result<Option<Type>, ArgError> {
    let Some(Type::Formula {
        response,
        terms,
        intercept,
    }) = args.ty("formula")
    else {
        return Ok(None);
    };
    let k = match response.as_deref() {
        Some(Type::Mat { cols: Some(k), .. }) if *k != 1 => Some(*k),
        // A matrix of unknown width: an lm or an mlm, known at run time.
        Some(Type::Mat { cols: None, .. }) if class == CLASS => return Ok(Some(Type::Any)),
        Some(Type::Mat { cols: None, .. }) => None,
        _ if class == MANOVA => {
            return Err(args.error("formula", "need multiple responses"));
        }
        _ => return Ok(None),
    };
    for w in ["weights", "offset"] {
        if args
            .get_if_formal(w)
            .is_some_and(|t| !matches!(t, Type::Null))
        {
            return Err(args.error(w, NO_WEIGHTS));
        }
    }
    let p = model_matrix::columns_type(terms, *intercept)
        .map_err(|m| args.error("formula", m))?
        .filter(|_| !lm::given_contrasts(args));
    Ok(Some(record_type(class, p, k)))
}

fn record_type(class: &str, p: Option<usize>, k: Option<usize>) -> Type {
    let num = |len| Type::Num { len, value: None };
    let mat = |rows, cols| Type::Mat { rows, cols };
    let strs = |len| Type::Str { len, value: None };
    Type::record(
        class,
        vec![
            ("coefficients", mat(p, k)),
            ("residuals", mat(None, k)),
            ("effects", mat(None, k)),
            ("rank", Type::num(1)),
            ("fitted.values", mat(None, k)),
            ("assign", num(p)),
            ("qr", Type::Any),
            ("df.residual", Type::num(1)),
            ("terms", Type::Any),
            ("coefficient.names", strs(p)),
            ("response.names", strs(k)),
            ("x", mat(None, p)),
            ("obs.names", strs(None)),
            ("fits", Type::Any),
        ],
    )
}

/// An mlm fit's refusal of `weights` and `offset`, which R's lm.wfit of a
/// matrix y takes and flowcast's does not.
pub(in crate::kernels) fn refuse_weights(
    weights: Option<&Value>,
    offset: Option<&Value>,
) -> Result<(), KernelError> {
    let given = |v: Option<&Value>| v.is_some_and(|v| !matches!(v, Value::Null));
    if given(weights) || given(offset) {
        return Err(KernelError::new(NO_WEIGHTS));
    }
    Ok(())
}

/// `lm(formula)` (or `manova(formula)`, `class` saying which) of a formula
/// whose response is a matrix: R's lm.fit of a matrix y.
pub(in crate::kernels) fn fit(
    f: &Formula,
    subset: Option<&Value>,
    data: Option<&Value>,
    contrasts: Option<&Value>,
    na: NaAction,
    class: &str,
) -> Result<List, KernelError> {
    let Some((y, given)) = response_matrix(f) else {
        return Err(KernelError::new("need multiple responses"));
    };
    let m = y.ncols();
    if m == 0 {
        return Err(KernelError::new("the response matrix has no columns"));
    }
    // model.frame drops a row with an NA in any column of y: one column
    // carrying that NA chooses the rows as the matrix would.
    let marker: Vec<f64> = (0..y.nrows())
        .map(|i| {
            if (0..m).any(|j| y[(i, j)].is_nan()) {
                NA
            } else {
                0.0
            }
        })
        .collect();
    let g = Formula {
        response: Some(Box::new(Value::Num(marker))),
        ..f.clone()
    };
    let d = lm::design_na(&g, subset, None, contrasts, None, na)?;
    // Under na.pass an NA reaches lm.fit, which refuses it.
    if d.x.iter().any(|v| !v.is_finite()) {
        return Err(KernelError::new("NA/NaN/Inf in 'x'"));
    }
    if d.rows
        .iter()
        .any(|&i| (0..m).any(|j| !y[(i, j)].is_finite()))
    {
        return Err(KernelError::new("NA/NaN/Inf in 'y'"));
    }
    let obs = lm::obs_names(data, &d.rows);
    let omitted = lm::omitted_record(data, &d.omitted, na);
    let given: Option<Vec<String>> = given
        .map(<[String]>::to_vec)
        .or_else(|| cbind_names(f.response_label.as_deref()?, m));
    // summary.mlm names an unnamed response by its position.
    let ynames: Vec<String> = (0..m)
        .map(|j| match given.as_ref().map(|g| g[j].as_str()) {
            Some(n) if !n.is_empty() => n.to_string(),
            _ => format!("Y{}", j + 1),
        })
        .collect();
    let mut fits = Vec::with_capacity(m);
    for j in 0..m {
        let mut dj = d.clone();
        dj.y = d.rows.iter().map(|&i| y[(i, j)]).collect();
        fits.push(lm::fit_design(dj, f.intercept, obs.clone())?);
    }
    let first = &fits[0];
    let field = |name: &str| {
        first
            .field(name)
            .cloned()
            .ok_or_else(|| KernelError::new(format!("the lm fit has no '{name}'")))
    };
    let column = |name: &str, rows: usize| -> Result<DMatrix<f64>, KernelError> {
        let mut out = DMatrix::zeros(rows, m);
        for (j, fit) in fits.iter().enumerate() {
            match fit.field(name) {
                Some(Value::Num(v)) if v.len() == rows => out.column_mut(j).copy_from_slice(v),
                _ => return Err(KernelError::new(format!("the lm fit's '{name}' is amiss"))),
            }
        }
        Ok(out)
    };
    let n = d.n;
    let coef_names = d.names.clone();
    let obs_rows = match &obs {
        Value::Str(s) => Some(s.clone()),
        _ => None,
    };
    let cols = given;
    let record = List::record(
        class,
        vec![
            (
                "coefficients",
                names::dimnamed(
                    Value::Mat(column("coefficients", d.p)?),
                    Some(coef_names.clone()),
                    cols.clone(),
                ),
            ),
            (
                "residuals",
                names::dimnamed(
                    Value::Mat(column("residuals", n)?),
                    obs_rows.clone(),
                    cols.clone(),
                ),
            ),
            (
                "effects",
                names::dimnamed(Value::Mat(column("effects", n)?), None, cols.clone()),
            ),
            ("rank", field("rank")?),
            (
                "fitted.values",
                names::dimnamed(Value::Mat(column("fitted.values", n)?), obs_rows, cols),
            ),
            ("assign", field("assign")?),
            ("qr", field("qr")?),
            ("df.residual", field("df.residual")?),
            ("terms", field("terms")?),
            ("coefficient.names", Value::Str(coef_names)),
            ("response.names", Value::Str(ynames.clone())),
            ("x", field("x")?),
            ("obs.names", obs),
            (
                "fits",
                Value::List(List::named(
                    ynames
                        .iter()
                        .map(String::as_str)
                        .zip(fits.into_iter().map(Value::List))
                        .collect(),
                )),
            ),
        ],
    );
    // R's fit has an na.action element only when rows were dropped.
    let mut record = record;
    if let Some(o) = omitted {
        record
            .names
            .get_or_insert_with(Vec::new)
            .push("na.action".into());
        record.items.push(o);
    }
    Ok(record)
}

/// Whether `v` is an mlm or manova fit.
pub(crate) fn is_mlm(v: &Value) -> bool {
    Mlm::of(Some(v)).is_some()
}

/// The functions with an mlm method here: they are handed the fit with
/// its matrices' dimnames, which name what they return.
pub(crate) fn reads_fit(func: &str) -> bool {
    matches!(
        func,
        "coef"
            | "coefficients"
            | "residuals"
            | "resid"
            | "fitted"
            | "fitted.values"
            | "deviance"
            | "sigma"
            | "vcov"
            | "SSD"
            | "estVar"
            | "summary"
            | "predict"
            | "anova"
    )
}

/// An mlm or manova record.
pub(super) struct Mlm<'a> {
    pub record: &'a List,
}

impl<'a> Mlm<'a> {
    pub fn of(v: Option<&'a Value>) -> Option<Mlm<'a>> {
        match v.map(names::bare) {
            Some(Value::List(l)) if matches!(l.class.as_deref(), Some(CLASS | MANOVA)) => {
                Some(Mlm { record: l })
            }
            _ => None,
        }
    }

    pub fn is_manova(&self) -> bool {
        self.record.class.as_deref() == Some(MANOVA)
    }

    pub fn field(&self, name: &str) -> Result<&'a Value, KernelError> {
        self.record
            .field(name)
            .ok_or_else(|| KernelError::new(format!("the mlm fit has no '{name}'")))
    }

    pub fn mat(&self, name: &str) -> Result<&'a DMatrix<f64>, KernelError> {
        match names::bare(self.field(name)?) {
            Value::Mat(m) => Ok(m),
            _ => Err(KernelError::new(format!(
                "the mlm fit's '{name}' is not a matrix"
            ))),
        }
    }

    /// The responses' names, `Y1`, `Y2`, ... where y had none.
    pub fn names(&self) -> Vec<String> {
        match self.record.field("response.names") {
            Some(Value::Str(s)) => s.clone(),
            _ => Vec::new(),
        }
    }

    /// y's own column names, when it had them (R's `colnames(coef)`).
    fn given_names(&self) -> Option<Vec<String>> {
        self.field("coefficients")
            .ok()
            .and_then(|c| names::dimnames(c).1.map(<[String]>::to_vec))
    }

    /// Each response's lm fit.
    pub fn fits(&self) -> Result<Vec<Fit<'a>>, KernelError> {
        let Value::List(l) = self.field("fits")? else {
            return Err(KernelError::new("the mlm fit's 'fits' is not a list"));
        };
        l.items
            .iter()
            .map(|v| {
                Fit::from_value(v)
                    .ok_or_else(|| KernelError::new("the mlm fit's 'fits' are not lm fits"))
            })
            .collect()
    }

    pub fn df_residual(&self) -> Result<f64, KernelError> {
        match self.field("df.residual")? {
            Value::Num(v) if v.len() == 1 => Ok(v[0]),
            _ => Err(KernelError::new("the mlm fit's 'df.residual' is amiss")),
        }
    }

    fn named(&self, v: Vec<f64>) -> Value {
        match self.given_names() {
            Some(n) => names::named(Value::Num(v), n),
            None => Value::Num(v),
        }
    }

    /// `deviance.mlm`: each response's residual sum of squares.
    pub fn deviance(&self) -> Result<Value, KernelError> {
        let r = self.mat("residuals")?;
        Ok(self.named(
            r.column_iter()
                .map(|c| c.iter().map(|v| v * v).sum())
                .collect(),
        ))
    }

    /// `sigma.mlm`: sqrt(deviance / df.residual) per response.
    pub fn sigma(&self) -> Result<Value, KernelError> {
        let r = self.mat("residuals")?;
        let df = self.df_residual()?;
        Ok(self.named(
            r.column_iter()
                .map(|c| (c.iter().map(|v| v * v).sum::<f64>() / df).sqrt())
                .collect(),
        ))
    }

    /// `SSD.mlm`'s `crossprod(residuals)`, with y's names.
    fn ssd_matrix(&self) -> Result<DMatrix<f64>, KernelError> {
        let r = self.mat("residuals")?;
        Ok(r.transpose() * r)
    }

    fn square_named(&self, m: DMatrix<f64>) -> Value {
        let n = self.given_names();
        names::dimnamed(Value::Mat(m), n.clone(), n)
    }

    /// `SSD(object)`: R's list of `SSD` and `df` (without its `call`).
    pub fn ssd(&self) -> Result<Value, KernelError> {
        let s = self.ssd_matrix()?;
        Ok(Value::List(List::record(
            "SSD",
            vec![
                ("SSD", self.square_named(s)),
                ("df", Value::scalar(self.df_residual()?)),
            ],
        )))
    }

    /// `estVar(object)`: SSD / df.
    pub fn est_var(&self) -> Result<Value, KernelError> {
        let df = self.df_residual()?;
        Ok(self.square_named(self.ssd_matrix()? / df))
    }

    /// `vcov.mlm`: kronecker(estVar, cov.unscaled), rows and columns named
    /// "response:coefficient".
    pub fn vcov(&self) -> Result<Value, KernelError> {
        let fits = self.fits()?;
        let first = fits
            .first()
            .ok_or_else(|| KernelError::new("the mlm fit has no responses"))?;
        let qr = first.qr()?;
        let k = qr.rank;
        let cov = la_chol2inv(&qr.qr, qr.n, k)?;
        let coef_names = first.names();
        let est = self.ssd_matrix()? / self.df_residual()?;
        let m = est.nrows();
        let mut out = DMatrix::zeros(m * k, m * k);
        for a in 0..m {
            for b in 0..m {
                for i in 0..k {
                    for j in 0..k {
                        out[(a * k + i, b * k + j)] = est[(a, b)] * cov[j * k + i];
                    }
                }
            }
        }
        let ynames = self.given_names().unwrap_or_else(|| vec![String::new(); m]);
        let mut labels = Vec::with_capacity(m * k);
        for y in &ynames {
            for &p in &qr.pivot[..k] {
                let c = coef_names.get(p - 1).map_or("", String::as_str);
                labels.push(format!("{y}:{c}"));
            }
        }
        Ok(names::dimnamed(
            Value::Mat(out),
            Some(labels.clone()),
            Some(labels),
        ))
    }

    /// `summary.mlm`: each response's summary.lm, named "Response y".
    pub fn summary(&self) -> Result<Value, KernelError> {
        let fits = self.fits()?;
        let mut fields = Vec::with_capacity(fits.len());
        for (fit, name) in fits.iter().zip(self.names()) {
            fields.push((format!("Response {name}"), super::summary::summary_lm(fit)?));
        }
        let (n, items) = fields.into_iter().unzip();
        Ok(Value::List(List {
            class: Some("listof".to_string()),
            names: Some(n),
            items,
            row_names: None,
        }))
    }

    /// `predict.mlm(object, newdata)`: X[, piv] %*% coefficients[piv, ].
    pub fn predict(&self, newdata: Option<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
        let Some(newdata) = newdata.filter(|v| !matches!(v, Value::Null)) else {
            return Ok(self.field("fitted.values")?.clone());
        };
        let fits = self.fits()?;
        let first = fits
            .first()
            .ok_or_else(|| KernelError::new("the mlm fit has no responses"))?;
        let (x, n, offset) = super::predict::model_matrix(first, newdata)?;
        let qr = first.qr()?;
        let coef = self.mat("coefficients")?;
        if x.len() != n * qr.p || coef.nrows() != qr.p {
            return Err(KernelError::new(format!(
                "'newdata' gives {} columns of the model matrix, the fit has {}",
                x.len().checked_div(n).unwrap_or(0),
                qr.p
            )));
        }
        if qr.rank < qr.p {
            ctx.warn("prediction from a rank-deficient fit may be misleading");
        }
        let m = coef.ncols();
        let mut pred = DMatrix::zeros(n, m);
        for j in 0..m {
            for &pv in &qr.pivot[..qr.rank] {
                let c = pv - 1;
                let b = coef[(c, j)];
                for i in 0..n {
                    pred[(i, j)] += x[c * n + i] * b;
                }
            }
            if let Some(o) = &offset {
                for i in 0..n {
                    pred[(i, j)] += o[i];
                }
            }
        }
        let rows = (1..=n).map(|i| i.to_string()).collect();
        Ok(names::dimnamed(
            Value::Mat(pred),
            Some(rows),
            self.given_names(),
        ))
    }

    /// The effects' groups of `anova.mlm` and `summary.manova`: for each
    /// term among the QR's first `rank` columns (sorted, as `split` groups
    /// them), its `assign` value, its number of effects and
    /// `crossprod(effects[rows, ])`.
    fn term_ss(&self) -> Result<Vec<(f64, f64, DMatrix<f64>)>, KernelError> {
        let fits = self.fits()?;
        let first = fits
            .first()
            .ok_or_else(|| KernelError::new("the mlm fit has no responses"))?;
        let qr = first.qr()?;
        let assign = first.nums("assign")?;
        let effects = self.mat("effects")?;
        if assign.len() != qr.p || effects.nrows() < qr.rank {
            return Err(KernelError::new(
                "the fit's effects or assign do not match its QR",
            ));
        }
        let asgn: Vec<f64> = (0..qr.rank).map(|i| assign[qr.pivot[i] - 1]).collect();
        let mut levels = asgn.clone();
        levels.sort_by(f64::total_cmp);
        levels.dedup();
        Ok(levels
            .iter()
            .map(|&l| {
                let rows: Vec<usize> = (0..qr.rank).filter(|&i| asgn[i] == l).collect();
                let comp = effects.select_rows(rows.iter());
                (l, rows.len() as f64, comp.transpose() * comp)
            })
            .collect())
    }

    fn effect_names(&self, levels: &[f64]) -> Result<Vec<String>, KernelError> {
        let fits = self.fits()?;
        Ok(fits
            .first()
            .map(|f| f.effect_names(levels))
            .unwrap_or_default())
    }
}

/// `test` matched against `choices` as match.arg does (its first when
/// not given).
fn test_arg(v: Option<&Value>, choices: &[&str]) -> Result<String, KernelError> {
    let err = || KernelError::new(super::accessors::arg_error(choices));
    match v {
        None | Some(Value::Null) => Ok(choices[0].to_string()),
        Some(Value::Str(s)) if s.len() == 1 => super::accessors::matching(&s[0], choices)
            .map(str::to_string)
            .ok_or_else(err),
        Some(Value::Str(s)) if s == &choices.iter().map(|c| c.to_string()).collect::<Vec<_>>() => {
            Ok(choices[0].to_string())
        }
        Some(_) => Err(err()),
    }
}

/// R's `Pillai`, `Wilks`, `HL` and `Roy` (mlm.R): the statistic, its
/// approximate F and that F's degrees of freedom.
fn statistic(test: &str, eig: &[f64], q: f64, df_res: f64) -> [f64; 4] {
    let p = eig.len() as f64;
    match test {
        "Pillai" => {
            let test: f64 = eig.iter().map(|e| e / (1.0 + e)).sum();
            let s = p.min(q);
            let n = 0.5 * (df_res - p - 1.0);
            let m = 0.5 * ((p - q).abs() - 1.0);
            let tmp1 = 2.0 * m + s + 1.0;
            let tmp2 = 2.0 * n + s + 1.0;
            [test, (tmp2 / tmp1 * test) / (s - test), s * tmp1, s * tmp2]
        }
        "Wilks" => {
            let test: f64 = eig.iter().map(|e| 1.0 / (1.0 + e)).product();
            let tmp1 = df_res - 0.5 * (p - q + 1.0);
            let tmp2 = (p * q - 2.0) / 4.0;
            let tmp3 = p * p + q * q - 5.0;
            let tmp3 = if tmp3 > 0.0 {
                (((p * q) * (p * q) - 4.0) / tmp3).sqrt()
            } else {
                1.0
            };
            [
                test,
                ((test.powf(-1.0 / tmp3) - 1.0) * (tmp1 * tmp3 - 2.0 * tmp2)) / p / q,
                p * q,
                tmp1 * tmp3 - 2.0 * tmp2,
            ]
        }
        "Hotelling-Lawley" => {
            let test: f64 = eig.iter().sum();
            let m = 0.5 * ((p - q).abs() - 1.0);
            let n = 0.5 * (df_res - p - 1.0);
            let s = p.min(q);
            let tmp1 = 2.0 * m + s + 1.0;
            let tmp2 = 2.0 * (s * n + 1.0);
            [test, (tmp2 * test) / s / s / tmp1, s * tmp1, tmp2]
        }
        _ => {
            let test = eig.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let tmp1 = p.max(q);
            let tmp2 = df_res - tmp1 + q;
            [test, (tmp2 * test) / tmp1, tmp1, tmp2]
        }
    }
}

/// The eigenvalues of `qr.coef(qr(D E D), D H D)` for each H of `hs`,
/// D scaling E's diagonal to one unless a response is fitted (near)
/// exactly: its scale below 1e-6 of sqrt(E's diagonal + `extra`), as
/// anova.mlm, anova.mlmlist and summary.manova scale them.
fn eigenvalues(
    e: &DMatrix<f64>,
    hs: &[&DMatrix<f64>],
    extra: &[f64],
    tol: f64,
    ctx: &mut Ctx,
) -> Result<Vec<Vec<f64>>, KernelError> {
    let p = e.nrows();
    let sc: Vec<f64> = (0..p)
        .map(|j| {
            let sc = e[(j, j)].sqrt();
            let sss = e[(j, j)] + extra.get(j).copied().unwrap_or(0.0);
            if sc < sss.sqrt() * 1e-6 {
                1.0
            } else {
                1.0 / sc
            }
        })
        .collect();
    let scaled = |m: &DMatrix<f64>| DMatrix::from_fn(p, p, |i, j| m[(i, j)] * sc[i] * sc[j]);
    let es = scaled(e);
    let qr = dqrdc2(es.as_slice().to_vec(), p, p, tol);
    if qr.rank < p {
        return Err(KernelError::new(format!(
            "residuals have rank {} < {}",
            qr.rank, p
        )));
    }
    let mut out = Vec::with_capacity(hs.len());
    for h in hs {
        let hs = scaled(h);
        let mut a = DMatrix::zeros(p, p);
        for j in 0..p {
            let col: Vec<f64> = hs.column(j).iter().copied().collect();
            let b = dqrsl(
                &qr,
                p,
                &col,
                Job {
                    b: true,
                    ..Job::default()
                },
            )
            .b;
            for i in 0..p {
                a[(qr.pivot[i] - 1, j)] = b[i];
            }
        }
        let values = match eigen(&a, Some(false), true, ctx.cancel)? {
            Value::List(l) => match l.field("values") {
                Some(Value::Num(v)) => v.clone(),
                Some(Value::Complex(v)) => v.iter().map(|c| c.re).collect(),
                _ => return Err(KernelError::new("eigen gave no values")),
            },
            _ => return Err(KernelError::new("eigen gave no values")),
        };
        out.push(values);
    }
    Ok(out)
}

/// The sum of the diagonals of `hs`: anova.mlm's and summary.manova's
/// `extra` for [`eigenvalues`].
fn diagonal_sum(hs: &[&DMatrix<f64>], p: usize) -> Vec<f64> {
    (0..p).map(|j| hs.iter().map(|h| h[(j, j)]).sum()).collect()
}

/// Each term's test statistic row: the statistic, approx F, num Df, den
/// Df and Pr(>F) (NA where R leaves it so).
fn test_rows(test: &str, eigs: &[Vec<f64>], df: &[f64], df_res: f64) -> Vec<[f64; 5]> {
    eigs.iter()
        .zip(df)
        .map(|(e, &q)| {
            let s = statistic(test, e, q, df_res);
            let ok = s[1] >= 0.0 && s[2] > 0.0 && s[3] > 0.0;
            let p = if ok {
                pf(s[1], s[2], s[3], false, false)
            } else {
                NA
            };
            [s[0], s[1], s[2], s[3], p]
        })
        .collect()
}

/// Arguments of anova.mlm that choose a transformation of the responses,
/// which flowcast does not take.
const TRANSFORMS: &[&str] = &["Sigma", "T", "M", "X", "idata"];

fn refuse_transforms(args: &Args<&Value>, func: &str) -> Result<(), KernelError> {
    for (n, _) in args.dots() {
        if let Some(n) = n.filter(|n| TRANSFORMS.contains(n)) {
            return Err(KernelError::new(format!(
                "flowcast's {func}() of an mlm fit takes no '{n}': it tests the responses as they are"
            )));
        }
    }
    Ok(())
}

fn tol_arg(args: &Args<&Value>) -> Result<f64, KernelError> {
    match args.dots().find(|(n, _)| *n == Some("tol")) {
        None => Ok(1e-7),
        Some((_, v)) => v
            .as_f64_slice()
            .and_then(|t| (t.len() == 1).then(|| t[0]))
            .ok_or_else(|| KernelError::new("invalid 'tol' value")),
    }
}

fn stats_frame(
    first: (&str, Vec<f64>),
    test: &str,
    rows: &[[f64; 5]],
    pad: usize,
    row_names: Vec<String>,
) -> Value {
    let mut names = vec![first.0.to_string()];
    let mut cols = vec![Value::Num(first.1)];
    for (k, name) in [test, "approx F", "num Df", "den Df", "Pr(>F)"]
        .iter()
        .enumerate()
    {
        names.push(name.to_string());
        let mut c: Vec<f64> = vec![NA; pad];
        c.extend(rows.iter().map(|r| r[k]));
        cols.push(Value::Num(c));
    }
    frame::named_frame(names, cols, Some(RowNames::Text(row_names)))
}

/// `anova(object, ..., test)` of mlm fits: anova.mlm of one fit (a row
/// per term, the intercept's too, and the residuals'), anova.mlmlist of
/// several.
pub(super) fn anova(first: Mlm, args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    refuse_transforms(args, "anova")?;
    let mut all = choices_with_spherical();
    let test = test_arg(args.get("test"), &all)?;
    all.clear();
    if test == "Spherical" {
        return Err(KernelError::new(
            "flowcast's anova() of an mlm fit takes test = \"Pillai\", \"Wilks\", \"Hotelling-Lawley\" or \"Roy\", not \"Spherical\"",
        ));
    }
    let tol = tol_arg(args)?;
    let mut others = Vec::new();
    for (n, v) in args.dots() {
        if n.is_some() {
            continue;
        }
        match Mlm::of(Some(v)) {
            Some(m) => others.push(m),
            None => {
                return Err(KernelError::new(format!(
                    "flowcast's anova() compares an mlm fit with mlm fits only, not a {}",
                    v.type_name()
                )))
            }
        }
    }
    let e = first.ssd_matrix()?;
    let df_res = first.df_residual()?;
    if others.is_empty() {
        let terms = first.term_ss()?;
        let hs: Vec<&DMatrix<f64>> = terms.iter().map(|t| &t.2).collect();
        let eigs = eigenvalues(&e, &hs, &diagonal_sum(&hs, e.nrows()), tol, ctx)?;
        let mut df: Vec<f64> = terms.iter().map(|t| t.1).collect();
        let rows = test_rows(&test, &eigs, &df, df_res);
        let levels: Vec<f64> = terms.iter().map(|t| t.0).collect();
        let mut row_names = first.effect_names(&levels)?;
        row_names.push("Residuals".to_string());
        let mut rows = rows;
        rows.push([NA; 5]);
        df.push(df_res);
        return Ok(stats_frame(("Df", df), &test, &rows, 0, row_names));
    }
    others.insert(0, first);
    anova_list(&others, &test, tol, ctx)
}

fn choices_with_spherical() -> Vec<&'static str> {
    let mut c = TESTS.to_vec();
    c.push("Spherical");
    c
}

/// R's `anova.mlmlist`: each fit's residual df and generalised variance
/// (`det(SSD / df)^(1/p)`), and for each next fit the test of the change
/// in SSD against the larger model's.
fn anova_list(fits: &[Mlm], test: &str, tol: f64, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let responses: Vec<String> = fits
        .iter()
        .map(|f| match f.field("fits").ok() {
            Some(Value::List(l)) => l.names.clone().unwrap_or_default().join(","),
            _ => String::new(),
        })
        .collect();
    if responses.iter().any(|r| r != &responses[0]) {
        return Err(KernelError::new(
            "flowcast's anova() compares mlm fits of the same responses only",
        ));
    }
    let n0 = fits[0].mat("residuals")?.len();
    for f in fits {
        if f.mat("residuals")?.len() != n0 {
            return Err(KernelError::new(
                "models were not all fitted to the same size of dataset",
            ));
        }
    }
    let resdf = fits
        .iter()
        .map(Mlm::df_residual)
        .collect::<Result<Vec<f64>, _>>()?;
    let ssd = fits
        .iter()
        .map(Mlm::ssd_matrix)
        .collect::<Result<Vec<_>, _>>()?;
    let p = ssd[0].nrows() as f64;
    let resdet: Vec<f64> = ssd
        .iter()
        .zip(&resdf)
        .map(|(s, df)| (s / *df).determinant().powf(1.0 / p))
        .collect();
    let mut df = vec![NA];
    df.extend(resdf.windows(2).map(|w| w[1] - w[0]));
    // The error is the SSD of the fit of fewest residual df (the first
    // such), each hypothesis the change in SSD from the fit before,
    // signed by the change in df; D scales by the largest change.
    let big = (0..fits.len())
        .min_by(|&a, &b| resdf[a].total_cmp(&resdf[b]))
        .unwrap_or(0);
    let deltas: Vec<DMatrix<f64>> = ssd.windows(2).map(|w| &w[1] - &w[0]).collect();
    let pp = ssd[0].nrows();
    let extra: Vec<f64> = (0..pp)
        .map(|j| {
            deltas
                .iter()
                .map(|d| d[(j, j)].abs())
                .fold(f64::NEG_INFINITY, f64::max)
        })
        .collect();
    let mut rows = Vec::new();
    for i in 1..fits.len() {
        let sg = if df[i] > 0.0 {
            1.0
        } else if df[i] < 0.0 {
            -1.0
        } else {
            0.0
        };
        let h = &deltas[i - 1] * sg;
        let eig = eigenvalues(&ssd[big], &[&h], &extra, tol, ctx)?;
        let mut r = test_rows(test, &eig, &[sg * df[i]], resdf[big]);
        rows.push(r.remove(0));
    }
    let row_names = (1..=fits.len()).map(|i| i.to_string()).collect();
    let mut names = vec![
        "Res.Df".to_string(),
        "Df".to_string(),
        "Gen.var.".to_string(),
    ];
    let mut cols = vec![Value::Num(resdf), Value::Num(df), Value::Num(resdet)];
    for (k, name) in [test, "approx F", "num Df", "den Df", "Pr(>F)"]
        .iter()
        .enumerate()
    {
        names.push(name.to_string());
        let mut c = vec![NA];
        c.extend(rows.iter().map(|r| r[k]));
        cols.push(Value::Num(c));
    }
    Ok(frame::named_frame(
        names,
        cols,
        Some(RowNames::Text(row_names)),
    ))
}

/// R's `summary.manova(object, test, intercept, tol)`.
pub(super) fn summary_manova(
    fit: Mlm,
    args: &Args<&Value>,
    ctx: &mut Ctx,
) -> Result<Value, KernelError> {
    let dot = |name: &str| args.dots().find(|(n, _)| *n == Some(name)).map(|(_, v)| v);
    let test = test_arg(dot("test"), TESTS)?;
    let intercept = match dot("intercept") {
        None => false,
        Some(v) => v
            .as_flag()
            .ok_or_else(|| KernelError::new("invalid 'intercept' argument: TRUE or FALSE"))?,
    };
    let tol = tol_arg(args)?;
    let mut terms = fit.term_ss()?;
    if !intercept {
        terms.retain(|t| t.0 != 0.0);
    }
    let levels: Vec<f64> = terms.iter().map(|t| t.0).collect();
    let mut row_names = fit.effect_names(&levels)?;
    let rdf = fit.df_residual()?;
    if rdf <= 0.0 {
        return Err(KernelError::new(
            "flowcast's summary() of a manova fit needs residual degrees of freedom",
        ));
    }
    let e = fit.ssd_matrix()?;
    let hs: Vec<&DMatrix<f64>> = terms.iter().map(|t| &t.2).collect();
    let eigs = eigenvalues(&e, &hs, &diagonal_sum(&hs, e.nrows()), tol, ctx)?;
    let mut df: Vec<f64> = terms.iter().map(|t| t.1).collect();
    let mut rows = test_rows(&test, &eigs, &df, rdf);
    let ynames = fit.given_names();
    let mut ss_names = row_names.clone();
    let mut ss: Vec<Value> = terms
        .iter()
        .map(|t| names::dimnamed(Value::Mat(t.2.clone()), ynames.clone(), ynames.clone()))
        .collect();
    ss.push(names::dimnamed(Value::Mat(e), ynames.clone(), ynames));
    ss_names.push("Residuals".to_string());
    let eig_rows = row_names.clone();
    row_names.push("Residuals".to_string());
    df.push(rdf);
    rows.push([NA; 5]);
    let nresp = eigs.first().map_or(0, Vec::len);
    let eig_mat = DMatrix::from_fn(eigs.len(), nresp, |i, j| eigs[i][j]);
    let mut stats = DMatrix::zeros(df.len(), 6);
    for (i, (d, r)) in df.iter().zip(&rows).enumerate() {
        stats[(i, 0)] = *d;
        for k in 0..5 {
            stats[(i, k + 1)] = r[k];
        }
    }
    let colnames = ["Df", &test, "approx F", "num Df", "den Df", "Pr(>F)"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    Ok(Value::List(List::record(
        "summary.manova",
        vec![
            ("row.names", Value::Str(row_names.clone())),
            (
                "SS",
                Value::List(List::named(
                    ss_names.iter().map(String::as_str).zip(ss).collect(),
                )),
            ),
            (
                "Eigenvalues",
                names::dimnamed(Value::Mat(eig_mat), Some(eig_rows), None),
            ),
            (
                "stats",
                names::dimnamed(Value::Mat(stats), Some(row_names), Some(colnames)),
            ),
        ],
    )))
}

/// The type of an mlm accessor's value, for the accessors that give a
/// record field (`coef`, `residuals`, `fitted`).
pub(super) fn field_type(args: &Args<Type>, field: &str) -> Option<Type> {
    match args.ty("object") {
        Some(t @ Type::Record { class, .. }) if class == CLASS || class == MANOVA => {
            Some(t.field(field).cloned().unwrap_or(Type::Any))
        }
        _ => None,
    }
}

/// Whether the object's type is an mlm or manova record.
pub(super) fn is_mlm_type(args: &Args<Type>) -> bool {
    matches!(args.ty("object"), Some(Type::Record { class, .. }) if class == CLASS || class == MANOVA)
}

pub(super) fn manova_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(shape(args, MANOVA)?.unwrap_or(Type::Any))
}

pub(super) fn manova_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let Some(Value::Formula(f)) = args.get("formula") else {
        return Err(KernelError::new(
            "manova() needs a formula as its first argument (cbind(y1, y2) ~ g)",
        ));
    };
    if response_matrix(f).is_none() {
        return Err(KernelError::new("need multiple responses"));
    }
    fit(
        f,
        args.get("subset"),
        args.get("data"),
        None,
        NaAction::Omit,
        MANOVA,
    )
    .map(Value::List)
}

pub(super) fn ssd_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    mlm_arg_type(args)?;
    Ok(Type::Any)
}

pub(super) fn est_var_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    mlm_arg_type(args)?;
    Ok(Type::Mat {
        rows: None,
        cols: None,
    })
}

fn mlm_arg_type(args: &Args<Type>) -> Result<(), ArgError> {
    match args.ty("object") {
        None | Some(Type::Any) => Ok(()),
        Some(Type::Record { class, .. }) if class == CLASS || class == MANOVA || class == "SSD" => {
            Ok(())
        }
        Some(t) => Err(args.error(
            "object",
            format!(
                "flowcast's {}() takes an lm fit of a matrix response, not {}",
                args.func,
                t.describe()
            ),
        )),
    }
}

fn mlm_arg<'a>(args: &'a Args<&Value>) -> Result<Mlm<'a>, KernelError> {
    let v = args.get("object");
    Mlm::of(v).ok_or_else(|| {
        KernelError::new(format!(
            "flowcast's {}() takes an lm fit of a matrix response, not a {}",
            args.func,
            v.map_or("missing argument", Value::type_name)
        ))
    })
}

pub(super) fn ssd_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    mlm_arg(args)?.ssd()
}

pub(super) fn est_var_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    // estVar.SSD: SSD / df.
    if let Some(Value::List(l)) = args.get("object").map(names::bare) {
        if l.class.as_deref() == Some("SSD") {
            let (Some(s), Some(Value::Num(df))) = (l.field("SSD"), l.field("df")) else {
                return Err(KernelError::new("an SSD value without its 'SSD' and 'df'"));
            };
            let Value::Mat(m) = names::bare(s) else {
                return Err(KernelError::new("an SSD value without its 'SSD' matrix"));
            };
            let (r, c) = names::dimnames(s);
            return Ok(names::dimnamed(
                Value::Mat(m / df.first().copied().unwrap_or(NA)),
                r.map(<[String]>::to_vec),
                c.map(<[String]>::to_vec),
            ));
        }
    }
    mlm_arg(args)?.est_var()
}

pub(super) fn mauchly_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    mlm_arg_type(args)?;
    Ok(Type::Any)
}

/// `mauchly.test(object)` of an mlm fit or its SSD: R 4.2.2's
/// mauchly.test.SSD with its defaults (`T` the identity, so `Psi` is the
/// identity and `U = solve(Psi, B)` the SSD matrix itself), as an htest
/// of the statistic W, the p-value and the method. R's `data.name`
/// deparses the fit's call, which flowcast's fits do not keep.
pub(super) fn mauchly_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    for name in ["Sigma", "T", "M", "X", "idata"] {
        if args.get(name).is_some() {
            return Err(KernelError::new(format!(
                "flowcast's mauchly.test tests the sphericity of the whole SSD matrix: \
                 '{name}' is refused"
            )));
        }
    }
    let ssd = match args.get("object").map(names::bare) {
        Some(v @ Value::List(l)) if l.class.as_deref() == Some("SSD") => v.clone(),
        _ => mlm_arg(args)?.ssd()?,
    };
    let Value::List(l) = &ssd else {
        return Err(KernelError::new("an SSD value without its 'SSD' and 'df'"));
    };
    let (Some(s), Some(df)) = (l.field("SSD"), l.field("df").and_then(Value::as_scalar)) else {
        return Err(KernelError::new("an SSD value without its 'SSD' and 'df'"));
    };
    let Value::Mat(u) = names::bare(s) else {
        return Err(KernelError::new("an SSD value without its 'SSD' matrix"));
    };
    if u.iter().any(|v| !v.is_finite()) {
        return Err(KernelError::new(
            "NA/NaN/Inf in foreign function call (arg 1)",
        ));
    }
    let p = u.ncols() as f64;
    let pp = p;
    let n = df;
    // det(U) = sign * exp(modulus), as R's det returns it, then its log.
    let (modulus, sign) = super::super::linalg::log_determinant(u);
    let det = sign * modulus.exp();
    let diag: Vec<f64> = (0..u.ncols()).map(|i| u[(i, i)] / pp).collect();
    let tr = super::super::summary::sum(&diag, false);
    let log_w = det.ln() - pp * tr.ln();
    let rho = 1.0 - (2.0 * (pp * pp) + pp + 2.0) / (6.0 * pp * n);
    let npr = n * pp * rho;
    let w2 =
        (pp + 2.0) * (pp - 1.0) * (pp - 2.0) * (2.0 * pp.powi(3) + 6.0 * (pp * pp) + 3.0 * p + 2.0)
            / (288.0 * (npr * npr));
    let z = -n * rho * log_w;
    let f = pp * (pp + 1.0) / 2.0 - 1.0;
    let pr1 = super::super::nmath::pchisq(z, f, false, false);
    let pr2 = super::super::nmath::pchisq(z, f + 4.0, false, false);
    let pval = pr1 + w2 * (pr2 - pr1);
    Ok(Value::List(List::record(
        "htest",
        vec![
            (
                "statistic",
                names::named(Value::scalar(log_w.exp()), vec!["W".into()]),
            ),
            ("p.value", Value::scalar(pval)),
            ("method", Value::string("Mauchly's test of sphericity")),
        ],
    )))
}
