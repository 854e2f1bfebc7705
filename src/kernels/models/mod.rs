//! Fitted models beyond `lm`: `glm` with its families, and the functions
//! R users call on a fit (`coef`, `residuals`, `fitted`, `summary`,
//! `anova`, `predict`, `logLik`, `AIC`, `BIC`, `deviance`, `df.residual`,
//! `nobs`, `vcov`, `confint`, `extractAIC`, `drop1`, `add1`, `step`,
//! `update`).

mod accessors;
mod anova;
mod aov;
mod dummy_coef;
mod effects;
mod family;
mod fit;
pub(crate) use fit::FitParts;
mod glm;
mod influence;
mod info;
pub(crate) mod mlm;
pub(crate) mod nls;
mod plinear;
mod predict;
mod select;
pub(crate) mod self_start;
mod summary;
mod tables;
mod weights;

use family::{Dist, Family, Link, Variance};

use super::{opt, req, ArgError, Args, Kernel, KernelError, ShapeCtx, Type, Value, DOTS};

/// Whether a glm call's family is known before the run to be gaussian with
/// the identity link (the default): IRLS then converges on its second
/// iteration, the first fit being the least-squares one.
pub(crate) fn glm_is_least_squares(args: &Args<Type>) -> bool {
    glm::family_type(args).ok().flatten() == Some(Family::new(Dist::Gaussian, Link::Identity))
}

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "nls",
        params: &[
            req("formula"),
            opt("data"),
            opt("start"),
            opt("control"),
            opt("algorithm"),
            opt("trace"),
            opt("subset"),
            opt("weights"),
            opt("na.action"),
            opt("model"),
            opt("lower"),
            opt("upper"),
            DOTS,
        ],
        random: false,
        shape: nls::nls_shape,
        eval: nls::nls_eval,
    },
    Kernel {
        name: "nls.control",
        params: &[
            opt("maxiter"),
            opt("tol"),
            opt("minFactor"),
            opt("printEval"),
            opt("warnOnly"),
            opt("scaleOffset"),
            opt("nDcentral"),
        ],
        random: false,
        shape: nls::control_shape,
        eval: nls::control_eval,
    },
    Kernel {
        name: "sigma",
        params: &[req("object"), DOTS],
        random: false,
        shape: nls::sigma_shape,
        eval: nls::sigma_eval,
    },
    Kernel {
        name: "aov",
        params: &[req("formula"), opt("data"), opt("subset"), opt("na.action")],
        random: false,
        shape: aov::aov_shape,
        eval: aov::aov_eval,
    },
    Kernel {
        name: "manova",
        params: &[req("formula"), opt("data"), opt("subset")],
        random: false,
        shape: mlm::manova_shape,
        eval: mlm::manova_eval,
    },
    Kernel {
        name: "SSD",
        params: &[req("object"), DOTS],
        random: false,
        shape: mlm::ssd_shape,
        eval: mlm::ssd_eval,
    },
    Kernel {
        name: "mauchly.test",
        params: &[
            req("object"),
            opt("Sigma"),
            opt("T"),
            opt("M"),
            opt("X"),
            opt("idata"),
            DOTS,
        ],
        random: false,
        shape: mlm::mauchly_shape,
        eval: mlm::mauchly_eval,
    },
    Kernel {
        name: "estVar",
        params: &[req("object"), DOTS],
        random: false,
        shape: mlm::est_var_shape,
        eval: mlm::est_var_eval,
    },
    Kernel {
        name: "TukeyHSD",
        params: &[
            req("x"),
            opt("which"),
            opt("ordered"),
            opt("conf.level"),
            DOTS,
        ],
        random: false,
        shape: aov::tukey_shape,
        eval: aov::tukey_eval,
    },
    Kernel {
        name: "model.tables",
        params: &[req("x"), opt("type"), opt("se"), opt("cterms"), DOTS],
        random: false,
        shape: tables::tables_shape,
        eval: tables::tables_eval,
    },
    Kernel {
        name: "replications",
        params: &[req("formula"), opt("data"), opt("na.action")],
        random: false,
        shape: tables::replications_shape,
        eval: tables::replications_eval,
    },
    Kernel {
        name: "glm",
        params: &[
            req("formula"),
            opt("family"),
            opt("data"),
            opt("weights"),
            opt("subset"),
            opt("na.action"),
            opt("contrasts"),
            opt("offset"),
        ],
        random: false,
        shape: glm::glm_shape,
        eval: glm::glm_eval,
    },
    Kernel {
        name: "glm.fit",
        params: &[
            req("x"),
            req("y"),
            opt("weights"),
            opt("start"),
            opt("etastart"),
            opt("mustart"),
            opt("offset"),
            opt("family"),
            opt("control"),
            opt("intercept"),
            opt("singular.ok"),
        ],
        random: false,
        shape: glm::glm_fit_shape,
        eval: glm::glm_fit_eval,
    },
    Kernel {
        name: "gaussian",
        params: &[opt("link")],
        random: false,
        shape: family_shape,
        eval: |a, _| family_eval(a, Dist::Gaussian),
    },
    Kernel {
        name: "binomial",
        params: &[opt("link")],
        random: false,
        shape: family_shape,
        eval: |a, _| family_eval(a, Dist::Binomial),
    },
    Kernel {
        name: "poisson",
        params: &[opt("link")],
        random: false,
        shape: family_shape,
        eval: |a, _| family_eval(a, Dist::Poisson),
    },
    Kernel {
        name: "Gamma",
        params: &[opt("link")],
        random: false,
        shape: family_shape,
        eval: |a, _| family_eval(a, Dist::Gamma),
    },
    Kernel {
        name: "inverse.gaussian",
        params: &[opt("link")],
        random: false,
        shape: family_shape,
        eval: |a, _| family_eval(a, Dist::InverseGaussian),
    },
    Kernel {
        name: "quasibinomial",
        params: &[opt("link")],
        random: false,
        shape: family_shape,
        eval: |a, _| family_eval(a, Dist::QuasiBinomial),
    },
    Kernel {
        name: "quasipoisson",
        params: &[opt("link")],
        random: false,
        shape: family_shape,
        eval: |a, _| family_eval(a, Dist::QuasiPoisson),
    },
    Kernel {
        name: "quasi",
        params: &[opt("link"), opt("variance")],
        random: false,
        shape: family_shape,
        eval: |a, _| family_eval(a, Dist::Quasi(Variance::Constant)),
    },
    Kernel {
        name: "family",
        params: &[req("object"), DOTS],
        random: false,
        shape: family_of_shape,
        eval: family_of_eval,
    },
    Kernel {
        name: "make.link",
        params: &[req("link")],
        random: false,
        shape: make_link_shape,
        eval: make_link_eval,
    },
    Kernel {
        name: "glm.control",
        params: &[opt("epsilon"), opt("maxit"), opt("trace")],
        random: false,
        shape: glm::control_shape,
        eval: glm::control_eval,
    },
    Kernel {
        name: "weights",
        params: &[req("object"), opt("type"), DOTS],
        random: false,
        shape: weights::weights_shape,
        eval: weights::weights_eval,
    },
    Kernel {
        name: "case.names",
        params: &[req("object"), opt("full"), DOTS],
        random: false,
        shape: weights::case_names_shape,
        eval: weights::case_names_eval,
    },
    Kernel {
        name: "variable.names",
        params: &[req("object"), opt("full"), DOTS],
        random: false,
        shape: effects::shape,
        eval: effects::variable_names_eval,
    },
    Kernel {
        name: "dummy.coef",
        params: &[req("object"), opt("use.na"), DOTS],
        random: false,
        shape: dummy_coef::dummy_coef_shape,
        eval: dummy_coef::dummy_coef_eval,
    },
    Kernel {
        name: "effects",
        params: &[req("object"), opt("set.sign"), DOTS],
        random: false,
        shape: effects::shape,
        eval: effects::effects_eval,
    },
    Kernel {
        name: "coef",
        params: &[req("object"), DOTS],
        random: false,
        shape: accessors::coef_shape,
        eval: accessors::coef_eval,
    },
    Kernel {
        name: "coefficients",
        params: &[req("object"), DOTS],
        random: false,
        shape: accessors::coef_shape,
        eval: accessors::coef_eval,
    },
    Kernel {
        name: "residuals",
        params: &[req("object"), opt("type"), DOTS],
        random: false,
        shape: accessors::residuals_shape,
        eval: accessors::residuals_eval,
    },
    Kernel {
        name: "resid",
        params: &[req("object"), opt("type"), DOTS],
        random: false,
        shape: accessors::residuals_shape,
        eval: accessors::residuals_eval,
    },
    Kernel {
        name: "fitted",
        params: &[req("object"), DOTS],
        random: false,
        shape: accessors::fitted_shape,
        eval: accessors::fitted_eval,
    },
    Kernel {
        name: "fitted.values",
        params: &[req("object"), DOTS],
        random: false,
        shape: accessors::fitted_shape,
        eval: accessors::fitted_eval,
    },
    Kernel {
        name: "summary",
        params: &[req("object"), opt("dispersion"), DOTS],
        random: false,
        shape: summary::summary_shape,
        eval: summary::summary_eval,
    },
    Kernel {
        name: "anova",
        params: &[req("object"), DOTS, opt("dispersion"), opt("test")],
        random: false,
        shape: anova::anova_shape,
        eval: anova::anova_eval,
    },
    Kernel {
        name: "predict",
        params: &[
            req("object"),
            opt("newdata"),
            opt("type"),
            opt("se.fit"),
            opt("interval"),
            opt("level"),
            DOTS,
        ],
        random: false,
        shape: predict::predict_shape,
        eval: predict::predict_eval,
    },
    Kernel {
        name: "logLik",
        params: &[req("object"), DOTS],
        random: false,
        shape: info::scalar_shape,
        eval: info::log_lik_eval,
    },
    Kernel {
        name: "AIC",
        params: &[req("object"), DOTS, opt("k")],
        random: false,
        shape: info::scalar_shape,
        eval: info::aic_eval,
    },
    Kernel {
        name: "BIC",
        params: &[req("object"), DOTS],
        random: false,
        shape: info::scalar_shape,
        eval: info::bic_eval,
    },
    Kernel {
        name: "deviance",
        params: &[req("object"), DOTS],
        random: false,
        shape: info::scalar_shape,
        eval: info::deviance_eval,
    },
    Kernel {
        name: "extractAIC",
        params: &[req("fit"), opt("scale"), opt("k"), DOTS],
        random: false,
        shape: select::extract_aic_shape,
        eval: select::extract_aic_eval,
    },
    Kernel {
        name: "drop1",
        params: &[
            req("object"),
            opt("scope"),
            opt("scale"),
            opt("all.cols"),
            opt("test"),
            opt("k"),
            DOTS,
        ],
        random: false,
        shape: select::drop1_shape,
        eval: select::drop1_eval,
    },
    Kernel {
        name: "step",
        params: &[
            req("object"),
            opt("scope"),
            opt("scale"),
            opt("direction"),
            opt("trace"),
            opt("keep"),
            opt("steps"),
            opt("k"),
            DOTS,
        ],
        random: false,
        shape: select::step_shape,
        eval: select::step_eval,
    },
    Kernel {
        name: "add1",
        params: &[
            req("object"),
            opt("scope"),
            opt("scale"),
            opt("test"),
            opt("x"),
            opt("k"),
            DOTS,
        ],
        random: false,
        shape: select::add1_shape,
        eval: select::add1_eval,
    },
    Kernel {
        name: "update",
        params: &[req("object"), opt("formula."), DOTS, opt("evaluate")],
        random: false,
        shape: select::update_shape,
        eval: select::update_eval,
    },
    Kernel {
        name: "df.residual",
        params: &[req("object"), DOTS],
        random: false,
        shape: info::scalar_shape,
        eval: info::df_residual_eval,
    },
    Kernel {
        name: "nobs",
        params: &[req("object"), DOTS],
        random: false,
        shape: info::scalar_shape,
        eval: info::nobs_eval,
    },
    Kernel {
        name: "vcov",
        params: &[req("object"), DOTS],
        random: false,
        shape: info::vcov_shape,
        eval: info::vcov_eval,
    },
    Kernel {
        name: "confint",
        params: &[req("object"), opt("parm"), opt("level"), DOTS],
        random: false,
        shape: info::confint_shape,
        eval: info::confint_eval,
    },
    Kernel {
        name: "confint.default",
        params: &[req("object"), opt("parm"), opt("level"), DOTS],
        random: false,
        shape: info::confint_shape,
        eval: info::confint_eval,
    },
    Kernel {
        name: "lm.influence",
        params: &[req("model"), opt("do.coef")],
        random: false,
        shape: influence::influence_shape,
        eval: influence::influence_eval,
    },
    Kernel {
        name: "influence",
        params: &[req("model"), opt("do.coef"), DOTS],
        random: false,
        shape: influence::influence_shape,
        eval: influence::influence_eval,
    },
    Kernel {
        name: "weighted.residuals",
        params: &[req("obj"), opt("drop0")],
        random: false,
        shape: influence::weighted_residuals_shape,
        eval: influence::weighted_residuals_eval,
    },
    Kernel {
        name: "hatvalues",
        params: &[req("model"), opt("infl"), DOTS],
        random: false,
        shape: influence::vector_shape,
        eval: influence::hatvalues_eval,
    },
    Kernel {
        name: "rstandard",
        params: &[req("model"), opt("infl"), opt("sd"), opt("type"), DOTS],
        random: false,
        shape: influence::rstandard_shape,
        eval: influence::rstandard_eval,
    },
    Kernel {
        name: "rstudent",
        params: &[req("model"), opt("infl"), opt("res"), DOTS],
        random: false,
        shape: influence::vector_shape,
        eval: influence::rstudent_eval,
    },
    Kernel {
        name: "cooks.distance",
        params: &[
            req("model"),
            opt("infl"),
            opt("res"),
            opt("sd"),
            opt("dispersion"),
            opt("hat"),
            DOTS,
        ],
        random: false,
        shape: influence::vector_shape,
        eval: influence::cooks_eval,
    },
    Kernel {
        name: "dffits",
        params: &[req("model"), opt("infl"), opt("res")],
        random: false,
        shape: influence::vector_shape,
        eval: influence::dffits_eval,
    },
    Kernel {
        name: "covratio",
        params: &[req("model"), opt("infl"), opt("res")],
        random: false,
        shape: influence::vector_shape,
        eval: influence::covratio_eval,
    },
    Kernel {
        name: "dfbeta",
        params: &[req("model"), opt("infl"), DOTS],
        random: false,
        shape: influence::matrix_shape,
        eval: influence::dfbeta_eval,
    },
    Kernel {
        name: "dfbetas",
        params: &[req("model"), opt("infl"), DOTS],
        random: false,
        shape: influence::matrix_shape,
        eval: influence::dfbeta_eval,
    },
    Kernel {
        name: "influence.measures",
        params: &[req("model"), opt("infl")],
        random: false,
        shape: influence::influence_measures_shape,
        eval: influence::influence_measures_eval,
    },
];

