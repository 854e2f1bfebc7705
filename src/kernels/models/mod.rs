//! Fitted models beyond `lm`: `glm` with its families, and the functions
//! R users call on a fit (`coef`, `residuals`, `fitted`, `summary`,
//! `anova`, `predict`, `logLik`, `AIC`, `BIC`, `deviance`, `df.residual`,
//! `nobs`, `vcov`, `confint`).

mod accessors;
mod anova;
mod aov;
mod family;
mod fit;
mod glm;
mod influence;
mod info;
mod predict;
mod summary;

use family::Family;

use super::{opt, req, ArgError, Args, Kernel, KernelError, ShapeCtx, Type, Value, DOTS};

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "aov",
        params: &[req("formula"), opt("data"), opt("subset")],
        random: false,
        shape: aov::aov_shape,
        eval: aov::aov_eval,
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
        name: "glm",
        params: &[
            req("formula"),
            opt("family"),
            opt("data"),
            opt("weights"),
            opt("subset"),
        ],
        random: false,
        shape: glm::glm_shape,
        eval: glm::glm_eval,
    },
    Kernel {
        name: "gaussian",
        params: &[opt("link")],
        random: false,
        shape: family_shape,
        eval: |a, _| family_eval(a, Family::Gaussian),
    },
    Kernel {
        name: "binomial",
        params: &[opt("link")],
        random: false,
        shape: family_shape,
        eval: |a, _| family_eval(a, Family::Binomial),
    },
    Kernel {
        name: "poisson",
        params: &[opt("link")],
        random: false,
        shape: family_shape,
        eval: |a, _| family_eval(a, Family::Poisson),
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
        params: &[req("object"), DOTS],
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
];

/// `binomial(link = "logit")`: only the canonical link is fitted.
fn family_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let family = match args.func {
        "binomial" => Family::Binomial,
        "poisson" => Family::Poisson,
        _ => Family::Gaussian,
    };
    if let Some(link) = args.const_str("link") {
        if link != family.link() {
            return Err(args.error("link", link_error(family, link)));
        }
    }
    let s = |v: &str| Type::str_const(v);
    Ok(Type::record(
        "family",
        vec![("family", s(family.name())), ("link", s(family.link()))],
    ))
}

fn link_error(family: Family, link: &str) -> String {
    format!(
        "flowcast's glm() fits the {} family with its canonical link \"{}\" only, not \"{link}\"",
        family.name(),
        family.link()
    )
}

fn family_eval(args: &Args<&Value>, family: Family) -> Result<Value, KernelError> {
    let link = args.str_or("link", family.link())?;
    if link != family.link() {
        return Err(KernelError::new(link_error(family, link)));
    }
    Ok(family.value())
}
