//! Reading a fitted model back: an `lm` or `glm` record as the kernels
//! that take one (`coef`, `summary`, `anova`, `predict`) need it.

use super::super::linalg::linpack::Qr;
use super::super::summary::sum;
use super::super::value::List;
use super::super::{ArgError, Args, KernelError, Type, Value};
use super::family::Family;
use super::glm::family_of;

/// Which model a record is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Lm,
    Glm(Family),
}

/// A fitted model's record.
pub(super) struct Fit<'a> {
    pub kind: Kind,
    pub record: &'a List,
}

impl<'a> Fit<'a> {
    /// The model in argument `name`, or R's error for anything else.
    pub fn from_arg(
        args: &'a Args<&Value>,
        name: &str,
        func: &str,
    ) -> Result<Fit<'a>, KernelError> {
        let v = args.get(name).ok_or_else(|| {
            KernelError::new(format!("argument \"{name}\" is missing, with no default"))
        })?;
        if super::mlm::Mlm::of(Some(v)).is_some() {
            return Err(KernelError::new(match func {
                "logLik" | "AIC" | "BIC" => super::mlm::NO_LOGLIK.to_string(),
                _ => format!(
                    "flowcast's {func}() does not take an mlm fit (an lm of a matrix response)"
                ),
            }));
        }
        Fit::from_value(v).ok_or_else(|| not_a_model(func, v.type_name()))
    }

    pub fn from_value(v: &'a Value) -> Option<Fit<'a>> {
        let Value::List(l) = v else { return None };
        let kind = match l.class.as_deref()? {
            "lm" | super::aov::CLASS => Kind::Lm,
            "glm" => Kind::Glm(family_of(l.field("family")).ok()?),
            _ => return None,
        };
        Some(Fit { kind, record: l })
    }

    /// A numeric field (R's `object$name`); an error naming it if absent.
    pub fn nums(&self, name: &str) -> Result<&'a [f64], KernelError> {
        match self.exact(name) {
            Some(Value::Num(v)) => Ok(v),
            _ => Err(KernelError::new(format!(
                "the model has no numeric field '{name}'"
            ))),
        }
    }

    pub fn scalar(&self, name: &str) -> Result<f64, KernelError> {
        match self.nums(name)? {
            [x] => Ok(*x),
            _ => Err(KernelError::new(format!(
                "the model's '{name}' is not a single number"
            ))),
        }
    }

    /// A field by its exact name.
    pub fn exact(&self, name: &str) -> Option<&'a Value> {
        let names = self.record.names.as_ref()?;
        let i = names.iter().position(|n| n == name)?;
        self.record.items.get(i)
    }

    pub fn names(&self) -> Vec<String> {
        match self.exact("coefficient.names") {
            Some(Value::Str(s)) => s.clone(),
            _ => Vec::new(),
        }
    }

    /// Prior weights: `lm`'s `weights`, `glm`'s `prior.weights`.
    pub fn prior_weights(&self) -> Option<&'a [f64]> {
        let name = match self.kind {
            Kind::Lm => "weights",
            Kind::Glm(_) => "prior.weights",
        };
        match self.exact(name) {
            Some(Value::Num(v)) => Some(v),
            _ => None,
        }
    }

    pub fn intercept(&self) -> bool {
        let Some(Value::List(t)) = self.exact("terms") else {
            return false;
        };
        matches!(t.field("intercept"), Some(Value::Bool(b)) if b.first() == Some(&Some(true)))
    }

    /// R's `xlevels[[label]]`: the levels the fit coded factor term
    /// `label` by.
    pub fn xlevels(&self, label: &str) -> Option<&'a [String]> {
        let Some(Value::List(t)) = self.exact("terms") else {
            return None;
        };
        let Some(Value::List(x)) = t.field("xlevels") else {
            return None;
        };
        let at = x.names.as_ref()?.iter().position(|n| n == label)?;
        match x.items.get(at) {
            Some(Value::Str(s)) => Some(s),
            _ => None,
        }
    }

    /// The fit's `contrasts` argument, as it was given (a named list),
    /// when it had one.
    pub fn contrasts(&self) -> Option<&'a Value> {
        let Some(Value::List(t)) = self.exact("terms") else {
            return None;
        };
        t.field("contrasts")
            .filter(|c| matches!(c, Value::List(l) if !l.items.is_empty()))
    }

    /// The contrasts the fit gave factor variable `label`, when given.
    pub fn contrast_of(&self, label: &str) -> Option<&'a Value> {
        let Value::List(c) = self.contrasts()? else {
            return None;
        };
        let at = c.names.as_ref()?.iter().position(|n| n == label)?;
        c.items.get(at)
    }

    /// Whether the fit has an offset (an `offset()` term or argument),
    /// whose values the record does not keep for a refit.
    pub fn has_offset(&self) -> bool {
        let Some(Value::List(t)) = self.exact("terms") else {
            return false;
        };
        matches!(t.field("offset"), Some(Value::Str(s)) if !s.is_empty())
    }

    pub fn term_labels(&self) -> Vec<String> {
        let Some(Value::List(t)) = self.exact("terms") else {
            return Vec::new();
        };
        match t.field("term.labels") {
            Some(Value::Str(s)) => s.clone(),
            _ => Vec::new(),
        }
    }

    /// The variables the fit's terms are made of, and each term's
    /// variables in R's order (the rows of the terms' `factors` column).
    pub fn term_variables(&self) -> (Vec<String>, Vec<Vec<usize>>) {
        let labels = self.term_labels();
        let Some(Value::List(t)) = self.exact("terms") else {
            return (labels, Vec::new());
        };
        match (t.field("variables"), t.field("factors")) {
            (Some(Value::Str(vars)), Some(Value::Mat(f)))
                if f.nrows() == vars.len() && f.ncols() == labels.len() =>
            {
                let terms = (0..f.ncols())
                    .map(|k| (0..f.nrows()).filter(|&v| f[(v, k)] != 0.0).collect())
                    .collect();
                (vars.clone(), terms)
            }
            // Each term one variable.
            _ => {
                let terms = (0..labels.len()).map(|k| vec![k]).collect();
                (labels, terms)
            }
        }
    }

    /// R's `predvars` of the fit's `variables` (see [`Fit::term_variables`]):
    /// the text `predict` evaluates in `newdata` for each, its own label
    /// unless a spline basis fixed its knots.
    pub fn predvars(&self, variables: &[String]) -> Vec<String> {
        match self.exact("terms") {
            Some(Value::List(t)) => match t.field("predvars") {
                Some(Value::Str(p)) if p.len() == variables.len() => p.clone(),
                _ => variables.to_vec(),
            },
            _ => variables.to_vec(),
        }
    }

    /// The fit's QR with its effects and, for each of the QR's first
    /// `rank` columns (pivot order), the term it belongs to (`assign`):
    /// what `anova.lm`, `summary.aov` and `proj` split the effects by.
    pub fn pivoted_effects(&self) -> Result<(Qr, &'a [f64], Vec<f64>), KernelError> {
        let qr = self.qr()?;
        let effects = self.nums("effects")?;
        let assign = self.nums("assign")?;
        if effects.len() < qr.rank || assign.len() != qr.p {
            return Err(KernelError::new(
                "the fit's effects or assign do not match its QR",
            ));
        }
        let asgn = (0..qr.rank).map(|i| assign[qr.pivot[i] - 1]).collect();
        Ok((qr, effects, asgn))
    }

    /// `deviance.lm`: the sum of squared weighted residuals
    /// (`weighted.residuals`), rows of weight zero left out.
    pub fn weighted_rss(&self) -> Result<f64, KernelError> {
        let r = self.nums("residuals")?;
        let sq: Vec<f64> = match self.prior_weights() {
            Some(w) if w.len() == r.len() => r
                .iter()
                .zip(w)
                .filter(|(_, w)| **w != 0.0)
                .map(|(r, w)| {
                    let x = r * w.sqrt();
                    x * x
                })
                .collect(),
            _ => r.iter().map(|r| r * r).collect(),
        };
        Ok(sum(&sq, true))
    }

    /// R's `c("(Intercept)", term.labels)[1 + asgn]`: the name of each
    /// group of effects of `assign`, as anova tables name their rows.
    pub fn effect_names(&self, assign: &[f64]) -> Vec<String> {
        let labels = self.term_labels();
        assign
            .iter()
            .map(|&a| match a as usize {
                0 => "(Intercept)".to_string(),
                k => labels.get(k - 1).cloned().unwrap_or_default(),
            })
            .collect()
    }

    /// The QR decomposition the fit ended with (`qr.lm(object)`).
    pub fn qr(&self) -> Result<Qr, KernelError> {
        let bad = || KernelError::new("lm object does not have a proper 'qr' component");
        let Some(Value::List(q)) = self.exact("qr") else {
            return Err(bad());
        };
        let Some(Value::Mat(m)) = q.field("qr") else {
            return Err(bad());
        };
        let (n, p) = m.shape();
        let num = |f: &str| match q.field(f) {
            Some(Value::Num(v)) => Ok(v.clone()),
            _ => Err(bad()),
        };
        let rank = num("rank")?;
        let qraux = num("qraux")?;
        let pivot = num("pivot")?;
        let rank = match rank.as_slice() {
            [r] if (0.0..=n.min(p) as f64).contains(r) => *r as usize,
            _ => return Err(bad()),
        };
        if qraux.len() != p
            || pivot.len() != p
            || pivot.iter().any(|&v| !(1.0..=p as f64).contains(&v))
        {
            return Err(bad());
        }
        Ok(Qr {
            qr: m.as_slice().to_vec(),
            n,
            p,
            rank,
            qraux,
            pivot: pivot.iter().map(|&v| v as usize).collect(),
        })
    }
}