/// A family function's distribution, by the function's name.
fn dist_of(func: &str) -> Dist {
    Dist::from_name(func).unwrap_or(Dist::Gaussian)
}

/// `Gamma(link = "log")`: a link is any of `make.link`'s names given as a
/// string (R checks a family's own list of links only for a bare name,
/// which a flowcast expression cannot pass).
fn family_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let dist = dist_of(args.func);
    let link = match args.const_str("link") {
        Some(l) => Link::from_name(l).map_err(|e| args.error("link", e.0))?,
        None => dist.default_link(),
    };
    let s = |v: &str| Type::str_const(v);
    let mut fields = vec![("family", s(dist.name())), ("link", s(link.name()))];
    if let Dist::Quasi(_) = dist {
        let v = match args.const_str("variance") {
            Some(v) => Variance::from_name(v).map_err(|e| args.error("variance", e.0))?,
            None => Variance::Constant,
        };
        fields.push(("varfun", s(v.name())));
    }
    Ok(Type::record("family", fields))
}

fn family_eval(args: &Args<&Value>, mut dist: Dist) -> Result<Value, KernelError> {
    let link = Link::from_name(args.str_or("link", dist.default_link().name())?)?;
    if let Dist::Quasi(_) = dist {
        dist = Dist::Quasi(Variance::from_name(args.str_or("variance", "constant")?)?);
    }
    Ok(Family::new(dist, link).value())
}