/// The refits of drop1, add1, step and a glm's sequential anova are of
/// model matrices, which hold no offset: a fit with one is refused rather
/// than refitted without it.
pub(super) fn no_offset(fit: &Fit) -> Result<(), KernelError> {
    if fit.has_offset() {
        return Err(KernelError::new(
            "flowcast refits a model's columns only for a fit without an offset",
        ));
    }
    Ok(())
}

pub(super) fn not_a_model(func: &str, what: &str) -> KernelError {
    KernelError::new(format!(
        "flowcast's {func}() takes a model fitted by lm() or glm(), not a {what}"
    ))
}

/// The shape-time check of a model argument: its class, when known.
pub(super) fn model_type<'t>(
    args: &'t Args<Type>,
    name: &str,
) -> Result<Option<&'t Type>, ArgError> {
    match args.ty(name) {
        Some(t @ Type::Record { class, .. })
            if class == "lm"
                || class == "glm"
                || class == super::mlm::CLASS
                || class == super::mlm::MANOVA
                || class == super::aov::CLASS
                || class == super::nls::CLASS =>
        {
            Ok(Some(t))
        }
        None | Some(Type::Any) => Ok(None),
        Some(t) => Err(args.error(
            name,
            format!(
                "flowcast's {}() takes a model fitted by lm() or glm(), not {}",
                args.func,
                t.describe()
            ),
        )),
    }
}