/// `family(object)`: a glm's family (`family.glm`), an lm's gaussian
/// (`family.lm`).
fn family_of_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    match args.ty("object") {
        Some(Type::Record { class, fields }) if class == "glm" => Ok(fields
            .iter()
            .find(|(n, _)| n == "family")
            .map_or(Type::Any, |(_, t)| t.clone())),
        Some(Type::Record { class, .. }) if class == "lm" || class == aov::CLASS => {
            Ok(Type::record(
                "family",
                vec![
                    ("family", Type::str_const("gaussian")),
                    ("link", Type::str_const("identity")),
                ],
            ))
        }
        _ => Ok(Type::Any),
    }
}

fn family_of_eval(args: &Args<&Value>, _: &mut super::Ctx) -> Result<Value, KernelError> {
    let object = args.get("object").map(super::names::bare);
    if let Some(Value::List(l)) = object {
        match l.class.as_deref() {
            Some("glm") => {
                return l
                    .field("family")
                    .cloned()
                    .ok_or_else(|| KernelError::new("a glm fit without its 'family'"))
            }
            Some("lm") | Some(aov::CLASS) => {
                return Ok(Family::new(Dist::Gaussian, Link::Identity).value())
            }
            _ => {}
        }
    }
    // UseMethod's error: family has a method for glm and lm alone.
    let class = match object {
        Some(Value::Num(_)) => "c('double', 'numeric')".to_string(),
        Some(Value::Mat(_)) => "c('matrix', 'array', 'double', 'numeric')".to_string(),
        Some(Value::Str(_)) => "character".to_string(),
        Some(Value::Bool(_)) => "logical".to_string(),
        Some(Value::Factor(_)) => "factor".to_string(),
        Some(Value::Null) => "NULL".to_string(),
        Some(Value::List(l)) => l.class.clone().unwrap_or_else(|| "list".to_string()),
        Some(v) => v.type_name().to_string(),
        None => {
            return Err(KernelError::new(
                "argument \"object\" is missing, with no default",
            ))
        }
    };
    Err(KernelError::new(format!(
        "no applicable method for 'family' applied to an object of class \"{class}\""
    )))
}

fn make_link_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if let Some(l) = args.const_str("link") {
        Link::from_name(l).map_err(|e| args.error("link", e.0))?;
    }
    Ok(Type::record(
        "link-glm",
        vec![(
            "name",
            Type::Str {
                len: Some(1),
                value: None,
            },
        )],
    ))
}

/// `make.link(link)`: R's link object, of which flowcast keeps the name
/// (its functions are no values here).
fn make_link_eval(args: &Args<&Value>, _: &mut super::Ctx) -> Result<Value, KernelError> {
    let name = match args.get("link").map(super::names::bare) {
        Some(Value::Str(s)) if s.len() == 1 => s[0].clone(),
        _ => {
            return Err(KernelError::new(
                "flowcast's make.link() takes a link's name as one string",
            ))
        }
    };
    let link = Link::from_name(&name)?;
    Ok(Value::List(super::value::List::record(
        "link-glm",
        vec![("name", Value::string(link.name()))],
    )))
}