/// A fit's record as kernels outside the models read it (`model.frame`
/// of a fit).
pub(crate) struct FitParts<'a>(Fit<'a>);

impl<'a> FitParts<'a> {
    /// An lm, aov or glm record; `None` for anything else.
    pub(crate) fn of(l: &'a List) -> Option<FitParts<'a>> {
        let kind = match l.class.as_deref()? {
            "lm" | super::aov::CLASS => Kind::Lm,
            "glm" => Kind::Glm(family_of(l.field("family")).ok()?),
            _ => return None,
        };
        Some(FitParts(Fit { kind, record: l }))
    }

    pub(crate) fn field(&self, name: &str) -> Option<&'a Value> {
        self.0.exact(name)
    }

    pub(crate) fn nums(&self, name: &str) -> Result<&'a [f64], KernelError> {
        self.0.nums(name)
    }

    pub(crate) fn names(&self) -> Vec<String> {
        self.0.names()
    }

    pub(crate) fn has_offset(&self) -> bool {
        self.0.has_offset()
    }

    /// Whether its response was recoded (a binomial glm's factor or
    /// two-column response is not its `y`).
    pub(crate) fn binomial(&self) -> bool {
        matches!(self.0.kind, Kind::Glm(f) if f.binomial_like())
    }

    /// The variables its terms are made of, in R's order.
    pub(crate) fn variables(&self) -> Vec<String> {
        self.0.term_variables().0
    }
}
